// `npx tsx test/bench/profile/heap-summary.ts <file.heapsnapshot> [rows]`: what a V8 heap snapshot
// holds, by node type and constructor (self sizes), largest first, and its largest strings and
// code by script: enough to see where a heap goes without DevTools.
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

const [file, rowsArg] = process.argv.slice(2);
if (!file) throw new Error('usage: heap-summary.ts <file.heapsnapshot> [rows]');
const rows = Number(rowsArg ?? 25);
const snapshot = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
const fields = snapshot.snapshot.meta.node_fields;
const types = snapshot.snapshot.meta.node_types[0];
const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
const byKind = new Map<string, { count: number; bytes: number }>();
const strings: { bytes: number; text: string }[] = [];
let total = 0;
for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
  const type = types[snapshot.nodes[i + typeAt]!] ?? '?';
  const name = snapshot.strings[snapshot.nodes[i + nameAt]!] ?? '';
  const bytes = snapshot.nodes[i + sizeAt]!;
  total += bytes;
  // Objects by constructor; strings, code and the rest by type (their names are their contents).
  const kind = type === 'object' ? `object ${name}` : type === 'closure' ? 'closure' : type === 'native' ? `native ${name}` : type === 'code' ? `code ${name.replace(/\s*\(.*$/, '').slice(0, 40)}` : type;
  const entry = byKind.get(kind) ?? { count: 0, bytes: 0 };
  entry.count++;
  entry.bytes += bytes;
  byKind.set(kind, entry);
  if ((type === 'string' || type === 'concatenated string' || type === 'sliced string') && bytes > 100_000) strings.push({ bytes, text: name.slice(0, 80).replace(/\s+/g, ' ') });
}
const mb = (bytes: number) => (bytes / 1048576).toFixed(2);
console.log(`${mb(total)} MB in ${snapshot.nodes.length / fields.length} nodes`);
for (const [kind, { count, bytes }] of [...byKind].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, rows)) console.log(`${mb(bytes).padStart(8)} MB ${String(count).padStart(8)}  ${kind}`);
console.log('largest strings:');
for (const { bytes, text } of strings.sort((a, b) => b.bytes - a.bytes).slice(0, 10)) console.log(`${mb(bytes).padStart(8)} MB  ${JSON.stringify(text)}`);
