// The crash suites' child process: a writer script (test/child-script.ts) that says "ready", then one line
// per commit, and is SIGKILLed at a random moment of its work.
import { spawn } from 'node:child_process';
import { childArgs } from '../child-script';

/**
 * Runs `script` with `args` until it has been working for `runMs` after its "ready" line, SIGKILLs it,
 * and returns the lines it reported (the ids it committed). Rejects if it exits on its own.
 */
export function runAndKill(script: string, args: readonly string[], runMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...childArgs(script), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let timer: NodeJS.Timeout | undefined;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (!timer && out.startsWith('ready\n')) timer = setTimeout(() => child.kill('SIGKILL'), runMs);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`writer exited on its own: ${err}`));
      // Only whole lines were reported; a partial last line was never finished being said.
      const lines = out.split('\n').slice(0, -1);
      resolve(lines.filter((l) => l !== 'ready'));
    });
  });
}
