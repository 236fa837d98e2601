// Cruises small fixture trees with the real .dependency-cruiser.cjs: the architecture suites write
// the imports they mean to allow or forbid and read back the rules that fire.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const repo = resolve(import.meta.dirname, '../..');
const workspaces: string[] = [];

export interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** Writes `files` into a fresh tree beside the real config and returns the rules that fire. */
export function violationsFor(files: Record<string, string>, prefix = 'arch-'): Violation[] {
  const root = mkdtempSync(join(tmpdir(), prefix));
  workspaces.push(root);
  symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'), 'dir');
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { moduleResolution: 'Bundler', module: 'ESNext' } }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const folders = [...new Set(Object.keys(files).map((p) => p.split('/')[0] as string))];
  let output: string;
  try {
    output = execFileSync(join(repo, 'node_modules/.bin/depcruise'), ['--config', join(repo, '.dependency-cruiser.cjs'), '--output-type', 'json', ...folders], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    // depcruise exits non-zero when it finds violations; its JSON report is still on stdout.
    output = (error as { stdout: string }).stdout;
  }
  return (JSON.parse(output) as { summary: { violations: Violation[] } }).summary.violations;
}

/** Removes the trees violationsFor wrote (a suite's afterAll). */
export function removeCruisedTrees(): void {
  for (const dir of workspaces.splice(0)) rmSync(dir, { recursive: true, force: true });
}
