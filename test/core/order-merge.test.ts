// Merging two checks (issue 25, item 3; docs/tables.md, "Merging checks"), through the bridge on a
// real core and SQLite file: from's lines move onto into as they were, the guests add up (and
// bring the party's gratuity), from is cancelled as merged (never a void on the Z report), into
// keeps its table and server; someone else's checks need a manager; ten identical merges at once
// change things once; every refusal changes nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { ITEMS, LOCATION, MODIFIERS, signIn, STAFF, startTestCore, type TestCore } from './fixtures';
import { auditSince, lastAuditId, readDb, refusal, snapshot, STAFF_ID } from './staff-fixtures';

let t: TestCore | undefined;
afterEach(async () => {
  await t?.core.shutdown();
  t = undefined;
});

const MAINS = 'course_mains';
const DRINKS = 'course_drinks';
const at = (table: string, guests: number) => ({ type: 'dine_in', table, guests }) as const;

async function twoChecks(c: TestCore) {
  const into = await c.call('orders.place', {
    lines: [{ menuItemId: ITEMS.burger, quantity: 1, seat: 1, course: MAINS, modifierIds: [MODIFIERS.cheese], note: 'no onions' }],
    service: at('12', 2),
  });
  const from = await c.call('orders.place', {
    lines: [
      { menuItemId: ITEMS.fries, quantity: 2, seat: 2, course: MAINS, discount: { kind: 'percent', value: 1000, reason: 'Regular' } },
      { menuItemId: ITEMS.latte, quantity: 1, seat: null, course: DRINKS, modifierIds: [MODIFIERS.oat] },
    ],
    service: at('14', 3),
  });
  return { into, from };
}

