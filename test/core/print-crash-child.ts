// Child process of print-crash.test.ts (no vitest here). Starts a real core on the given seeded data
// directory, configured as startTestCore configures one (fixtures.ts: the test staff provisioned,
// the owner signed in, the drawer's shift open) with the given receipt printer, places an order, takes a card payment through core.invoke('payments.take'), and only
// once that call has answered (the payment and its receipt job committed) writes
// "paid <orderLabel> <orderId>" on stdout. The parent SIGKILLs it on that line; should it not, the
// child idles (it never exits on its own).
import { join } from 'node:path';
import { silentLogger } from '../../common/log';
import { TerminalConfig } from '../../main/config/schema';
import { startCore } from '../../main/core/index';
import { FileSecretStore } from '../../sync/secret-store';
import type { CommandInput, CommandName, CommandResult } from '../../bridge/contract';
import { ITEMS, LOCATION, openShift, signIn, testStaffConfig } from './fixtures';

const [dataDir, printerUrl] = process.argv.slice(2);
if (!dataDir || !printerUrl) throw new Error('usage: print-crash-child <seeded data dir> <receipt printer url>');

const core = await startCore(TerminalConfig.parse({ dataDir, locationId: LOCATION, printing: { receiptPrinter: printerUrl }, staff: testStaffConfig() }), {
  logger: silentLogger,
  secretStore: new FileSecretStore(join(dataDir, 'secrets.json')),
});
await signIn(core, 'owner');

async function call<C extends CommandName>(command: C, payload: CommandInput<C>): Promise<CommandResult<C>> {
  const response = await core.invoke({ command, payload });
  if (!response.ok) throw new Error(`${command}: ${response.error.code}: ${response.error.message}`);
  return response.value as CommandResult<C>;
}

// The shift an earlier (killed) child opened on this data directory is still open: one per drawer.
if ((await call('shift.current', {})) === null) await openShift(core);

const order = await call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
await call('payments.take', { orderId: order.id, method: 'card', amount: order.total });
// Pipes are synchronous on Linux: once this returns the parent can read the line.
process.stdout.write(`paid ${order.label} ${order.id}\n`);
// Keep the process (and the core) alive until the kill.
setInterval(() => undefined, 60_000);
