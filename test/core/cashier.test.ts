import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { businessDayAt } from '../../bridge/business-day';
import { ITEMS, MODIFIERS, reopenStore, signIn, STAFF, startTestCore, type TestCore } from './fixtures';

let t: TestCore;
afterEach(async () => {
  await t?.core.shutdown();
});

async function expectRefusal(promise: Promise<unknown>, code: string, message?: RegExp) {
  const error = (await promise.then(
    () => null,
    (e: unknown) => e,
  )) as (Error & { code: string }) | null;
  expect(error, 'expected a refusal').not.toBeNull();
  expect(error?.code).toBe(code);
  if (message) expect(error?.message).toMatch(message);
}

describe('menu', () => {
  it('gives the snapshot with categories, modifiers and currency, and searches across categories', async () => {
    t = await startTestCore();
    const menu = await t.call('menu.snapshot', {});
    expect(menu.currency).toBe('usd');
    expect(menu.categories.map((c) => c.name)).toEqual(['Mains', 'Drinks']);
    expect(menu.items.find((i) => i.id === ITEMS.burger)?.modifiers.map((m) => m.name)).toEqual(['Extra cheese', 'Bacon']);
    expect((await t.call('menu.search', { query: 'creme' })).map((i) => i.id)).toEqual([]);
    expect((await t.call('menu.search', { query: 'cafe' })).map((i) => i.id)).toEqual([ITEMS.latte]);
    expect((await t.call('menu.search', { query: '', categoryId: 'cat_drinks' })).map((i) => i.id)).toEqual([ITEMS.latte]);
  });

  it("86s an item durably, with its outbox operation, and refuses it on a new order", async () => {
    t = await startTestCore();
    const item = await t.call('menu.setAvailable', { id: ITEMS.soup, available: false });
    expect(item.available).toBe(false);
    const store = reopenStore(t.dataDir);
    expect(store.cashier.getMenuItem(ITEMS.soup)?.available).toBe(false);
    expect(store.outbox.unfinishedCount()).toBe(1);
    store.close();
    await expectRefusal(t.call('orders.place', { lines: [{ menuItemId: ITEMS.soup, quantity: 1 }] }), 'conflict', /sold out/);
  });

  it("lets a manager create, edit and delete items; a cashier needs a manager's PIN for it", async () => {
    t = await startTestCore({}, {}, undefined, { signIn: 'cashier' });
    await expectRefusal(t.call('menu.createItem', { name: 'Tea', price: 300, categoryId: 'cat_drinks' }), 'needs_manager', /needs a manager.*PIN/);
    await expectRefusal(t.call('menu.createItem', { name: 'Tea', price: 300, categoryId: 'cat_drinks', managerPin: '1111' }), 'needs_manager', /not right/);
    // Another cashier's PIN is someone's, but not someone who may approve it: the same answer as a wrong PIN.
    await expectRefusal(t.call('menu.createItem', { name: 'Tea', price: 300, categoryId: 'cat_drinks', managerPin: STAFF.cashier2.pin }), 'needs_manager', /not right/);
    expect((await t.call('menu.snapshot', {})).items.some((i) => i.name === 'Tea')).toBe(false);
    await expectRefusal(t.call('menu.createItem', { name: 'Tea', price: 300, categoryId: 'cat_nope', managerPin: STAFF.manager.pin }), 'not_found');
    const tea = await t.call('menu.createItem', { name: 'Tea', price: 300, categoryId: 'cat_drinks', managerPin: STAFF.manager.pin });
    await expectRefusal(t.call('menu.updateItem', { id: tea.id, changes: { price: 350 } }), 'needs_manager');
    const edited = await t.call('menu.updateItem', { id: tea.id, changes: { price: 350 }, managerPin: STAFF.manager.pin });
    expect(edited.price).toBe(350);
    await expectRefusal(t.call('menu.deleteItem', { id: tea.id }), 'needs_manager');
    await t.call('menu.deleteItem', { id: tea.id, managerPin: STAFF.manager.pin });
    expect((await t.call('menu.snapshot', {})).items.some((i) => i.id === tea.id)).toBe(false);
    // A manager signed in needs no PIN.
    await signIn(t.core, 'manager');
    await expectRefusal(t.call('menu.deleteItem', { id: tea.id }), 'not_found');
    const scone = await t.call('menu.createItem', { name: 'Scone', price: 275, categoryId: 'cat_drinks' });
    expect((await t.call('menu.updateItem', { id: scone.id, changes: { price: 300 } })).price).toBe(300);
  });
});

