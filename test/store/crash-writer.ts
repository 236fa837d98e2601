// Child process of crash.test.ts: opens the store and creates orders until killed, printing each
// order id only after its commit returned. The parent SIGKILLs it at random moments.
import { openStore } from '../../store';
import { cashier, threeLineOrder } from './fixtures';

const file = process.argv[2];
if (!file) throw new Error('usage: crash-writer <database file>');
const store = openStore(file);
process.stdout.write('ready\n');
for (;;) {
  const order = store.cashier.createOrder(threeLineOrder(), cashier);
  // Pipes are synchronous on Linux: once this returns the parent can read the line.
  process.stdout.write(`${order.id}\n`);
}
