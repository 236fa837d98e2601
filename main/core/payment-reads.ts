// Reads the store's public API does not offer as calls: the payments, intents and refunds of a
// set of orders, and which entities still have unfinished or dead outbox operations. They are
// read-only queries on the store's open connection; each entity prefers its pending layer, exactly
// like the store's merged views (docs/store.md, "two layers").
import type { Store } from '../../store/index';

export interface IntentRow {
  id: string;
  order_id: string;
  amount: number;
  currency: string;
  status: string;
  created_at: number;
}
export interface PaymentRow extends IntentRow {
  payment_intent_id: string | null;
  method: 'card' | 'cash';
}
export interface RefundRow {
  id: string;
  payment_id: string;
  amount: number;
  currency: string;
  reason: string;
  status: string;
  created_at: number;
}

export type OutboxState = 'unfinished' | 'dead';

function mergedRows<T extends { id: string }>(rows: readonly (T & { layer: string })[]): T[] {
  const byId = new Map<string, T & { layer: string }>();
  for (const row of rows) {
    const seen = byId.get(row.id);
    if (!seen || row.layer === 'pending') byId.set(row.id, row);
  }
  return [...byId.values()].map(({ layer: _layer, ...rest }) => rest as unknown as T);
}

function placeholders(count: number): string {
  return new Array(count).fill('?').join(',');
}

export class PaymentReads {
  constructor(private readonly store: Store) {}

  #all<T>(sql: string, params: readonly unknown[]): T[] {
    return this.store.db.prepare(sql).all(...params) as T[];
  }

  /** Card intents, payment records and refunds of `orderIds`. */
  ofOrders(orderIds: readonly string[]): { intents: IntentRow[]; payments: PaymentRow[]; refunds: RefundRow[] } {
    if (orderIds.length === 0) return { intents: [], payments: [], refunds: [] };
    const marks = placeholders(orderIds.length);
    const intents = mergedRows<IntentRow>(
      this.#all(`SELECT id, order_id, amount, currency, status, created_at, layer FROM payment_intents WHERE order_id IN (${marks})`, orderIds),
    );
    const payments = mergedRows<PaymentRow>(
      this.#all(
        `SELECT id, order_id, payment_intent_id, method, amount, currency, status, created_at, layer FROM payments WHERE order_id IN (${marks})`,
        orderIds,
      ),
    );
    const paymentIds = payments.map((p) => p.id);
    const refunds =
      paymentIds.length === 0
        ? []
        : mergedRows<RefundRow>(
            this.#all(
              `SELECT id, payment_id, amount, currency, reason, status, created_at, layer FROM refunds WHERE payment_id IN (${placeholders(paymentIds.length)})`,
              paymentIds,
            ),
          );
    return { intents, payments, refunds };
  }

  /** The intent a card payment record belongs to, or the intent itself. */
  intent(id: string): IntentRow | undefined {
    return mergedRows<IntentRow>(this.#all('SELECT id, order_id, amount, currency, status, created_at, layer FROM payment_intents WHERE id = ?', [id]))[0];
  }

  cardPaymentForIntent(intentId: string): PaymentRow | undefined {
    return mergedRows<PaymentRow>(
      this.#all(
        'SELECT id, order_id, payment_intent_id, method, amount, currency, status, created_at, layer FROM payments WHERE payment_intent_id = ?',
        [intentId],
      ),
    )[0];
  }

  /** "kind:id" → whether the entity has operations still to send, or a dead one. */
  outboxStates(): Map<string, OutboxState> {
    const rows = this.#all<{ entity_kind: string; entity_id: string; state: string }>(
      "SELECT entity_kind, entity_id, state FROM outbox WHERE state IN ('pending', 'in_flight', 'dead')",
      [],
    );
    const out = new Map<string, OutboxState>();
    for (const row of rows) {
      const key = `${row.entity_kind}:${row.entity_id}`;
      if (row.state === 'dead') out.set(key, 'dead');
      else if (!out.has(key)) out.set(key, 'unfinished');
    }
    return out;
  }
}