describe('merging two checks', () => {
  it('moves the lines as they were, adds the guests, cancels the other as merged (not a void), and a repeat changes nothing', async () => {
    t = await startTestCore({}, {}, undefined, { signIn: 'cashier', openShift: true });
    const { into, from } = await twoChecks(t);
    const mark = lastAuditId(t.dataDir);
    const merged = await t.call('orders.merge', { into: into.id, from: from.id });

    expect(merged.lines.map((l) => [l.name, l.quantity, l.seat, l.course, l.note, l.modifiers.map((m) => m.name), l.discount?.reason ?? null])).toEqual([
      ['Burger', 1, 1, MAINS, 'no onions', ['Extra cheese'], null],
      ['Fries', 2, 2, MAINS, '', [], 'Regular'],
      ['Café latte', 1, null, DRINKS, '', ['Oat milk'], null],
    ]);
    expect(merged.service).toEqual({ type: 'dine_in', table: '12', guests: 5 });
    expect(merged.staff?.id).toBe(STAFF_ID.cashier);
    expect(merged.total).toBe(into.total + from.total);

    const gone = await t.call('orders.get', { id: from.id });
    expect(gone).toMatchObject({ status: 'cancelled', mergedInto: { id: into.id, label: into.label } });
    expect(auditSince(t.dataDir, mark).filter((a) => a.action === 'order.merge')).toEqual([
      expect.objectContaining({
        actor: STAFF_ID.cashier,
        entity_id: into.id,
        detail: expect.objectContaining({ into: { id: into.id, label: into.label, table: '12' }, from: { id: from.id, label: from.label, table: '14', cancelled: `Merged into ${into.label}` } }),
      }),
    ]);
    // The cloud hears of both in the same commit: into's new lines, from's cancellation.
    const ops = readDb(t.dataDir, (db) => db.prepare("SELECT entity_id, kind FROM outbox WHERE kind IN ('order.update', 'order.cancel') ORDER BY seq").all());
    expect(ops).toEqual([
      { entity_id: into.id, kind: 'order.update' },
      { entity_id: from.id, kind: 'order.cancel' },
    ]);

    // A repeat after a lost answer: the same check, nothing changed.
    const before = snapshot(t.dataDir, { audit: true });
    expect((await t.call('orders.merge', { into: into.id, from: from.id })).lines).toHaveLength(3);
    expect(snapshot(t.dataDir, { audit: true })).toEqual(before);

    // Paid and closed, the day has one sale and no void; the merged check is in neither.
    await t.call('payments.take', { orderId: into.id, method: 'cash', amount: merged.total });
    await t.call('orders.fulfil', { id: into.id });
    await signIn(t.core, 'manager');
    const z = await t.call('reports.z', {});
    expect(z.sales.orders).toBe(1);
    expect(z.sales.total).toBe(merged.total);
    expect(z.voids).toEqual({ count: 0, amount: 0 });
    expect(z.openChecks.count).toBe(0);
  });

  it('brings the party’s gratuity when the guests together reach the threshold', async () => {
    t = await startTestCore({ checkout: { autoGratuityGuests: 8, autoGratuityPercent: 18 } } as never, {}, undefined, { signIn: 'cashier', openShift: false });
    const into = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 5 }], service: at('12', 5) });
    const from = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 3 }], service: at('13', 3) });
    expect(into.gratuity).toBeNull();
    const merged = await t.call('orders.merge', { into: into.id, from: from.id });
    expect(merged.service.guests).toBe(8);
    expect(merged.gratuity).toMatchObject({ percentBps: 1800, base: 9600, amount: 1728 });
  });

  it('needs a manager for someone else’s checks (a wrong PIN changes nothing), and leaves into with its server', async () => {
    t = await startTestCore({}, {}, undefined, { signIn: 'cashier', openShift: false });
    const { into, from } = await twoChecks(t);
    await signIn(t.core, 'cashier2');
    const before = snapshot(t.dataDir);
    expect(refusal(await t.raw('orders.merge', { into: into.id, from: from.id }))).toMatchObject({ code: 'needs_manager' });
    expect(refusal(await t.raw('orders.merge', { into: into.id, from: from.id, managerPin: STAFF.cashier.pin }))).toMatchObject({ code: 'needs_manager' });
    expect(snapshot(t.dataDir)).toEqual(before);

    const mark = lastAuditId(t.dataDir);
    const merged = await t.call('orders.merge', { into: into.id, from: from.id, managerPin: STAFF.manager.pin });
    expect(merged.staff?.id).toBe(STAFF_ID.cashier);
    expect(auditSince(t.dataDir, mark).find((a) => a.action === 'order.merge')?.detail).toMatchObject({ approvedBy: STAFF_ID.manager });
  });

  it('merges once when ten identical merges arrive at once', async () => {
    t = await startTestCore({}, {}, undefined, { signIn: 'cashier', openShift: false });
    const { into, from } = await twoChecks(t);
    const mark = lastAuditId(t.dataDir);
    const answers = await Promise.all(Array.from({ length: 10 }, () => t!.raw('orders.merge', { into: into.id, from: from.id })));
    expect(answers.every((a) => a.ok)).toBe(true);
    expect(auditSince(t.dataDir, mark).filter((a) => a.action === 'order.merge')).toHaveLength(1);
    expect((await t.call('orders.get', { id: into.id })).lines).toHaveLength(3);
    expect(readDb(t.dataDir, (db) => db.prepare("SELECT COUNT(*) AS n FROM outbox WHERE kind = 'order.cancel'").get())).toEqual({ n: 1 });
  });

  it('refuses, changing nothing: itself, a closed check, a paid or refunded one, discounts, a split, another currency, a course held on one and sent on the other, a check merged elsewhere', async () => {
    t = await startTestCore({}, {}, (store) => {
      const line = { menu_item_id: ITEMS.fries, name: 'Fries', quantity: 1, unit_price: 450, modifiers: [] };
      store.cashier.createOrder({ locationId: LOCATION, currency: 'eur', lines: [line], service: { type: 'dine_in', table: '20', guests: 1 } }, { actor: 'seed' });
    }, { signIn: 'owner', openShift: true });
    const euros = (await t.call('orders.list', { search: '20' }))[0]!;
    const place = (table: string, extra: Record<string, unknown> = {}) => t!.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }], service: at(table, 2), ...extra });
    const into = await place('12');
    const refused = async (payload: { into: string; from: string }, code: string, words: RegExp) => {
      const before = snapshot(t!.dataDir, { audit: true });
      const answer = refusal(await t!.raw('orders.merge', payload));
      expect(answer).toMatchObject({ code });
      expect(answer.message).toMatch(words);
      expect(snapshot(t!.dataDir, { audit: true })).toEqual(before);
    };

    await refused({ into: into.id, from: into.id }, 'invalid_command', /into itself/);
    await refused({ into: into.id, from: euros.id }, 'invalid_command', /different currencies/);

    const closed = await place('13');
    await t.call('payments.take', { orderId: closed.id, method: 'cash', amount: closed.total });
    await t.call('orders.fulfil', { id: closed.id });
    await refused({ into: into.id, from: closed.id }, 'conflict', /already fulfilled/);
    await refused({ into: closed.id, from: into.id }, 'conflict', /already fulfilled/);

    const paid = await place('14');
    const { payment } = await t.call('payments.take', { orderId: paid.id, method: 'cash', amount: 100 });
    await t.call('payments.refund', { paymentId: payment.id, amount: 100, reason: 'requested_by_customer' });
    await refused({ into: into.id, from: paid.id }, 'conflict', /has a payment: refund it or finish/);

    const discounted = await place('15', { discount: { kind: 'amount', value: 100, reason: 'Regular' } });
    await refused({ into: into.id, from: discounted.id }, 'conflict', new RegExp(`Take the discount off check ${discounted.label} first`));
    const percent = await place('16', { discount: { kind: 'percent', value: 1000, reason: 'Regular' } });
    const plain = await place('17');
    await refused({ into: percent.id, from: plain.id }, 'conflict', new RegExp(`Take the discount off check ${percent.label} first`));

    const split = await place('18');
    await t.call('orders.update', { id: split.id, split: { kind: 'even', parts: 2 } });
    await refused({ into: split.id, from: plain.id }, 'conflict', /is split/);

    const held = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1, course: MAINS }], service: at('19', 2), heldCourses: [MAINS] });
    const sent = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.burger, quantity: 1, course: MAINS }], service: at('21', 2) });
    await refused({ into: held.id, from: sent.id }, 'conflict', /Mains is held on .* but already went to the kitchen/);
    await refused({ into: sent.id, from: held.id }, 'conflict', /Mains is held on .* but already went to the kitchen/);

    await t.call('orders.merge', { into: into.id, from: plain.id });
    await refused({ into: sent.id, from: plain.id }, 'conflict', /merged into another check already/);
    expect(refusal(await t.raw('orders.merge', { into: into.id, from: 'ord_nowhere' }))).toMatchObject({ code: 'not_found' });
  });
});