describe('orders', () => {
  it('places an order with modifiers, customer and notes; it is durable when the answer comes', async () => {
    t = await startTestCore();
    const order = await t.call('orders.place', {
      lines: [
        { menuItemId: ITEMS.burger, quantity: 2, modifierIds: [MODIFIERS.cheese] },
        { menuItemId: ITEMS.fries, quantity: 1 },
      ],
      customer: { name: 'Ada', phone: '555-0100' },
      notes: 'no onions',
    });
    expect(order.total).toBe(2 * (1200 + 150) + 450);
    expect(order.lines[0]?.modifiers.map((m) => m.name)).toEqual(['Extra cheese']);
    expect(order.syncState).toBe('pending');
    const store = reopenStore(t.dataDir);
    const saved = store.cashier.getOrder(order.id);
    expect(saved?.customer).toEqual({ name: 'Ada', phone: '555-0100' });
    expect(saved?.notes).toBe('no onions');
    expect(store.outbox.unfinishedCount()).toBe(1);
    store.close();
  });

  it('refuses a modifier that does not belong to the item, and changes nothing', async () => {
    t = await startTestCore();
    await expectRefusal(t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1, modifierIds: [MODIFIERS.oat] }] }), 'invalid_command');
    await expectRefusal(t.call('orders.place', { lines: [{ menuItemId: 'mi_gone', quantity: 1 }] }), 'not_found');
    expect(t.core.pendingOperations()).toBe(0);
  });

  it('edits an open order, fulfils it, and then refuses to edit or cancel it', async () => {
    t = await startTestCore();
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    const edited = await t.call('orders.update', { id: order.id, lines: [{ menuItemId: ITEMS.fries, quantity: 3 }], notes: 'extra salt' });
    expect(edited.total).toBe(1350);
    expect(edited.notes).toBe('extra salt');
    await t.call('payments.take', { orderId: order.id, method: 'cash', amount: edited.total }); // money due is taken before completing
    const fulfilled = await t.call('orders.fulfil', { id: order.id });
    expect(fulfilled.status).toBe('fulfilled');
    await expectRefusal(t.call('orders.update', { id: order.id, notes: 'late' }), 'conflict', /already fulfilled/);
    await expectRefusal(t.call('orders.cancel', { reason: 'Rung up by mistake', id: order.id }), 'conflict');
    await expectRefusal(t.call('orders.get', { id: 'ord_missing' }), 'not_found');
  });

  it('lists and filters by status, created range and customer', async () => {
    t = await startTestCore();
    const a = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }], customer: { name: 'Ada', phone: '' } });
    const b = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.latte, quantity: 1 }], customer: { name: 'Grace', phone: '555-0199' } });
    await t.call('orders.cancel', { reason: 'Rung up by mistake', id: b.id });
    expect((await t.call('orders.list', {})).map((o) => o.id).sort()).toEqual([a.id, b.id].sort());
    expect((await t.call('orders.list', { status: 'cancelled' })).map((o) => o.id)).toEqual([b.id]);
    expect((await t.call('orders.list', { search: 'ada' })).map((o) => o.id)).toEqual([a.id]);
    expect((await t.call('orders.list', { search: '0199' })).map((o) => o.id)).toEqual([b.id]);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect(await t.call('orders.list', { createdAfter: future })).toEqual([]);
    expect((await t.call('orders.list', { createdBefore: future })).length).toBe(2);
  });
});

