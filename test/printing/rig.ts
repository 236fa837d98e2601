// A store on a real SQLite file, fake network printers, and a print worker between them.
import { openStore, type Store } from '../../store';
import { parsePrintingConfig, PrintWorker, type PrinterStatusView, type PrintingConfig, type PrintWorkerOptions } from '../../printing';
import { FakePrinter } from './fake-printer';
import { tempDbPath } from './helpers';

export interface Rig {
  file: string;
  store: Store;
  receipt: FakePrinter;
  kitchen: Record<string, FakePrinter>;
  config: PrintingConfig;
  worker: PrintWorker;
  /** Every status list onChange reported, in order. */
  changes: PrinterStatusView[][];
  /** A new worker on the same store and printers (a restart of the app). */
  restart(): Promise<PrintWorker>;
  view(name?: string): PrinterStatusView;
  close(): Promise<void>;
}

/** Short waits so a test of an outage takes a fraction of a second. */
export const FAST: Partial<PrintWorkerOptions> = {
  backoff: { initialMs: 20, maxMs: 100 },
  timeouts: { connectMs: 500, statusMs: 300, sendMs: 2_000 },
  statusPollMs: 0,
};

export async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function startRig(options: { kitchen?: string[]; routing?: string; start?: boolean; worker?: Partial<PrintWorkerOptions>; file?: string } = {}): Promise<Rig> {
  const file = options.file ?? tempDbPath();
  const store = openStore(file);
  const receipt = await FakePrinter.start();
  const kitchen: Record<string, FakePrinter> = {};
  for (const name of options.kitchen ?? []) kitchen[name] = await FakePrinter.start();
  const parsed = parsePrintingConfig({
    receiptPrinter: receipt.url,
    kitchenPrinters: Object.entries(kitchen).map(([name, printer]) => `${name}=${printer.url}`),
    printRouting: options.routing ?? null,
  });
  if (!parsed.ok) throw new Error(parsed.error.message);
  const changes: PrinterStatusView[][] = [];
  const make = () => new PrintWorker({ queue: store.printQueue, printers: parsed.config, onChange: (views) => changes.push(views), ...FAST, ...options.worker });
  const rig: Rig = {
    file,
    store,
    receipt,
    kitchen,
    config: parsed.config,
    worker: make(),
    changes,
    async restart() {
      await rig.worker.stop();
      rig.worker = make();
      rig.worker.start();
      return rig.worker;
    },
    view(name = 'receipt') {
      const view = rig.worker.status().find((v) => v.name === name);
      if (!view) throw new Error(`no printer ${name} in the status`);
      return view;
    },
    async close() {
      await rig.worker.stop();
      store.close();
      await receipt.stop();
      for (const printer of Object.values(kitchen)) await printer.stop();
    },
  };
  if (options.start !== false) rig.worker.start();
  return rig;
}
