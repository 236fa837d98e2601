// Getting bytes to a printer: raw TCP (port 9100, what Epson TM and Star network interfaces take)
// or a device path written like a file (/dev/usb/lp0 on Linux; file: paths for tests). What
// matters to the queue is whether a failure could have printed anything: a printer that cannot
// be reached, or that answers its status and is then left without a byte, printed nothing
// (`mayHavePrinted` false: the job is retried); once job bytes have gone out a failure leaves the
// job in doubt.
import { constants as fsConstants } from 'node:fs';
import { access, open, type FileHandle } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { MACHINE_PROBLEM_WORDS, machineProblemOf } from '../common/machine-problem';
import { isStatusByte, parseStatus, STATUS_QUERY, type PrinterStatus } from './status';

export type PrinterTarget =
  | { kind: 'tcp'; host: string; port: number }
  /** `create`: a file: URL (make the file); a device path must already exist (an unplugged printer is offline, not a new file). */
  | { kind: 'device'; path: string; create: boolean };

export interface TransportTimeouts {
  /** To connect (TCP) or open (device). Default 3000 ms. */
  connectMs?: number;
  /** For the four status bytes. Default 2000 ms. */
  statusMs?: number;
  /** To write the job and see the connection closed. Default 15000 ms. */
  sendMs?: number;
}

const DEFAULTS = { connectMs: 3_000, statusMs: 2_000, sendMs: 15_000 };

export class PrintTransportError extends Error {
  override readonly name = 'PrintTransportError';
  constructor(
    /** Where it failed: reaching the printer, asking its status, or sending the job. */
    readonly phase: 'connect' | 'status' | 'send',
    /** Job bytes went out (some or all): the printer may have printed. */
    readonly mayHavePrinted: boolean,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export type StatusResult = ({ reachable: true } & PrinterStatus) | { reachable: false; reason: string };

/** One open line to a printer: ask its status, then send one job (which ends the connection), or close it unused. */
export interface PrinterConnection {
  /** DLE EOT 1..4; null where the printer cannot be asked (a device path). Throws PrintTransportError ('status'). */
  queryStatus(): Promise<PrinterStatus | null>;
  /**
   * Writes the job and ends the connection; resolves when the printer has taken every byte and
   * the connection closed cleanly (device: the write returned and the file closed).
   */
  send(bytes: Uint8Array): Promise<void>;
  /** Drops the connection without sending (idempotent). */
  close(): void;
}

/**
 * Why a printer could not be reached or written, for its status. A file or device printer that
 * fails because the computer's disk is full or read-only says so: it is not the printer being off.
 */
/** Ends a printer's error when the computer, not the printer, failed (a full or read-only disk). */
export const COMPUTER_NOT_PRINTER = 'this is the computer, not the printer: ask IT or support';

function errorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const problem = machineProblemOf(error);
  if (problem !== null) return `${MACHINE_PROBLEM_WORDS[problem]}${code ? ` (${code})` : ''}; ${COMPUTER_NOT_PRINTER}`;
  return code ?? (error as Error).message;
}

export function describeTarget(target: PrinterTarget): string {
  return target.kind === 'tcp' ? `${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}` : target.path;
}

class TcpPrinterConnection implements PrinterConnection {
  readonly #socket: Socket;
  readonly #where: string;
  readonly #timeouts: Required<TransportTimeouts>;
  #incoming: number[] = [];
  #closed = false;
  #error: Error | undefined;
  #wake: (() => void) | undefined;

  constructor(socket: Socket, where: string, timeouts: Required<TransportTimeouts>) {
    this.#socket = socket;
    this.#where = where;
    this.#timeouts = timeouts;
    socket.on('data', (chunk: Buffer) => {
      for (const byte of chunk) this.#incoming.push(byte);
      this.#wake?.();
    });
    socket.on('error', (error) => {
      this.#error ??= error;
      this.#wake?.();
    });
    socket.on('close', () => {
      this.#closed = true;
      this.#wake?.();
    });
  }