describe('payments and refunds', () => {
  it('takes cash with change, refuses overpaying, and refunds partly then fully', async () => {
    t = await startTestCore();
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
    await expectRefusal(t.call('payments.take', { orderId: order.id, method: 'cash', amount: 1200, tendered: 1000 }), 'invalid_command');
    const paid = await t.call('payments.take', { orderId: order.id, method: 'cash', amount: 1200, tendered: 2000 });
    expect(paid.change).toBe(800);
    expect(paid.order.paidAmount).toBe(1200);
    await expectRefusal(t.call('payments.take', { orderId: order.id, method: 'cash', amount: 1 }), 'conflict', /already paid/);
    const partial = await t.call('payments.refund', { paymentId: paid.payment.id, amount: 500, reason: 'requested_by_customer' });
    expect(partial.order.refundedAmount).toBe(500);
    await expectRefusal(t.call('payments.refund', { paymentId: paid.payment.id, amount: 800, reason: 'duplicate' }), 'conflict', /Only \$7\.00/);
    const rest = await t.call('payments.refund', { paymentId: paid.payment.id, amount: 700, reason: 'other', note: 'Cold soup' });
    expect(rest.order.refundedAmount).toBe(1200);
    await expectRefusal(t.call('payments.refund', { paymentId: paid.payment.id, amount: 1, reason: 'duplicate' }), 'conflict', /in full/);
  });

  it('queues offline card payments within the limits and asks for a manager above them', async () => {
    t = await startTestCore({ offlinePayments: { perTransaction: 2000, total: 3000 } }, {}, undefined, { signIn: 'cashier' });
    const place = () => t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 2 }] }); // 24.00
    const big = await place();
    await expectRefusal(t.call('payments.take', { orderId: big.id, method: 'card', amount: 2400 }), 'needs_manager', /\$20\.00 limit/);
    await expectRefusal(t.call('payments.take', { orderId: big.id, method: 'card', amount: 2400, managerPin: '0000' }), 'needs_manager', /not right/);
    const approved = await t.call('payments.take', { orderId: big.id, method: 'card', amount: 2400, managerPin: STAFF.manager.pin });
    expect(approved.payment.status).toBe('queued_offline');
    const small = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }] }); // 9.00: 24 + 9 > 30
    await expectRefusal(t.call('payments.take', { orderId: small.id, method: 'card', amount: 900 }), 'needs_manager', /already waiting/);
    // Card refunds wait for the cloud's payment record (asked by a manager: a cashier may not refund at all).
    await expectRefusal(t.call('payments.refund', { paymentId: approved.payment.id, amount: 100, reason: 'duplicate', managerPin: STAFF.manager.pin }), 'conflict', /being confirmed/);
    const shift = await t.call('shift.summary', {});
    // The cashier's drawer is open: cash and the net are not told (a blind count).
    expect(shift).toMatchObject({ orders: 2, byMethod: { card: 2400, cash: null }, queuedOffline: 2400, net: null });
    // A manager signed in takes the next one over the limit without a PIN.
    await signIn(t.core, 'manager');
    expect((await t.call('payments.take', { orderId: small.id, method: 'card', amount: 900 })).payment.status).toBe('queued_offline');
  });

  it('without a manager to approve, says to take cash above the offline limit', async () => {
    t = await startTestCore({ offlinePayments: { perTransaction: 500, total: 5000 } }, {}, undefined, { signIn: 'cashier' });
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1 }] });
    // docs/config.md, "Offline card payments": without a manager the cashier is told to take cash or wait.
    await expectRefusal(t.call('payments.take', { orderId: order.id, method: 'card', amount: 1200 }), 'needs_manager', /take cash/i);
    const cancelled = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    await t.call('orders.cancel', { reason: 'Rung up by mistake', id: cancelled.id, managerPin: STAFF.manager.pin });
    await expectRefusal(t.call('payments.take', { orderId: cancelled.id, method: 'cash', amount: 450 }), 'conflict', /cancelled/);
  });
});

describe('bridge contract at the core', () => {
  it('refuses unknown commands and bad payloads with invalid_command and changes nothing', async () => {
    t = await startTestCore();
    const unknown = await t.raw('orders.delete_everything', {});
    expect(unknown).toMatchObject({ ok: false, error: { code: 'invalid_command' } });
    const bad = await t.raw('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: -1 }], extra: true });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.code).toBe('invalid_command');
      expect(bad.error.issues?.map((i) => i.path)).toEqual(expect.arrayContaining(['lines.0.quantity']));
    }
    const empty = await t.raw('orders.place', { lines: [] });
    expect(empty).toMatchObject({ ok: false, error: { code: 'invalid_command' } });
    expect(t.core.pendingOperations()).toBe(0);
  });
});

