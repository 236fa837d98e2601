// A network receipt printer for tests: a real TCP server on 127.0.0.1 (port 0) that keeps the bytes
// of each connection, answers DLE EOT n at once with the status bytes it is set to (online, paper
// out, cover open, ...), closes its side when the client ends (as a raw 9100 port does), and can
// be down: refusing connections, resetting them, never answering its status, or breaking off in
// the middle of a job.
import { createServer, type Server, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { encodeStatus } from '../../printing/status';
import { decodeEscPos, normalizedText, type DecodedEscPos } from './escpos-decode';

export type FakePrinterCondition = Parameters<typeof encodeStatus>[0];

/**
 * up: prints. refuse: nothing listens (ECONNREFUSED). reset: accepts, then drops the connection.
 * silent: accepts and takes bytes but never answers its status. break_mid_job: answers its
 * status, then drops the connection once some job bytes arrived (the job may have printed).
 */
export type FakePrinterMode = 'up' | 'refuse' | 'reset' | 'silent' | 'break_mid_job';

export interface FakeConnection {
  id: number;
  /** Everything the client sent. */
  bytes: Buffer;
  /** The bytes without the DLE EOT status queries: the job, if any. */
  jobBytes: Buffer;
  statusQueries: number;
  /** The client ended it and the printer closed its side: a job fully taken. */
  endedCleanly: boolean;
  /** performance.now() when the client's end arrived (every byte received). */
  endedAt: number | null;
  openedAt: number;
}

const DLE = 0x10;
const EOT = 0x04;

function stripStatusQueries(bytes: Buffer): Buffer {
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === DLE && bytes[i + 1] === EOT && i + 2 < bytes.length) {
      i += 2;
      continue;
    }
    out.push(bytes[i] as number);
  }
  return Buffer.from(out);
}

export class FakePrinter {
  readonly connections: FakeConnection[] = [];
  #server: Server;
  #port: number;
  #mode: FakePrinterMode = 'up';
  #status: [number, number, number, number] = encodeStatus({});
  readonly #sockets = new Set<Socket>();

  private constructor(server: Server, port: number) {
    this.#server = server;
    this.#port = port;
  }

  static async start(condition: FakePrinterCondition = {}): Promise<FakePrinter> {
    const printer = new FakePrinter(createServer(), 0);
    printer.setStatus(condition);
    await printer.#listen(0);
    return printer;
  }

  get port(): number {
    return this.#port;
  }

  get url(): string {
    return `tcp://127.0.0.1:${this.#port}`;
  }

  get mode(): FakePrinterMode {
    return this.#mode;
  }

  #listen(port: number): Promise<void> {
    this.#server = createServer((socket) => this.#accept(socket));
    return new Promise((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, '127.0.0.1', () => {
        this.#port = (this.#server.address() as { port: number }).port;
        resolve();
      });
    });
  }

  /** What the printer answers from now on (the four DLE EOT bytes). */
  setStatus(condition: FakePrinterCondition): void {
    this.#status = encodeStatus(condition);
  }

  async setMode(mode: FakePrinterMode): Promise<void> {
    const wasListening = this.#mode !== 'refuse';
    this.#mode = mode;
    if (mode === 'refuse' && wasListening) {
      for (const socket of this.#sockets) socket.destroy();
      await new Promise<void>((resolve) => this.#server.close(() => resolve()));
    } else if (mode !== 'refuse' && !wasListening) {
      await this.#listen(this.#port);
    }
  }

  #accept(socket: Socket): void {
    const connection: FakeConnection = { id: this.connections.length + 1, bytes: Buffer.alloc(0), jobBytes: Buffer.alloc(0), statusQueries: 0, endedCleanly: false, endedAt: null, openedAt: performance.now() };
    this.connections.push(connection);
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
    socket.on('error', () => undefined);
    if (this.#mode === 'reset') {
      socket.resetAndDestroy();
      return;
    }
    let scanned = 0;
    socket.on('data', (chunk: Buffer) => {
      connection.bytes = Buffer.concat([connection.bytes, chunk]);
      // Real-time commands are answered as they arrive, wherever they are in the stream.
      for (; scanned + 2 < connection.bytes.length; scanned++) {
        if (connection.bytes[scanned] === DLE && connection.bytes[scanned + 1] === EOT) {
          const n = connection.bytes[scanned + 2] as number;
          connection.statusQueries += 1;
          if (this.#mode !== 'silent' && n >= 1 && n <= 4) socket.write(Buffer.from([this.#status[n - 1] as number]));
          scanned += 2;
        }
      }
      connection.jobBytes = stripStatusQueries(connection.bytes);
      if (this.#mode === 'break_mid_job' && connection.jobBytes.length > 0) socket.resetAndDestroy();
    });
    socket.on('end', () => {
      connection.endedAt = performance.now();
      connection.endedCleanly = true;
      socket.end();
    });
  }

  /** The connections that carried a job (anything besides status queries), oldest first. */
  jobs(): FakeConnection[] {
    return this.connections.filter((c) => c.jobBytes.length > 0);
  }

  /** Each job as read from the paper. */
  decodedJobs(): DecodedEscPos[] {
    return this.jobs().map((c) => decodeEscPos(c.jobBytes));
  }

  /** All printed text, normalized (runs of spaces folded). */
  text(): string {
    return this.decodedJobs().map((d) => normalizedText(d)).join('\n');
  }

  /** How many jobs printed this marker. */
  count(marker: string): number {
    return this.decodedJobs().filter((d) => d.text.includes(marker)).length;
  }

  cuts(): number {
    return this.decodedJobs().reduce((n, d) => n + d.cuts, 0);
  }

  drawerKicks(): DecodedEscPos['drawerKicks'] {
    return this.decodedJobs().flatMap((d) => d.drawerKicks);
  }

  async waitFor(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  async stop(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    if (this.#mode !== 'refuse') await new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#mode = 'refuse';
  }
}
