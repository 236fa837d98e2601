// The part of a payment's tip that was the automatic gratuity when it was taken, as the store keeps
// it (migration 32; docs/tables.md, "Automatic gratuity"): on the card's intent and on a cash
// payment, through the cloud's confirmation, refused beyond the tip, and unknown (null) on payments
// from before the migration, queued ones included.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ManualClock } from '../../common/clock';
import { openStore, STORE_MIGRATIONS } from '../../store';
import { cashier, tempDbPath, threeLineOrder } from '../store/helpers';

const PAYMENT_PARTS_MIGRATION = 32;

describe('the gratuity part of a payment, in the store', () => {
  it('is kept on a card intent (through the cloud’s confirmation) and a cash payment; beyond the tip it is refused and nothing is written', () => {
    const store = openStore(tempDbPath(), { clock: new ManualClock(1_800_000_000_000) });
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    const intent = store.cashier.createPaymentIntent(order.id, 1_550 + 1_864, 'usd', cashier, { tip: 1_864, gratuity: 864 });
    expect(intent).toMatchObject({ tip: 1_864, gratuity: 864 });
    store.cashier.capturePaymentIntent(intent.id, cashier);
    const [create, capture] = store.db.prepare('SELECT op_id FROM outbox WHERE entity_id = ? ORDER BY seq').pluck().all(intent.id) as string[];
    // What the cloud is sent stays the whole tip: the part is the till's.
    expect(JSON.parse(store.db.prepare('SELECT payload FROM outbox WHERE op_id = ?').pluck().get(create!) as string)).toEqual({ order_id: order.id, amount: 3_414, currency: 'usd', tip_amount: 1_864 });
    store.outbox.completeOperation(create!, { serverId: 'pi_srv_1' });
    store.outbox.completeOperation(capture!, { serverId: 'pi_srv_1' });
    expect(store.cashier.getPaymentIntent(intent.id)).toMatchObject({ status: 'captured', tip: 1_864, gratuity: 864 });

    const cash = store.cashier.recordCashPayment(order.id, 1_550 + 300, 'usd', cashier, { tip: 300, gratuity: 0 });
    expect(store.cashier.getPayment(cash.id)).toMatchObject({ tip: 300, gratuity: 0 });
    const unknown = store.cashier.recordCashPayment(order.id, 100, 'usd', cashier);
    expect(store.cashier.getPayment(unknown.id)?.gratuity).toBeNull();

    const rows = () => (store.db.prepare('SELECT COUNT(*) FROM payment_intents').pluck().get() as number) + (store.db.prepare('SELECT COUNT(*) FROM payments').pluck().get() as number);
    const before = rows();
    expect(() => store.cashier.createPaymentIntent(order.id, 2_000, 'usd', cashier, { tip: 500, gratuity: 501 })).toThrow(z.ZodError);
    expect(() => store.cashier.recordCashPayment(order.id, 2_000, 'usd', cashier, { tip: 500, gratuity: -1 })).toThrow(z.ZodError);
    expect(rows()).toBe(before);
    store.close();
  });

  it('migration 32: payments and a queued card payment from before it read back with no part (null)', () => {
    const file = tempDbPath();
    const older = openStore(file, { migrations: STORE_MIGRATIONS.filter((m) => m.version < PAYMENT_PARTS_MIGRATION) });
    older.db
      .prepare(
        `INSERT INTO payments (id, layer, order_id, payment_intent_id, method, amount, currency, status, created_at, tip, split_part)
         VALUES ('pay_cash', 'base', 'ord_1', NULL, 'cash', 6144, 'usd', 'succeeded', 1, 864, NULL)`,
      )
      .run();
    // A card payment whose create waits in the outbox: its patch, written before the field existed, has no part.
    const oldPatch = { id: 'pi_local', order_id: 'ord_1', amount: 6_144, tip: 864, split_part: null, currency: 'usd', status: 'authorized', created_at: 2 };
    older.db
      .prepare(
        `INSERT INTO payment_intents (id, layer, order_id, amount, currency, status, created_at, tip, split_part)
         VALUES ('pi_local', 'pending', 'ord_1', 6144, 'usd', 'authorized', 2, 864, NULL)`,
      )
      .run();
    older.db
      .prepare(
        `INSERT INTO outbox (op_id, entity_kind, entity_id, kind, payload, patch, resource_key, state, next_attempt_at, created_at, updated_at)
         VALUES ('op_pi', 'payment_intent', 'pi_local', 'payment_intent.create', '{}', ?, 'payment_intent:pi_local', 'pending', 0, 0, 0)`,
      )
      .run(JSON.stringify(oldPatch));
    older.close();

    const store = openStore(file);
    expect(store.version).toBe(STORE_MIGRATIONS.length);
    expect(store.cashier.getPayment('pay_cash')).toMatchObject({ tip: 864, gratuity: null });
    expect(store.cashier.getPaymentIntent('pi_local')).toMatchObject({ tip: 864, gratuity: null });
    // Its capture replays the queued create on top: still a whole intent, still with no part.
    expect(store.cashier.capturePaymentIntent('pi_local', cashier)).toMatchObject({ status: 'captured', tip: 864, gratuity: null });
    store.close();
  });
});