describe('sync status, dead letters and sign-out', () => {
  it('reports pending work from the outbox, retries and discards a dead letter', async () => {
    t = await startTestCore();
    const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }], customer: { name: 'Ada', phone: '' } });
    let status = await t.call('sync.status', {});
    expect(status).toMatchObject({ pending: 1, engineRunning: false, online: false, credentials: 'none' });
    expect(status.oldestPendingAgeMs).not.toBeNull();

    // Another process (the sync engine) dead-letters it, as a 4xx would.
    const store = reopenStore(t.dataDir);
    const [op] = store.outbox.readyOperations(Date.now() + 1000, 10);
    store.outbox.deadLetter(op!.opId, 'invalid_request: menu item unknown');
    store.close();
    status = await t.call('sync.status', {});
    expect(status.pending).toBe(0);
    expect(status.deadLetters).toEqual([expect.objectContaining({ description: 'New order for Ada (1 line)', reason: 'The cloud refused this change. Ask a manager to look at the details.', detail: 'invalid_request: menu item unknown' })]);
    // Refused, it stays on the till, marked, until a person decides.
    expect((await t.call('orders.list', {})).find((o) => o.id === order.id)?.syncState).toBe('failed');

    status = await t.call('sync.retryDeadLetter', { id: status.deadLetters[0]!.id });
    expect(status).toMatchObject({ pending: 1, deadLetters: [] });

    const again = reopenStore(t.dataDir);
    again.outbox.deadLetter(op!.opId, 'still refused');
    again.close();
    const letters = (await t.call('sync.status', {})).deadLetters;
    status = await t.call('sync.discardDeadLetter', { id: letters[0]!.id });
    expect(status).toMatchObject({ pending: 0, deadLetters: [] });
    expect((await t.call('orders.list', {})).map((o) => o.id)).not.toContain(order.id);
    await expectRefusal(t.call('sync.discardDeadLetter', { id: letters[0]!.id }), 'not_found');
    await expectRefusal(t.call('sync.now', {}), 'unavailable', /not connected/);
  });

  it('refuses to sign out with unsynced changes unless told to, and says what is at stake', async () => {
    t = await startTestCore();
    await t.call('credentials.setApiKey', { apiKey: 'sk_test_abc123xyz' });
    expect((await t.call('settings.get', {})).credentials).toEqual({ kind: 'api_key', hint: 'sk_test_…3xyz' });
    await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    const pending = await t.call('session.pending', {});
    expect(pending.pending).toBe(1);
    expect(pending.message).toMatch(/^1 change is not in the cloud yet \(touching 1 order\), the oldest made today at /);
    await expectRefusal(t.call('session.signOut', {}), 'conflict', /stay on this terminal but nothing is sent.*Confirm to sign out/);
    const after = await t.call('session.signOut', { despitePending: true });
    expect(after.credentials.kind).toBe('none');
    expect(t.core.pendingOperations()).toBe(1); // kept on the terminal, not thrown away
  });

  it("guards offline limits with a manager's PIN; the owner adds a manager and changes their PIN", async () => {
    t = await startTestCore();
    // The owner sets a manager up at the till (before staff: "set the manager PIN").
    const nia = await t.call('staff.create', { name: 'Nia Night', role: 'manager', pin: '3142' });
    expect(nia).toMatchObject({ name: 'Nia Night', role: 'manager', active: true, provisioned: false });
    const set = await t.call('settings.update', { offlineLimits: { perTransaction: 100, total: 200 } });
    expect(set).toMatchObject({ offlineLimits: { perTransaction: 100, total: 200 } });
    expect(set).not.toHaveProperty('managerPinSet');

    await signIn(t.core, 'cashier');
    await expectRefusal(t.call('settings.update', { offlineLimits: { perTransaction: 1, total: 1 } }), 'needs_manager');
    await expectRefusal(t.call('settings.update', { offlineLimits: { perTransaction: 1, total: 1 }, managerPin: '2580' }), 'needs_manager', /not right/);
    expect((await t.call('settings.get', {})).offlineLimits.total).toBe(200);
    expect((await t.call('settings.update', { offlineLimits: { perTransaction: 1, total: 2 }, managerPin: '3142' })).offlineLimits.total).toBe(2);
    // A cashier may not change anyone's PIN.
    await expectRefusal(t.call('staff.update', { id: nia.id, pin: '2718' }), 'needs_manager');

    // The owner changes her PIN: the old one approves nothing any more, the new one does.
    await signIn(t.core, 'owner');
    await t.call('staff.update', { id: nia.id, pin: '2718' });
    await signIn(t.core, 'cashier');
    await expectRefusal(t.call('settings.update', { offlineLimits: { perTransaction: 1, total: 1 }, managerPin: '3142' }), 'needs_manager', /not right/);
    expect((await t.call('settings.update', { offlineLimits: { perTransaction: 1, total: 1 }, managerPin: '2718' })).offlineLimits.total).toBe(1);
  });

  it('answers unavailable after shutdown', async () => {
    t = await startTestCore();
    await t.core.shutdown();
    expect(await t.raw('menu.snapshot', {})).toMatchObject({ ok: false, error: { code: 'unavailable' } });
  });
});

