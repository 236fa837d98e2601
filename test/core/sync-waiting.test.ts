// What waits to be sent (issue 24, item 16): sync.status lists the oldest waiting changes in the
// cashier's words (what, for which order, since when, how their tries went, the engine's words
// kept apart for IT), a bounded list however long the queue, read on its indexes. Through the
// bridge on a real core and a real SQLite file; the outbox moved by hand as the engine would.
import { afterEach, describe, expect, it } from 'vitest';
import { WAITING_LISTED_MAX } from '../../bridge/contract';
import { lastProblemText } from '../../main/core/sync-link';
import { WAITING_SQL } from '../../store/outbox';
import { ITEMS, LOCATION, reopenStore, startTestCore, type TestCore } from './fixtures';
import { ok } from './staff-fixtures';

let t: TestCore | undefined;
afterEach(async () => {
  await t?.core.shutdown();
  t = undefined;
});

describe('sync.status: what waits', () => {
  it('names each waiting change and its order in words, oldest first, with its tries and the engine’s words apart', async () => {
    t = await startTestCore();
    const order = await ok(t.core, 'orders.place', {
      lines: [{ menuItemId: ITEMS.burger, quantity: 1 }, { menuItemId: ITEMS.fries, quantity: 2 }, { menuItemId: ITEMS.soup, quantity: 1 }],
      customer: { name: 'Ada', phone: '' },
    });
    const card = await ok(t.core, 'payments.take', { orderId: order.id, method: 'card', amount: order.total, tip: 200 });
    const setup = reopenStore(t.dataDir);
    setup.server.applyServerRecord('payment', {
      id: 'pay_cloud_card', order_id: order.id, payment_intent_id: card.payment.id, method: 'card', amount: order.total + 200, currency: 'usd', status: 'succeeded', created_at: Date.now(),
    });
    setup.close();
    await ok(t.core, 'payments.refund', { paymentId: card.payment.id, amount: 450, reason: 'requested_by_customer' });
    await ok(t.core, 'orders.update', { id: order.id, notes: 'by the window' });

    const money = (minor: number) => `$${(minor / 100).toFixed(2)}`;
    const fresh = await ok(t.core, 'sync.status', {});
    expect(fresh.pending).toBe(5);
    expect(fresh.waiting.map((w) => w.description)).toEqual([
      `New order ${order.label} for Ada (3 lines)`,
      `Card payment of ${money(order.total + 200)} for order ${order.label}`,
      `Card payment capture for order ${order.label}`,
      `Refund of $4.50 for order ${order.label}`,
      `Change to order ${order.label}`,
    ]);
    expect(fresh.waiting[0]).toMatchObject({ since: order.createdAt, sending: false, attempts: 0, problem: null, detail: null });

    // The engine tried the order and could not reach the cloud; the refund is on its way now (the
    // card payment waits for its order).
    const store = reopenStore(t.dataDir);
    const [create, refund] = store.outbox.claimReady(Date.now() + 1000, 2);
    store.outbox.scheduleRetry(create!.opId, 'POST /v1/orders failed: ECONNREFUSED', Date.now() + 60_000);
    store.close();
    expect(refund?.kind).toBe('refund.create');
    const tried = await ok(t.core, 'sync.status', {});
    expect(tried.waiting[0]).toMatchObject({
      sending: false,
      attempts: 1,
      problem: 'The cloud could not be reached (connection refused).',
      detail: 'POST /v1/orders failed: ECONNREFUSED',
    });
    expect(tried.waiting[3]).toMatchObject({ sending: true, attempts: 1, problem: null });
    expect(tried.waiting.filter((w) => w.sending)).toHaveLength(1);
  });

  it('says a failed try in words whatever the engine recorded', async () => {
    t = await startTestCore();
    await ok(t.core, 'orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
    const said: Record<string, string> = {
      'POST /v1/orders failed: ENOTFOUND': 'The cloud could not be reached (the server name was not found).',
      'POST /v1/orders timed out': 'The cloud did not answer in time.',
      'POST /v1/orders → 503 service_unavailable: try later': 'The cloud had a problem of its own.',
      'POST /v1/orders → 401 authentication_failed: bad key': 'The cloud did not accept this terminal’s sign-in.',
      'POST /v1/orders → 429 rate_limit_exceeded': 'The cloud asked the terminal to slow down.',
      'ambiguous since 1700000000000: POST /v1/orders failed: ECONNRESET':
        'The cloud could not be reached (the connection was cut). The terminal checks whether the cloud has it before sending it again.',
    };
    for (const [raw, words] of Object.entries(said)) {
      const store = reopenStore(t.dataDir);
      const [op] = store.outbox.claimReady(Date.now() + 120_000, 1);
      store.outbox.scheduleRetry(op!.opId, raw, Date.now());
      store.close();
      const [waiting] = (await ok(t.core, 'sync.status', {})).waiting;
      expect(waiting, raw).toMatchObject({ problem: words, detail: raw });
    }
  });

  it('says the engine’s last problem in words, with what happens next', () => {
    const unreachable = 'The cloud cannot be reached. Sales go on: changes wait on this terminal and are sent when it answers.';
    expect(lastProblemText('push failed: POST /v1/orders failed: ECONNREFUSED', true)).toBe(unreachable);
    expect(lastProblemText('push failed: POST /v1/orders → 503 service_unavailable', false)).toBe(unreachable);
    expect(lastProblemText('push failed: POST /v1/orders → 503 service_unavailable', true)).toBe('The cloud had a problem of its own. The terminal tries again by itself.');
    expect(lastProblemText('GET /v1/orders → 401 authentication_failed', true)).toBe('The cloud did not accept this terminal’s sign-in. Ask the owner to check the credentials in Settings.');
    expect(lastProblemText('cannot read orders: GET /v1/orders → 403 permission_denied', true)).toBe(
      'This terminal’s cloud account may not read or make some changes. Ask the owner to check the account’s permissions.',
    );
    expect(lastProblemText('something odd', true)).toBe('The last attempt to sync did not go through. The terminal tries again by itself.');
  });

  it('lists the oldest 50 of 5,000 waiting changes, oldest first, on the queue’s index', async () => {
    const total = 5_000;
    t = await startTestCore({}, {}, (store) =>
      store.transaction(() => {
        for (let n = 0; n < total; n++) {
          store.cashier.createOrder(
            { locationId: LOCATION, currency: 'usd', lines: [{ menu_item_id: ITEMS.fries, name: 'Fries', quantity: 1, unit_price: 450, modifiers: [] }], customer: { name: `Guest ${n}`, phone: '' } },
            { actor: 'test' },
          );
        }
      }),
    );
    const status = await ok(t.core, 'sync.status', {});
    expect(status.pending).toBe(total);
    expect(status.waiting).toHaveLength(WAITING_LISTED_MAX);
    expect(status.waiting[0]?.description).toMatch(/^New order #\w{4} for Guest 0 \(1 line\)$/);
    expect(status.waiting.at(-1)?.description).toMatch(new RegExp(`for Guest ${WAITING_LISTED_MAX - 1} \\(1 line\\)$`));

    // Each state is walked on (state, seq) in queue order and stops at the limit: the queue is
    // neither scanned nor sorted (what is sorted is at most the 50 listed).
    const store = reopenStore(t.dataDir);
    try {
      const plan = store.db.prepare(`EXPLAIN QUERY PLAN ${WAITING_SQL}`).all(50, 50, 50) as { id: number; parent: number; detail: string }[];
      const perState = plan.filter((step) => /^CO-ROUTINE \(subquery-\d+\)$/.test(step.detail));
      expect(perState).toHaveLength(2);
      for (const state of perState) {
        expect(plan.filter((step) => step.parent === state.id).map((step) => step.detail)).toEqual(['SEARCH outbox USING INDEX outbox_by_state_seq (state=?)']);
      }
      expect(plan.filter((step) => /\boutbox\b/.test(step.detail) && !/outbox_by_state_seq/.test(step.detail))).toEqual([]);
    } finally {
      store.close();
    }
  });
});
