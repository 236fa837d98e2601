// Where the core's scrypt runs: a worker thread of its own that derives one key at a time
// (scryptSync inside), not libuv's thread pool. A PIN's scrypt (N = 16384, r = 8) takes a 16 MB
// buffer; on the pool, several ran at once on its 4 threads, and glibc kept each thread's 16 MB in
// that thread's malloc arena once freed: 30–50 MB of a till's RSS for good (docs/store-mode-memory.md).
// One thread reuses its one 16 MB block; a second would cost ~25 MB for a faster first sign-in with
// many staff. The main thread still never waits for a hash.
// The thread is started on the first key, restarted on the next one if it died (what was pending is
// rejected, never answered), and kept alive only while a key is pending: it never holds the
// process open at exit. It ends after 10 s without a key: PINs are hashed only at a first
// sign-in since launch or a wrong PIN, and an idle isolate costs ~7 MB of a till's RSS for hours
// against ~30 ms to start one again (docs/store-mode-memory.md). It is started from source text
// (eval), so the bundles need no entry of their own.
import { Worker } from 'node:worker_threads';

/**
 * Runs in the worker. A worker inherits the parent's flags, so its source may be read as CommonJS
 * or as a module (with --input-type=module): getBuiltinModule works in both. A failure is answered
 * as an error, never as a key.
 */
const WORKER_SOURCE = `
const { parentPort } = process.getBuiltinModule('node:worker_threads');
const { scryptSync } = process.getBuiltinModule('node:crypto');
parentPort.on('message', ({ id, pin, salt, length }) => {
  let key;
  try {
    key = scryptSync(pin, salt, length);
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
    return;
  }
  const bytes = key.buffer.slice(key.byteOffset, key.byteOffset + key.length);
  parentPort.postMessage({ id, key: bytes }, [bytes]);
});
`;

type Answer = { id: number; key: ArrayBuffer } | { id: number; error: string };

interface Pending {
  resolve(key: Buffer): void;
  reject(error: Error): void;
}

/** How long the thread outlives its last key: a burst of sign-ins (a shift starting, a PIN retried) reuses it. */
export const SCRYPT_IDLE_MS = 10_000;

export class ScryptThread {
  #worker: Worker | null = null;
  #pending = new Map<number, Pending>();
  #nextId = 0;
  #idle: NodeJS.Timeout | null = null;

  /**
   * `onStart` sees each worker started (tests stop one to see the next key restart it); `idleMs`:
   * how long the thread lives on without a key.
   */
  constructor(
    private readonly onStart?: (worker: Worker) => void,
    private readonly idleMs = SCRYPT_IDLE_MS,
  ) {}

  /** scrypt(pin, salt, length) with Node's default cost (N = 16384, r = 8, p = 1), as crypto.scrypt. */
  derive(pin: string, salt: Uint8Array, length: number): Promise<Buffer> {
    if (this.#idle !== null) clearTimeout(this.#idle);
    this.#idle = null;
    const worker = this.#worker ?? this.#start();
    const id = ++this.#nextId;
    return new Promise<Buffer>((resolve, reject) => {
      // A copy: the salt may be a view on Node's shared pool, which would be cloned whole. Posted
      // first: a message that cannot be sent rejects here and leaves nothing pending.
      worker.postMessage({ id, pin, salt: new Uint8Array(salt), length });
      if (this.#pending.size === 0) worker.ref();
      this.#pending.set(id, { resolve, reject });
    });
  }

  #start(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, name: 'pin-scrypt' });
    this.#worker = worker;
    worker.on('message', (answer: Answer) => {
      const pending = this.#pending.get(answer.id);
      if (!pending) return;
      this.#settled(answer.id, worker);
      if ('key' in answer) pending.resolve(Buffer.from(answer.key));
      else pending.reject(new Error(`PIN hashing failed: ${answer.error}`));
    });
    // An answer that cannot be read leaves its check unanswerable: stop the thread, which rejects them all.
    worker.on('messageerror', () => void worker.terminate());
    worker.on('error', (error) => this.#stopped(worker, `PIN hashing thread failed: ${error.message}`));
    worker.on('exit', (code) => this.#stopped(worker, `PIN hashing thread stopped (exit code ${code})`));
    // After the listeners: a 'message' listener refs the thread again.
    worker.unref();
    this.onStart?.(worker);
    return worker;
  }

  #settled(id: number, worker: Worker): void {
    this.#pending.delete(id);
    if (this.#pending.size > 0) return;
    worker.unref();
    this.#idle = setTimeout(() => this.#end(worker), this.idleMs);
    this.#idle.unref();
  }

  /** Idle for idleMs: the thread ends (nothing is pending), and the next key starts a new one. */
  #end(worker: Worker): void {
    this.#idle = null;
    if (this.#worker !== worker || this.#pending.size > 0) return;
    this.#worker = null;
    void worker.terminate();
  }

  /** The thread died: every pending key is refused, and the next one starts a new thread. */
  #stopped(worker: Worker, reason: string): void {
    if (this.#worker !== worker) return;
    this.#worker = null;
    if (this.#idle !== null) clearTimeout(this.#idle);
    this.#idle = null;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    void worker.terminate();
    for (const p of pending) p.reject(new Error(reason));
  }
}

/** The core's one scrypt thread (started on the first PIN checked or hashed). */
export const pinScrypt = new ScryptThread();
