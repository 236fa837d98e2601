// The receipt of a payment taken here toward another till's order (store mode): the guest is here, so
// the receipt prints here, from the order as replicated (its lines, its owner's pricing, the money the
// owner recorded) with the payment just taken on it, before the owner has it.
import type { PaymentChange } from '../../../bridge/store-mode/contract';
import type { Order } from '../../../bridge/contract';
import { OrderDoc, PaymentDoc, PaymentIntentDoc, RefundDoc, type Store } from '../../../store/index';
import { gratuityDueWith } from '../gratuity';
import { orderView } from '../views';

const readAll = <T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }, docs: readonly unknown[]): T[] =>
  docs.flatMap((doc) => {
    const read = schema.safeParse(doc);
    return read.success ? [read.data] : [];
  });

/** The order as its receipt shows it once `taken` is on it; null when this till cannot read the order. */
export function orderWithPaymentTaken(store: Store, replica: { origin: string; doc: Record<string, unknown> }, orderId: string, taken: PaymentChange, now: number): Order | null {
  const doc = OrderDoc.safeParse({ ...replica.doc, cloud_check: null });
  if (!doc.success) return null;
  const money = store.replicas.moneyOf(replica.origin, orderId);
  const intents = readAll(PaymentIntentDoc, money.intents);
  const payments = readAll(PaymentDoc, money.payments);
  const refunds = readAll(RefundDoc, money.refunds);
  const view = () => orderView(doc.data, { intents, payments, refunds, ...nothingLocal() });
  // The part of its tip that is the gratuity, as the owner records it when it applies the payment (cashier.ts).
  const before = view();
  const gratuity = gratuityDueWith(before.gratuity, before.total, before.paidAmount, taken.amount);
  const charged = taken.amount + taken.tip;
  const common = { id: taken.paymentId, order_id: orderId, amount: charged, tip: taken.tip, gratuity, split_part: taken.splitPart, currency: doc.data.currency, created_at: now };
  if (taken.method === 'cash') payments.push({ ...common, payment_intent_id: null, method: 'cash', status: 'succeeded' });
  else intents.push({ ...common, status: 'captured' });
  return view();
}

/** A replicated order has none of this till's own bookkeeping. */
const nothingLocal = () => ({
  outbox: new Map(),
  offlineIntentIds: new Set<string>(),
  staff: { orders: new Map(), payments: new Map(), refunds: new Map() },
  cloudStatuses: new Map(),
  links: { mergedInto: new Map(), reopened: new Map(), reopenOf: new Map() },
});
