// `npx tsx test/bench/profile/summarise.ts <file.cpuprofile> [rows]`: where a V8 CPU profile
// (node --cpu-prof) spent its time, by function: self time, then inclusive time (each function
// counted once per sample however deep it recurses). Enough to see a hot path without DevTools.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, rowsArg] = process.argv.slice(2);
if (!file) throw new Error('usage: summarise.ts <file.cpuprofile> [rows]');
const rows = Number(rowsArg ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;

const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
const label = (node: ProfileNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
};

const sampled = new Map<number, number>();
profile.samples.forEach((id, i) => sampled.set(id, (sampled.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
for (const [id, micros] of sampled) {
  total += micros;
  const leaf = nodes.get(id)!;
  self.set(label(leaf), (self.get(label(leaf)) ?? 0) + micros);
  const seen = new Set<string>();
  for (let current: number | undefined = id; current !== undefined; current = parents.get(current)) {
    const name = label(nodes.get(current)!);
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + micros);
  }
}

const table = (title: string, times: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [name, micros] of [...times].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    console.log(`${(micros / 1000).toFixed(0).padStart(7)} ms ${((micros / total) * 100).toFixed(1).padStart(5)}%  ${name}`);
  }
};
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
table('self', self);
table('inclusive', inclusive);
