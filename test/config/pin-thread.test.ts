// The core's scrypt thread (main/config/scrypt-thread.ts): every PIN checked or hashed by the core
// runs on one worker thread of its own, not on libuv's pool (docs/store-mode-memory.md). It answers
// as crypto.scrypt did (the stored hashes still verify), one thread for any number of checks at once,
// a thread that died is replaced on the next check, a failure rejects the check (never a match),
// it ends once idle (a new one starts for the next check), and it never holds a process open at exit.
import { spawnSync } from 'node:child_process';
import { randomBytes, scryptSync } from 'node:crypto';
import { resolve } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { buildSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { hashManagerPin, hashPin, pinMatches } from '../../main/config/manager-pin';
import { ScryptThread } from '../../main/config/scrypt-thread';

const ROOT = resolve(import.meta.dirname, '../..');

/** A thread of the test's own, with the workers it started. */
function watchedThread(idleMs?: number): { thread: ScryptThread; started: Worker[] } {
  const started: Worker[] = [];
  return { thread: new ScryptThread((worker) => started.push(worker), idleMs), started };
}

describe('the scrypt thread', () => {
  it('checks the stored hash format: a right PIN matches, a wrong one or a malformed hash does not', async () => {
    const { thread, started } = watchedThread();
    const salt = randomBytes(16);
    // Made as every stored hash was: scrypt with Node's default cost, on the caller's thread.
    const stored = `scrypt:${salt.toString('base64')}:${scryptSync('4821', salt, 32).toString('base64')}`;
    expect(await pinMatches('4821', stored, thread)).toBe(true);
    expect(await pinMatches('4822', stored, thread)).toBe(false);
    for (const malformed of ['garbage', '', 'scrypt::', `scrypt:${salt.toString('base64')}:c2hvcnQ=`, stored.replace('scrypt:', 'bcrypt:')]) {
      expect(await pinMatches('4821', malformed, thread)).toBe(false);
    }
    // And a hash made on the thread verifies on the caller's thread.
    const made = await hashPin('5937', thread);
    const [, madeSalt, madeKey] = made.split(':') as [string, string, string];
    expect(scryptSync('5937', Buffer.from(madeSalt, 'base64'), 32).toString('base64')).toBe(madeKey);
    expect(started).toHaveLength(1);
  });

  it('answers many checks at once, each its own answer, on one thread', async () => {
    const { thread, started } = watchedThread();
    const hashes = ['4826', '5937', '6048'].map((pin) => ({ pin, hash: hashManagerPin(pin) }));
    const checks = hashes.flatMap(({ hash }) => ['4826', '5937', '6048', '7159'].map((pin) => ({ pin, hash })));
    const answers = await Promise.all(checks.map(({ pin, hash }) => pinMatches(pin, hash, thread)));
    expect(answers).toEqual(checks.map(({ pin, hash }) => hashes.some((h) => h.hash === hash && h.pin === pin)));
    expect(started).toHaveLength(1);
  });

  it('refuses the checks pending on a thread that dies, and starts a new thread for the next check', async () => {
    const { thread, started } = watchedThread();
    const hash = hashManagerPin('4826');
    expect(await pinMatches('4826', hash, thread)).toBe(true);

    // Stopped while three checks wait: the first may already be hashing (if its answer gets out, it is
    // the right one: false); the ones queued behind it, the right PIN's among them, are refused.
    const pending = [pinMatches('5937', hash, thread), pinMatches('5937', hash, thread), pinMatches('4826', hash, thread)];
    await started[0]!.terminate();
    const [first, ...queued] = await Promise.allSettled(pending);
    const stopped = /PIN hashing thread stopped/;
    if (first!.status === 'fulfilled') expect(first!.value).toBe(false);
    else expect(String(first!.reason)).toMatch(stopped);
    for (const check of queued) {
      expect(check.status).toBe('rejected');
      if (check.status === 'rejected') expect(String(check.reason)).toMatch(stopped);
    }

    expect(await pinMatches('4826', hash, thread)).toBe(true);
    expect(await pinMatches('5937', hash, thread)).toBe(false);
    expect(started).toHaveLength(2);
  });

  it('ends its thread once idle, not while checks follow each other, and starts a new one for the next check', async () => {
    const { thread, started } = watchedThread(300);
    const hash = hashManagerPin('4826');
    // One after the other, as a sign-in checks a PIN against each hash: one thread.
    for (const pin of ['5937', '6048', '4826']) await pinMatches(pin, hash, thread);
    expect(started).toHaveLength(1);
    const ended = new Promise<number>((resolve) => started[0]!.once('exit', resolve));
    expect(await ended).toBe(1); // terminated
    expect(await pinMatches('4826', hash, thread)).toBe(true);
    expect(await pinMatches('5937', hash, thread)).toBe(false);
    expect(started).toHaveLength(2);
  });

  it('rejects a key the worker fails to derive', async () => {
    const { thread } = watchedThread();
    await expect(thread.derive('4826', randomBytes(16), -1)).rejects.toThrow(/PIN hashing failed/);
    expect(await pinMatches('4826', hashManagerPin('4826'), thread)).toBe(true);
  });

  it('keeps a process open while a check is pending, and lets it exit once answered', () => {
    const entry = [
      "import { hashManagerPin, pinMatches } from './main/config/manager-pin';",
      "const hash = hashManagerPin('4826');",
      "console.log(await pinMatches('4826', hash), await pinMatches('5937', hash));",
    ].join('\n');
    const bundle = buildSync({ stdin: { contents: entry, resolveDir: ROOT, loader: 'ts' }, bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', write: false, logLevel: 'error' });
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', bundle.outputFiles[0]!.text], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(child.stderr).toBe('');
    expect(child.stdout).toBe('true false\n');
    expect(child.status).toBe(0);
  });
});
