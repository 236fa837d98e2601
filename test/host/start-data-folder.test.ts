// `npm start` with a data folder it cannot write (issue 22, finding 8): one plain sentence naming
// the folder, what is wrong and what to do, and a non-zero exit; never a stack trace. As root
// (the build machines run tests as root) chmod stops nothing, so the folders are ones no user may
// write: one under /sys (the kernel refuses: EPERM as root, EACCES as anyone else) and one whose
// parent is a file (ENOTDIR). A read-only file system (EROFS) takes the same path as EPERM
// (common/machine-problem.ts; test/core/machine-problems.test.ts checks the codes).
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../main/host/browser-mode';

function runStart(dataDir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(PROJECT_ROOT, 'main/host/launch.mjs')], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, POS_BROWSER_MODE: '1', POS_LOG_LEVEL: 'warn', POS_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** Lines a stack trace or a raw Node error would print. */
const RAW = /^\s+at |node:internal|Error: E[A-Z]+:|\{\s*$|errno:/m;

describe('npm start with a data folder it cannot write', () => {
  it('says the folder may not be written, and what to do, then stops with a non-zero exit', async () => {
    const run = await runStart('/sys/pos-terminal-data');
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(
      /The terminal could not start: it cannot write to its data folder \/sys\/pos-terminal-data: this program is not allowed to write there\. Give this user the right to write there \(or choose another folder with POS_DATA_DIR\)/,
    );
    expect(run.output).not.toMatch(RAW);
    expect(run.output).not.toMatch(/POS terminal is ready/);
  });

  it('names the folder when it cannot be made at all (a file is in the way)', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'pos-start-folder-'));
    writeFileSync(join(parent, 'data'), 'not a folder');
    const run = await runStart(join(parent, 'data', 'terminal'));
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(new RegExp(`The terminal could not start: its data folder ${join(parent, 'data', 'terminal')} cannot be used \\(ENOTDIR on `));
    expect(run.output).not.toMatch(RAW);
  });
});
