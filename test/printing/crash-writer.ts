// Child process of crash.test.ts. Opens the store and, until it is killed, sells: each order and
// its receipt and kitchen print jobs commit in one transaction, and only then is the order id
// printed on stdout. Each ticket carries a marker unique to its order: R-/K- and the id's last 8 characters. With a printer URL it also runs a print worker, so a kill can land anywhere
// in a job's printing too.
import { openStore } from '../../store';
import { kitchenJobs, parsePrintingConfig, PrintWorker, receiptJob } from '../../printing';
import { cashier, threeLineOrder } from '../store/fixtures';
import { sampleReceipt, sampleTicket } from './fixtures';

const [file, printerUrl] = process.argv.slice(2);
if (!file) throw new Error('usage: crash-writer <database file> [printer url]');
const store = openStore(file);
let worker: PrintWorker | undefined;
if (printerUrl) {
  const parsed = parsePrintingConfig({ receiptPrinter: printerUrl });
  if (!parsed.ok) throw new Error(parsed.error.message);
  worker = new PrintWorker({ queue: store.printQueue, printers: parsed.config, backoff: { initialMs: 10, maxMs: 50 }, statusPollMs: 0 });
  worker.start();
}
process.stdout.write('ready\n');

async function sell(): Promise<void> {
  for (;;) {
    const order = store.transaction(() => {
      const created = store.cashier.createOrder(threeLineOrder(), cashier);
      store.printQueue.enqueue([
        receiptJob({ orderId: created.id, key: 'placed', doc: sampleReceipt(`R-${created.id.slice(-8)}`) }),
        ...kitchenJobs({ orderId: created.id, version: 1, doc: sampleTicket(`K-${created.id.slice(-8)}`), routing: {}, defaultPrinter: 'receipt' }),
      ]);
      return created;
    });
    // Pipes are synchronous on Linux: once this returns the parent can read the line.
    process.stdout.write(`${order.id}\n`);
    worker?.notify();
    // Let the worker print (and the kill land in the middle of it).
    if (worker) await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
void sell();
