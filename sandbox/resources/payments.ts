// POST /payments/intents, GET /payments/intents/{id}, POST /payments/intents/{id}/capture, POST /payments/{id}/refunds.
import type { Order, Payment, Refund } from '../../api/records';
import type { CaptureRequest, CreatePaymentIntentRequest, CreateRefundRequest } from '../../api/requests';
import { newId } from '../../common/ids';
import { iso, type OpContext, type OpResult } from '../context';
import { ApiError } from '../http';
import type { Tx } from '../storage';
import { findOrder, heldTowardsTotal, paymentsOf, saveOrder } from './orders';

async function paymentOr404(tx: Tx, id: string): Promise<Payment> {
  const row = await tx.selectFrom('payments').select('doc').where('id', '=', id).executeTakeFirst();
  if (!row) throw new ApiError('not_found', `no payment ${id}`);
  return JSON.parse(row.doc) as Payment;
}

async function savePayment(tx: Tx, payment: Payment): Promise<void> {
  await tx.updateTable('payments').set({ doc: JSON.stringify(payment) }).where('id', '=', payment.id).execute();
}

/** Keeps order.amount_paid equal to captured minus refunded over its payments. */
async function refreshAmountPaid(tx: Tx, orderId: string, nowMs: number): Promise<void> {
  const order = (await findOrder(tx, orderId)) as Order;
  const paid = (await paymentsOf(tx, orderId)).reduce((sum, p) => sum + p.amount_captured - p.amount_refunded, 0);
  if (paid !== order.amount_paid) await saveOrder(tx, { ...order, amount_paid: paid, updated_at: iso(nowMs) });
}

export async function createPaymentIntent(ctx: OpContext): Promise<OpResult> {
  const body = ctx.body as CreatePaymentIntentRequest;
  const order = await findOrder(ctx.tx, body.order_id);
  if (!order) throw new ApiError('invalid_request', `order_id: no order ${body.order_id}`, { param: 'order_id' });
  if (order.status === 'cancelled') throw new ApiError('invalid_state', `order ${order.id} is cancelled and takes no payment`, { param: 'order_id' });
  if (body.currency !== order.currency) {
    throw new ApiError('invalid_request', `currency: the order is in ${order.currency}, not ${body.currency}`, { param: 'currency' });
  }
  // spec-minimal dropped tip_amount before this point.
  const tip = body.tip_amount ?? 0;
  if (tip > body.amount) {
    throw new ApiError('invalid_request', `tip_amount: ${tip} is more than the amount ${body.amount} it is part of`, { param: 'tip_amount' });
  }
  // The default profile caps what goes towards the order (the amount less its tip) at what is left to
  // pay. spec-minimal does not: a server that models no tax cannot know the till's tax and tips.
  if (ctx.profile === 'default') {
    const outstanding = order.total - heldTowardsTotal(await paymentsOf(ctx.tx, order.id));
    if (body.amount - tip > outstanding) {
      const what = tip > 0 ? `${body.amount} less its tip ${tip}` : String(body.amount);
      throw new ApiError('invalid_request', `amount: ${what} is more than the ${outstanding} left to pay on ${order.id}`, { param: 'amount' });
    }
  }
  const now = ctx.clock.now();
  const payment: Payment = {
    id: newId('pay_', now),
    object: 'payment',
    order_id: order.id,
    amount: body.amount,
    tip_amount: tip,
    currency: body.currency,
    status: 'authorized',
    amount_captured: 0,
    amount_refunded: 0,
    refunds: [],
    created_at: iso(now),
    updated_at: iso(now),
    captured_at: null,
  };
  await ctx.tx.insertInto('payments').values({ id: payment.id, order_id: order.id, created_at: now, doc: JSON.stringify(payment) }).execute();
  return { status: 201, body: payment };
}

/** Beyond the spec: the payment as it is now, so a client whose capture reply was lost can ask. */
export async function getPaymentIntent(ctx: OpContext): Promise<OpResult> {
  return { status: 200, body: await paymentOr404(ctx.tx, ctx.id) };
}

export async function capturePaymentIntent(ctx: OpContext): Promise<OpResult> {
  const payment = await paymentOr404(ctx.tx, ctx.id);
  if (payment.status !== 'authorized') {
    const message = `payment ${payment.id} is ${payment.status}: only an authorized payment can be captured`;
    // A server that names no state conflict answers this as a bad request (422 in spec-minimal).
    if (ctx.quirks.unknown_payment_states) throw new ApiError('invalid_request', `id: ${message}`, { param: 'id' });
    throw new ApiError('invalid_state', message);
  }
  const order = (await findOrder(ctx.tx, payment.order_id)) as Order;
  if (order.status === 'cancelled') throw new ApiError('invalid_state', `order ${order.id} is cancelled: its authorizations can no longer be captured`);
  const body = (ctx.body ?? {}) as CaptureRequest;
  const amount = body.amount_to_capture ?? payment.amount;
  if (amount > payment.amount) {
    throw new ApiError('invalid_request', `amount_to_capture: ${amount} is more than the authorized ${payment.amount}`, { param: 'amount_to_capture' });
  }
  const now = ctx.clock.now();
  const captured: Payment = { ...payment, status: 'captured', amount_captured: amount, captured_at: iso(now), updated_at: iso(now) };
  await savePayment(ctx.tx, captured);
  await refreshAmountPaid(ctx.tx, captured.order_id, now);
  await ctx.emit('payment.completed', { id: captured.id, type: 'payment', attributes: captured });
  return { status: 200, body: captured };
}

export async function createRefund(ctx: OpContext): Promise<OpResult> {
  const payment = await paymentOr404(ctx.tx, ctx.id);
  if (payment.status !== 'captured' && payment.status !== 'partially_refunded') {
    throw new ApiError('invalid_state', `payment ${payment.id} is ${payment.status}: only a captured payment can be refunded`);
  }
  const body = (ctx.body ?? {}) as CreateRefundRequest;
  const refundable = payment.amount_captured - payment.amount_refunded;
  const amount = body.amount ?? refundable;
  if (amount > refundable) throw new ApiError('invalid_request', `amount: ${amount} is more than the ${refundable} left to refund`, { param: 'amount' });
  const now = ctx.clock.now();
  const refund: Refund = {
    id: newId('re_', now),
    object: 'refund',
    payment_id: payment.id,
    amount,
    currency: payment.currency,
    reason: body.reason ?? 'requested_by_customer',
    status: 'succeeded',
    created_at: iso(now),
  };
  const refunded = payment.amount_refunded + amount;
  const updated: Payment = {
    ...payment,
    amount_refunded: refunded,
    status: refunded === payment.amount_captured ? 'refunded' : 'partially_refunded',
    refunds: [...payment.refunds, refund],
    updated_at: iso(now),
  };
  await savePayment(ctx.tx, updated);
  await refreshAmountPaid(ctx.tx, updated.order_id, now);
  await ctx.emit('payment.refunded', { id: updated.id, type: 'payment', attributes: updated });
  return { status: 201, body: refund };
}