describe('settings and credentials', () => {
  it('refuses an API URL without /v1, a malformed key, and OAuth with no client configured', async () => {
    t = await startTestCore();
    expect(await t.raw('settings.update', { apiBaseUrl: 'https://api.example.com' })).toMatchObject({ ok: false, error: { code: 'invalid_command' } });
    expect(await t.raw('credentials.setApiKey', { apiKey: 'pk_nope' })).toMatchObject({ ok: false, error: { code: 'invalid_command' } });
    expect(await t.raw('credentials.setApiKey', { apiKey: 'sk_test_has space' })).toMatchObject({ ok: false, error: { code: 'invalid_command' } });
    // Only the prefix is promised: base64url keys (with '-') are keys too.
    expect((await t.call('credentials.setApiKey', { apiKey: ' sk_test_ZkJ-xGXy_aW0Q ' })).credentials).toEqual({ kind: 'api_key', hint: 'sk_test_…aW0Q' });
    await expectRefusal(t.call('credentials.connectOAuth', {}), 'unavailable', /OAuth is not set up/);
    expect((await t.call('location.list', {})).map((l) => l.name)).toEqual(['Test Kitchen']);
    expect(await t.call('location.get', {})).toMatchObject({ id: 'loc_test', currency: 'usd', address: '1 Main St' });
    const saved = await t.call('settings.update', { apiBaseUrl: 'https://api.example.com/v1', locationId: 'loc_test', webhook: { enabled: false, host: '127.0.0.1', port: 0 } });
    expect(saved).toMatchObject({ apiBaseUrl: 'https://api.example.com/v1', webhook: { enabled: false, url: '', secretSet: false } });
    // Saved in the store: a restart keeps it.
    await t.core.shutdown();
    const store = reopenStore(t.dataDir);
    expect(JSON.stringify(store.cashier.getSetting('terminal.settings', z.unknown()))).toContain('https://api.example.com/v1');
    store.close();
  });
});

describe('business day', () => {
  it('begins at 04:00 where the location is, and a time before 04:00 belongs to the day before', () => {
    const at = (iso: string, zone: string) => {
      const { day, startedAt } = businessDayAt(Date.parse(iso), zone);
      return [day, new Date(startedAt).toISOString()];
    };
    expect(at('2026-03-10T15:45:30.250Z', 'UTC')).toEqual(['2026-03-10', '2026-03-10T04:00:00.000Z']);
    expect(at('2026-03-10T15:45:30.250Z', 'America/Los_Angeles')).toEqual(['2026-03-10', '2026-03-10T11:00:00.000Z']); // PDT, UTC-7
    expect(at('2026-03-10T15:45:30.250Z', 'Asia/Tokyo')).toEqual(['2026-03-10', '2026-03-09T19:00:00.000Z']); // 00:45 on the 11th there: still the 10th's evening
    expect(at('2026-03-10T19:30:00.000Z', 'Asia/Tokyo')).toEqual(['2026-03-11', '2026-03-10T19:00:00.000Z']); // 04:30 on the 11th there
  });
});
