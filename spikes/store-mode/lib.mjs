// Shared helpers of the spike: entries, clocks, percentiles, memory sampling, disk usage, child processes.
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const ENTRY_BYTES = 1024;
export const CATCHUP_ENTRIES = Number(process.env.SPIKE_CATCHUP ?? 10_000);
export const LIVE_ENTRIES = Number(process.env.SPIKE_LIVE ?? 150);
export const LIVE_RATE_PER_S = 10;

/** CLOCK_MONOTONIC in ns: one clock for every process on this machine, so A's stamp is comparable on B. */
export const nowNs = () => process.hrtime.bigint();

/** A ~1 KB operation, shaped like an outbox row (op id, order id, a payload padded to size). */
export function makeEntry(seq, tillId = 'till-a') {
  const base = { opId: randomUUID(), till: tillId, seq, kind: 'order.update', entityId: `ord_${seq}`, sentNs: nowNs().toString(), payload: '' };
  const size = Buffer.byteLength(JSON.stringify(base));
  base.payload = 'x'.repeat(Math.max(0, ENTRY_BYTES - size));
  return Buffer.from(JSON.stringify(base));
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}
export function summarizeMs(samplesMs) {
  const s = [...samplesMs].sort((a, b) => a - b);
  const r = (x) => Math.round(x * 1000) / 1000;
  return { n: s.length, p50: r(percentile(s, 50)), p95: r(percentile(s, 95)), max: r(s[s.length - 1]) };
}

/** Peak RSS sampled every 20 ms until stop() (MB). */
export function rssSampler() {
  let peak = process.memoryUsage().rss;
  const t = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 20);
  return { stop() { clearInterval(t); peak = Math.max(peak, process.memoryUsage().rss); return mb(peak); } };
}
export const mb = (bytes) => Math.round((bytes / 1048576) * 10) / 10;

export function du(path) {
  let total = 0;
  let st;
  try { st = statSync(path); } catch { return 0; }
  if (!st.isDirectory()) return st.blocks * 512;
  for (const name of readdirSync(path)) total += du(join(path, name));
  return total;
}

/** Every child dies on its own: a hard deadline, and when its parent goes away. */
export function childGuard(ms = 90_000) {
  send({ type: 'alive' }); // the parent sends nothing before this: a message with no listener yet is lost
  setTimeout(() => { console.error(`[${process.argv[1]}] deadline ${ms} ms: exiting`); process.exit(3); }, ms).unref();
  process.on('disconnect', () => process.exit(0));
}

/** Fork a script with a role; resolves messages through `next(type)`. */
export function spawnRole(script, args, env = {}) {
  const child = fork(script, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const queue = [];
  const waiters = [];
  child.on('message', (m) => {
    const w = waiters.findIndex((x) => x.type === m.type);
    if (w >= 0) waiters.splice(w, 1)[0].resolve(m);
    else queue.push(m);
  });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  let alive;
  const aliveP = new Promise((resolve) => { alive = resolve; });
  waiters.push({ type: 'alive', resolve: () => alive() });
  const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  killer.unref();
  return {
    child,
    exited,
    send: (m) => { aliveP.then(() => { if (child.connected) child.send(m); }); },
    next(type, timeoutMs = 100_000) {
      const i = queue.findIndex((m) => m.type === type);
      if (i >= 0) return Promise.resolve(queue.splice(i, 1)[0]);
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`${script} ${args.join(' ')}: no '${type}' within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ type, resolve: (m) => { clearTimeout(t); resolve(m); } });
        child.once('exit', (code) => { clearTimeout(t); reject(new Error(`${script} ${args.join(' ')} exited ${code} before '${type}'`)); });
      });
    },
    /** Asks the child to stop (it closes its stores), kills it if it has not exited within 10 s. */
    async stop() {
      await aliveP;
      if (child.connected) child.send({ type: 'stop' });
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(t); clearTimeout(killer);
      return code;
    },
  };
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const send = (m) => process.send?.(m);
// The child's inbox: every message from the parent, kept until asked for by type.
const inbox = [];
const inboxWaiters = [];
process.on('message', (m) => {
  const w = inboxWaiters.findIndex((x) => x.type === m.type || x.type === '*');
  if (w >= 0) inboxWaiters.splice(w, 1)[0].resolve(m);
  else inbox.push(m);
});
/** The next message of that type ('*': any type) from the parent. */
export function onMessage(type) {
  const i = inbox.findIndex((m) => type === '*' || m.type === type);
  if (i >= 0) return Promise.resolve(inbox.splice(i, 1)[0]);
  return new Promise((resolve) => inboxWaiters.push({ type, resolve }));
}
