// "Reset this terminal" on a real SQLite file: refused while changes wait unless the request
// confirms the loss, the owner's alone ('terminal.reset', or the owner's PIN), and a confirmed reset
// leaves a working, empty terminal without credentials, with its provisioned staff and no one
// signed in: the old database and its WAL are gone from the data directory.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/log';
import { TerminalConfig } from '../../main/config/schema';
import { startCore } from '../../main/core/index';
import { FileSecretStore, type SecretStore } from '../../sync/secret-store';
import { ITEMS, LOCATION, reopenStore, seedDataDir, signIn, STAFF, startTestCore, testStaffConfig, type TestCore } from './fixtures';

let t: TestCore;
afterEach(async () => {
  await t?.core.shutdown();
});

async function refusal(promise: Promise<unknown>): Promise<Error & { code: string }> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e as Error & { code: string },
  );
  if (!error) throw new Error('expected a refusal');
  return error;
}

describe('terminal.reset', () => {
  it('refuses while orders wait to sync, saying what would be lost, and changes nothing', async () => {
    t = await startTestCore();
    await t.call('credentials.setApiKey', { apiKey: 'sk_test_abc123xyz' });
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
    await t.call('payments.take', { orderId: order.id, method: 'card', amount: 500 });
    await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });

    const loss = await t.call('session.pending', {});
    expect(loss).toMatchObject({ pending: 4, orders: 2, cardPayments: 1, deadLetters: 0 });
    expect(Date.parse(loss.oldestPendingAt ?? '')).toBeLessThanOrEqual(Date.now());
    expect(loss.message).toMatch(/^4 changes are not in the cloud yet \(touching 2 orders and 1 card payment\), the oldest made today at /);

    const refused = await refusal(t.call('terminal.reset', {}));
    expect(refused.code).toBe('conflict');
    expect(refused.message).toMatch(/4 changes are not in the cloud yet.*deletes them for good\. Confirm to reset anyway\./);
    expect((await t.call('orders.list', {})).map((o) => o.id)).toContain(order.id);
    expect(t.core.pendingOperations()).toBe(4);
    expect((await t.call('settings.get', {})).credentials.kind).toBe('api_key');
  });

  it('counts an unsettled repriced order as something a reset would lose', async () => {
    t = await startTestCore();
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    const store = reopenStore(t.dataDir);
    const [create] = store.outbox.claimReady(Date.now() + 1000, 1);
    const doc = store.cashier.getOrder(order.id)!;
    store.outbox.completeOperation(create!.opId, { serverRecord: { ...doc, id: 'ord_cloud_1', total: doc.total + 100 } });
    store.close();

    const loss = await t.call('session.pending', {});
    expect(loss).toMatchObject({ pending: 0, deadLetters: 0, repricedOrders: 1, message: '1 order priced differently by the cloud is not settled yet (listed in the sync panel).' });
    const refused = await refusal(t.call('terminal.reset', {}));
    expect(refused).toMatchObject({ code: 'conflict', message: expect.stringMatching(/1 order priced differently .* Confirm to reset anyway\./) });
    await t.call('sync.settleRepricedOrder', { id: order.id });
    expect(await t.call('session.pending', {})).toMatchObject({ repricedOrders: 0, message: 'Everything is synced.' });
    await t.call('terminal.reset', {});
    expect((await t.call('staff.session', {})).signedIn).toBeNull();
    await signIn(t.core, 'owner');
    expect(await t.call('orders.list', {})).toEqual([]);
  });

  it("is the owner's: a cashier or a manager is refused, the owner's PIN approves", async () => {
    t = await startTestCore({ offlinePayments: { perTransaction: 10_000, total: 100_000 } }, {}, undefined, { signIn: 'cashier' });
    const refused = await refusal(t.call('terminal.reset', {}));
    expect(refused).toMatchObject({ code: 'needs_manager', message: expect.stringMatching(/needs the owner/) });
    const wrong = await refusal(t.call('terminal.reset', { managerPin: '1111' }));
    expect(wrong).toMatchObject({ code: 'needs_manager', message: expect.stringMatching(/not right/) });
    // A manager's PIN is not enough, nor is a manager signed in.
    const manager = await refusal(t.call('terminal.reset', { managerPin: STAFF.manager.pin }));
    expect(manager).toMatchObject({ code: 'needs_manager', message: expect.stringMatching(/not right/) });
    await signIn(t.core, 'manager');
    expect((await refusal(t.call('terminal.reset', {}))).code).toBe('needs_manager');
    expect((await t.call('menu.snapshot', {})).items.length).toBeGreaterThan(0); // nothing removed
    await signIn(t.core, 'cashier');
    await t.call('terminal.reset', { managerPin: STAFF.owner.pin });
    expect((await t.call('menu.snapshot', {})).items).toEqual([]);
    expect((await t.call('staff.session', {})).signedIn).toBeNull();
  });

  it('a confirmed reset deletes the store and the credentials; the terminal keeps working on a fresh store', async () => {
    t = await startTestCore();
    const events: string[] = [];
    t.core.subscribe((event) => events.push(event.event));
    await t.call('credentials.setApiKey', { apiKey: 'sk_test_abc123xyz' });
    await t.call('settings.update', { webhookSigningSecret: 'whsec_abc123', offlineLimits: { perTransaction: 1, total: 2 } });
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 2 }] });
    // Commands sent together with the reset finish on the old store, or run on the new one: none is lost in between.
    const [placedBefore, reset, listedAfter, menuAfter] = await Promise.all([
      t.raw('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] }),
      t.call('terminal.reset', { confirmPendingLoss: true }),
      t.raw('orders.list', {}),
      t.raw('menu.snapshot', {}),
    ]);
    expect(placedBefore.ok).toBe(true); // ran on the old store before it was closed
    // Both waited for the fresh terminal: no one is signed in there, and its menu is empty.
    expect(listedAfter).toMatchObject({ ok: false, error: { code: 'needs_sign_in' } });
    expect(menuAfter).toMatchObject({ ok: true, value: { items: [] } });
    expect(reset).toMatchObject({ credentials: { kind: 'none', hint: '' }, webhook: { secretSet: false }, offlineLimits: { perTransaction: 10_000, total: 100_000 } });
    expect(events).toEqual(expect.arrayContaining(['terminal.reset', 'settings.changed', 'menu.changed', 'orders.changed', 'sync.status']));

    // The fresh store keeps the staff provisioned by the configuration; no one is signed in.
    expect(await t.call('staff.session', {})).toMatchObject({ signedIn: null, setupNeeded: false });
    await signIn(t.core, 'owner');

    const secrets = JSON.parse(readFileSync(join(t.dataDir, 'secrets.json'), 'utf8')) as Record<string, unknown>;
    expect(secrets.api_key ?? null).toBeNull();
    expect(secrets.webhook_signing_secret ?? null).toBeNull();
    expect(await t.call('orders.list', {})).toEqual([]);
    expect(await t.call('orders.get', { id: order.id }).catch((e: { code: string }) => e.code)).toBe('not_found');
    expect(await t.call('session.pending', {})).toMatchObject({ pending: 0, deadLetters: 0, oldestPendingAt: null, message: 'Everything is synced.' });
    expect(await t.call('sync.status', {})).toMatchObject({ pending: 0, credentials: 'none', engineRunning: false });

    // The fresh store takes writes and keeps them (another process reading the file sees them).
    await t.call('credentials.setApiKey', { apiKey: 'sk_test_new987' });
    const nia = await t.call('staff.create', { name: 'Nia Night', role: 'manager', pin: '1357' });
    expect((await t.call('staff.list', {})).map((m) => m.name).sort()).toEqual([...Object.values(STAFF).map((m) => m.name), 'Nia Night'].sort());
    await t.core.shutdown();
    const store = reopenStore(t.dataDir);
    try {
      expect(store.integrityCheck()).toEqual(['ok']);
      expect(store.staff.get(nia.id)).toMatchObject({ name: 'Nia Night', role: 'manager', active: true });
      expect(store.cashier.listOrders()).toEqual([]);
      expect(store.outbox.unfinishedCount()).toBe(0);
    } finally {
      store.close();
    }
    // No copy of the old data is left behind beside the new store.
    expect(readdirSync(t.dataDir).filter((name) => name.startsWith('terminal.db'))).toEqual(['terminal.db']);
  });

  it('a reset that cannot open the fresh store answers unavailable from then on, shuts down cleanly, and a restart works', async () => {
    let secretsBroken = false;
    const dataDir = seedDataDir();
    const files = new FileSecretStore(join(dataDir, 'secrets.json'));
    // The secret store fails while the new session reads the credentials (after the wipe).
    const flaky: SecretStore = {
      get: (name) => (secretsBroken ? Promise.reject(new Error('keychain unavailable')) : files.get(name)),
      setMany: async (values) => {
        await files.setMany(values);
        secretsBroken = true;
      },
    };
    const config = TerminalConfig.parse({ dataDir, locationId: LOCATION, staff: testStaffConfig() });
    const core = await startCore(config, { logger: silentLogger, secretStore: flaky });
    await signIn(core, 'owner');
    expect(await core.invoke({ command: 'orders.place', payload: { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] } })).toMatchObject({ ok: true });

    const failed = await core.invoke({ command: 'terminal.reset', payload: { confirmPendingLoss: true } });
    expect(failed).toEqual({ ok: false, error: { code: 'unavailable', message: 'The reset could not finish. Close the terminal and open it again.' } });
    expect(await core.invoke({ command: 'orders.list', payload: {} })).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    expect(core.pendingOperations()).toBe(0);
    await core.shutdown();

    const restarted = await startCore(config, { logger: silentLogger, secretStore: files });
    try {
      await signIn(restarted, 'owner');
      expect(await restarted.invoke({ command: 'orders.list', payload: {} })).toEqual({ ok: true, value: [] });
      expect(await restarted.invoke({ command: 'settings.get', payload: {} })).toMatchObject({ ok: true, value: { credentials: { kind: 'none' } } });
    } finally {
      await restarted.shutdown();
    }
  });
});
