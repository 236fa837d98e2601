// When the machine is the problem (issue 22, finding 8), the cashier is told what it is and what
// to do, not "something went wrong". Real failures where a test can cause them as any user, root
// included (chmod does not stop root):
// - a full disk: a real SQLite file whose connection may not grow (PRAGMA max_page_count = its
//   size now), so the write fails with SQLITE_FULL exactly as on a full disk; and /dev/full,
//   which answers every write with ENOSPC, as a file printer;
// - a read-only database: the store's connection set to PRAGMA query_only, which refuses a write
//   with SQLite's SQLITE_READONLY, the code a read-only file or folder gives.
// - a folder no one may write, root included: a file under /sys (the kernel answers EACCES).
// A really read-only file system (EROFS) cannot be made without mounting one (root and a
// privilege tests must not need): its code goes through the same table, checked on its own.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { machineProblemOf } from '../../common/machine-problem';
import { silentLogger } from '../../common/log';
import { createInvoker, type Handlers } from '../../main/core/dispatch';
import { sendBytes, queryStatus } from '../../printing';
import { openStore, type Store } from '../../store/index';
import { ITEMS, LOCATION, seedDataDir } from './fixtures';

let store: Store | undefined;
afterEach(() => {
  store?.close();
  store = undefined;
});

/** The core's dispatch in front of a real store write, as `orders.place` makes it. */
function placeOrderInvoker(on: Store) {
  const handlers = {
    'orders.place': () =>
      on.cashier.createOrder(
        { locationId: LOCATION, currency: 'usd', lines: [{ menu_item_id: ITEMS.fries, name: 'Fries', quantity: 1, unit_price: 450, modifiers: [] }] },
        { actor: 'cashier' },
      ),
  } as unknown as Handlers;
  return createInvoker(handlers, silentLogger, async () => ({ act: () => ({}) as never }));
}

const place = { command: 'orders.place', payload: { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] } };

describe('a full or read-only disk, in words', () => {
  it('a full disk refuses orders.place with what to do, and the order is not half-written', async () => {
    store = openStore(join(seedDataDir(), 'terminal.db'));
    const pages = store.db.pragma('page_count', { simple: true }) as number;
    // Fill the free pages first: the disk is full only once nothing is left inside the file.
    store.db.pragma(`max_page_count = ${pages}`);
    // Free pages inside the file take a few orders: write until nothing is left (a bounded number).
    const order = { locationId: LOCATION, currency: 'usd', lines: [{ menu_item_id: ITEMS.fries, name: 'Fries', quantity: 1, unit_price: 450, modifiers: [] }] };
    let filled: unknown = null;
    for (let n = 0; n < 500 && filled === null; n++) {
      try {
        store.cashier.createOrder(order, { actor: 'cashier' });
      } catch (error) {
        filled = error;
      }
    }
    expect(filled).toMatchObject({ code: 'SQLITE_FULL' });
    const ordersBefore = store.cashier.listOrders().length;
    const response = await placeOrderInvoker(store)(place);
    expect(response).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringMatching(/^The terminal's disk is full, so this could not be saved\. Free some space/) } });
    expect(JSON.stringify(response)).not.toMatch(/Something went wrong|call support|SQLITE/);
    // The refused order left nothing: no order, and every order saved has its outbox row.
    expect(store.cashier.listOrders().length).toBe(ordersBefore);
    expect(store.outbox.outboxStats(Date.now()).pending).toBe(ordersBefore);
  });

  it('a read-only database refuses orders.place with what to do', async () => {
    store = openStore(join(seedDataDir(), 'terminal.db'));
    store.db.pragma('query_only = ON');
    const response = await placeOrderInvoker(store)(place);
    expect(response).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringMatching(/data folder has become read-only, so this could not be saved/) } });
    store.db.pragma('query_only = OFF');
    expect(store.outbox.outboxStats(Date.now()).pending).toBe(0);
  });

  it('any other failure is still "something went wrong"', async () => {
    const invoke = createInvoker({ 'orders.place': () => { throw new TypeError('x is undefined'); } } as unknown as Handlers, silentLogger, async () => ({ act: () => ({}) as never }));
    expect(await invoke(place)).toMatchObject({ ok: false, error: { code: 'internal', message: expect.stringMatching(/^Something went wrong/) } });
  });

  it('a file printer on a full disk says the computer is the problem, not that the printer is off', async () => {
    const full = { kind: 'device' as const, path: '/dev/full', create: false };
    expect(await queryStatus(full)).toMatchObject({ reachable: true });
    const error = await sendBytes(full, Buffer.from('receipt\n')).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toBe('writing to the printer /dev/full failed: the disk is full (ENOSPC); this is the computer, not the printer: ask IT or support');
  });

  it('a file printer in a folder it may not write says so (the kernel refuses a file under /sys to anyone, root too)', async () => {
    const file = { kind: 'device' as const, path: '/sys/pos-receipts.prn', create: true };
    const error = await sendBytes(file, Buffer.from('receipt\n')).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/^cannot open the printer \/sys\/pos-receipts\.prn: this program is not allowed to write there \(E(ACCES|PERM)\); this is the computer, not the printer/);
  });

  it('tells the problems apart by their codes, SQLite and the file system alike, through a wrapping error', () => {
    const coded = (code: string) => Object.assign(new Error(code), { code });
    expect(['SQLITE_FULL', 'ENOSPC', 'EDQUOT'].map((c) => machineProblemOf(coded(c)))).toEqual(['disk_full', 'disk_full', 'disk_full']);
    expect(['EROFS', 'SQLITE_READONLY', 'SQLITE_READONLY_DBMOVED'].map((c) => machineProblemOf(coded(c)))).toEqual(['read_only', 'read_only', 'read_only']);
    expect(['EACCES', 'EPERM'].map((c) => machineProblemOf(coded(c)))).toEqual(['not_permitted', 'not_permitted']);
    expect(['SQLITE_IOERR_WRITE', 'EIO'].map((c) => machineProblemOf(coded(c)))).toEqual(['disk_failed', 'disk_failed']);
    expect(machineProblemOf(new Error('could not open the store', { cause: coded('EROFS') }))).toBe('read_only');
    expect([coded('ENOENT'), coded('SQLITE_CONSTRAINT'), new TypeError('x'), null, 'EROFS'].map(machineProblemOf)).toEqual([null, null, null, null, null]);
  });
});
