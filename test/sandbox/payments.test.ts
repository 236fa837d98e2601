import { describe, expect, it } from 'vitest';
import { call, createOrder, sandboxPerSuite } from './helpers';

const t = sandboxPerSuite();

async function intent(orderId: string, amount: number) {
  return call(t.sb, 'POST', '/payments/intents', { key: t.key, body: { order_id: orderId, amount, currency: 'usd' } });
}

describe('payment intents', () => {
  it('authorizes, captures, then refunds in part and in full, keeping the order’s amount_paid', async () => {
    const order = await createOrder(t.sb);
    const created = await intent(order.id, order.total);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'authorized', amount: order.total, amount_captured: 0, captured_at: null });

    const captured = await call(t.sb, 'POST', `/payments/intents/${created.body.id}/capture`, { key: t.key });
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({ status: 'captured', amount_captured: order.total });
    expect((await call(t.sb, 'GET', `/orders/${order.id}`, { key: t.key })).body.amount_paid).toBe(order.total);

    const partial = await call(t.sb, 'POST', `/payments/${created.body.id}/refunds`, { key: t.key, body: { amount: 100, reason: 'duplicate' } });
    expect(partial.status).toBe(201);
    expect(partial.body).toMatchObject({ object: 'refund', amount: 100, reason: 'duplicate', status: 'succeeded', payment_id: created.body.id });
    const rest = await call(t.sb, 'POST', `/payments/${created.body.id}/refunds`, { key: t.key });
    expect(rest.body).toMatchObject({ amount: order.total - 100, reason: 'requested_by_customer' });
    expect((await call(t.sb, 'GET', `/orders/${order.id}`, { key: t.key })).body.amount_paid).toBe(0);

    const none = await call(t.sb, 'POST', `/payments/${created.body.id}/refunds`, { key: t.key, body: { amount: 1 } });
    expect(none.status).toBe(409);
    expect(none.body.error.code).toBe('invalid_state');
  });

  it('captures part of an authorization with amount_to_capture, never more', async () => {
    const order = await createOrder(t.sb);
    const p = (await intent(order.id, order.total)).body;
    const tooMuch = await call(t.sb, 'POST', `/payments/intents/${p.id}/capture`, { key: t.key, body: { amount_to_capture: order.total + 1 } });
    expect(tooMuch.body.error).toMatchObject({ code: 'invalid_request', param: 'amount_to_capture' });
    const part = await call(t.sb, 'POST', `/payments/intents/${p.id}/capture`, { key: t.key, body: { amount_to_capture: 500 } });
    expect(part.body.amount_captured).toBe(500);
    const twice = await call(t.sb, 'POST', `/payments/intents/${p.id}/capture`, { key: t.key, body: {} });
    expect(twice.status).toBe(409);
    const overRefund = await call(t.sb, 'POST', `/payments/${p.id}/refunds`, { key: t.key, body: { amount: 501 } });
    expect(overRefund.body.error).toMatchObject({ code: 'invalid_request', param: 'amount' });
  });

  it('splits a bill but never authorizes more than the outstanding balance', async () => {
    const order = await createOrder(t.sb);
    expect((await intent(order.id, order.total - 100)).status).toBe(201);
    const over = await intent(order.id, 101);
    expect(over.body.error).toMatchObject({ code: 'invalid_request', param: 'amount' });
    expect((await intent(order.id, 100)).status).toBe(201);
  });

  it('refuses a wrong currency, an unknown or cancelled order, and refunds before capture', async () => {
    const order = await createOrder(t.sb);
    const eur = await call(t.sb, 'POST', '/payments/intents', { key: t.key, body: { order_id: order.id, amount: 100, currency: 'eur' } });
    expect(eur.body.error.param).toBe('currency');
    const upper = await call(t.sb, 'POST', '/payments/intents', { key: t.key, body: { order_id: order.id, amount: 100, currency: 'USD' } });
    expect(upper.status).toBe(400);
    expect((await intent('ord_nope', 100)).body.error.param).toBe('order_id');
    expect((await intent(order.id, 0)).status).toBe(400);
    const p = (await intent(order.id, 100)).body;
    expect((await call(t.sb, 'POST', `/payments/${p.id}/refunds`, { key: t.key })).status).toBe(409);
    await call(t.sb, 'PATCH', `/orders/${order.id}`, { key: t.key, body: { status: 'cancelled' } });
    const captureAfterCancel = await call(t.sb, 'POST', `/payments/intents/${p.id}/capture`, { key: t.key });
    expect(captureAfterCancel.status).toBe(409);
    expect(captureAfterCancel.body.error.message).toContain('cancelled');
    const afterCancel = await intent(order.id, 100);
    expect(afterCancel.status).toBe(409);
    expect(afterCancel.body.error.code).toBe('invalid_state');
    expect((await call(t.sb, 'POST', '/payments/intents/pay_nope/capture', { key: t.key })).status).toBe(404);
    expect((await call(t.sb, 'POST', '/payments/pay_nope/refunds', { key: t.key })).status).toBe(404);
    expect((await call(t.sb, 'POST', `/payments/${p.id}/refunds`, { key: t.key, body: { reason: 'because' } })).status).toBe(400);
  });
});