  static open(target: { host: string; port: number }, timeouts: Required<TransportTimeouts>): Promise<TcpPrinterConnection> {
    const where = describeTarget({ kind: 'tcp', ...target });
    return new Promise((resolve, reject) => {
      const socket = connect({ host: target.host, port: target.port });
      const fail = (message: string, cause?: unknown) => {
        clearTimeout(timer);
        socket.destroy();
        reject(new PrintTransportError('connect', false, message, { cause }));
      };
      const timer = setTimeout(() => fail(`no answer from the printer at ${where} within ${timeouts.connectMs} ms`), timeouts.connectMs);
      socket.once('error', (error: NodeJS.ErrnoException) => fail(`cannot reach the printer at ${where}: ${errorText(error)}`, error));
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        socket.setNoDelay(true);
        resolve(new TcpPrinterConnection(socket, where, timeouts));
      });
    });
  }

  async queryStatus(): Promise<PrinterStatus> {
    if (this.#closed || this.#error) throw new PrintTransportError('status', false, `the printer at ${this.#where} closed the connection`);
    this.#incoming = [];
    this.#socket.write(STATUS_QUERY);
    const answer: number[] = [];
    const deadline = Date.now() + this.#timeouts.statusMs;
    for (;;) {
      // Bytes that are not status answers (an ASB message, an earlier GS r answer) are skipped.
      while (this.#incoming.length > 0 && answer.length < 4) {
        const byte = this.#incoming.shift() as number;
        if (isStatusByte(byte)) answer.push(byte);
      }
      if (answer.length === 4) return parseStatus(answer as [number, number, number, number]);
      const failure = this.#failure();
      if (failure || this.#closed) {
        throw new PrintTransportError('status', false, `the printer at ${this.#where} closed the connection before answering its status${failure ? `: ${errorText(failure)}` : ''}`);
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        this.close();
        throw new PrintTransportError('status', false, `the printer at ${this.#where} did not answer its status (DLE EOT) within ${this.#timeouts.statusMs} ms; if it cannot, add ?status=off to its URL`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, left);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.#wake = done;
      });
      this.#wake = undefined;
    }
  }

  send(bytes: Uint8Array): Promise<void> {
    if (this.#closed || this.#error || this.#socket.destroyed) {
      return Promise.reject(new PrintTransportError('send', false, `the printer at ${this.#where} closed the connection before the job was sent`));
    }
    return new Promise((resolve, reject) => {
      let finished = false;
      const settle = (error?: PrintTransportError) => {
        clearTimeout(timer);
        this.#wake = undefined;
        if (error) {
          this.#socket.destroy();
          reject(error);
        } else resolve();
      };
      const timer = setTimeout(
        () =>
          settle(
            new PrintTransportError(
              'send',
              true,
              finished
                ? `the printer at ${this.#where} took the job but did not close the connection within ${this.#timeouts.sendMs} ms`
                : `the printer at ${this.#where} did not take the whole job within ${this.#timeouts.sendMs} ms`,
            ),
          ),
        this.#timeouts.sendMs,
      );
      this.#wake = () => {
        const failure = this.#failure();
        if (failure) settle(new PrintTransportError('send', true, `the connection to the printer at ${this.#where} broke off while sending: ${errorText(failure)}`, { cause: failure }));
        else if (this.#closed) settle(finished ? undefined : new PrintTransportError('send', true, `the printer at ${this.#where} closed the connection before taking the whole job`));
      };
      this.#socket.end(bytes, () => {
        // Every byte is with the operating system (an error calls this too: then #error is set).
        if (!this.#error) finished = true;
        this.#wake?.();
      });
    });
  }

  /** The socket's error, if it had one (read through a method: it changes while awaiting). */
  #failure(): Error | undefined {
    return this.#error;
  }

  close(): void {
    if (!this.#socket.destroyed) this.#socket.destroy();
  }
}

class DevicePrinterConnection implements PrinterConnection {
  #handle: FileHandle | undefined;
  constructor(
    handle: FileHandle,
    private readonly path: string,
    private readonly timeouts: Required<TransportTimeouts>,
  ) {
    this.#handle = handle;
  }

  static async open(path: string, create: boolean, timeouts: Required<TransportTimeouts>): Promise<DevicePrinterConnection> {
    try {
      // A device path is opened write-only, without O_CREAT (an unplugged printer must not become
      // a new file in /dev) nor O_APPEND (a Windows printer share may refuse append access).
      const flags = create ? 'a' : fsConstants.O_WRONLY;
      return new DevicePrinterConnection(await open(path, flags), path, timeouts);
    } catch (error) {
      throw new PrintTransportError('connect', false, `cannot open the printer ${path}: ${errorText(error)}`, { cause: error });
    }
  }

  async queryStatus(): Promise<null> {
    return null;
  }

  async send(bytes: Uint8Array): Promise<void> {
    const handle = this.#handle;
    if (!handle) throw new PrintTransportError('send', false, `the printer ${this.path} was closed before the job was sent`);
    this.#handle = undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        (async () => {
          await handle.write(bytes);
          await handle.close();
        })(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new PrintTransportError('send', true, `the printer ${this.path} did not take the job within ${this.timeouts.sendMs} ms`)), this.timeouts.sendMs);
        }),
      ]);
    } catch (error) {
      void handle.close().catch(() => undefined);
      if (error instanceof PrintTransportError) throw error;
      throw new PrintTransportError('send', true, `writing to the printer ${this.path} failed: ${errorText(error)}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    const handle = this.#handle;
    this.#handle = undefined;
    void handle?.close().catch(() => undefined);
  }
}

/** Opens a line to the printer. Throws PrintTransportError ('connect', nothing sent) when it cannot be reached. */
export async function connectPrinter(target: PrinterTarget, timeouts: TransportTimeouts = {}): Promise<PrinterConnection> {
  const limits = { ...DEFAULTS, ...timeouts };
  return target.kind === 'tcp' ? TcpPrinterConnection.open(target, limits) : DevicePrinterConnection.open(target.path, target.create, limits);
}

/** Connects, sends the bytes, and waits for the clean close. Throws PrintTransportError. */
export async function sendBytes(target: PrinterTarget, bytes: Uint8Array, timeouts: TransportTimeouts = {}): Promise<void> {
  const connection = await connectPrinter(target, timeouts);
  try {
    await connection.send(bytes);
  } finally {
    connection.close();
  }
}

/**
 * The printer's status (DLE EOT 1..4 over TCP), or unreachable with why. A device path cannot be
 * asked here: it reports online when it can be opened for writing, unreachable when not.
 */
export async function queryStatus(target: PrinterTarget, timeouts: TransportTimeouts = {}): Promise<StatusResult> {
  if (target.kind === 'device') {
    try {
      await access(target.path, fsConstants.W_OK);
    } catch (error) {
      if (!(target.create && (error as NodeJS.ErrnoException).code === 'ENOENT')) {
        return { reachable: false, reason: `cannot open the printer ${target.path}: ${errorText(error)}` };
      }
    }
    return { reachable: true, ...parseStatus([0x12, 0x12, 0x12, 0x12]) };
  }
  let connection: PrinterConnection | undefined;
  try {
    connection = await connectPrinter(target, timeouts);
    const status = (await connection.queryStatus()) as PrinterStatus;
    return { reachable: true, ...status };
  } catch (error) {
    return { reachable: false, reason: (error as Error).message };
  } finally {
    connection?.close();
  }
}
