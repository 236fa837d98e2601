// Store mode's forwarding tables on real SQLite files: a forward is one entry of the forwarding
// till's log; the owner's replica puts it in its inbox once however often the page (or the entry)
// comes, an answer takes it out of 'waiting' once, and the answer read back settles the forward.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock';
import { openStore, type Store } from '../../store';
import type { ForwardBody } from '../../store/store-forwards';
import { cashier, tempDbPath, threeLineOrder } from './helpers';

const T0 = 1_800_000_000_000;
const [TILL_A, TILL_B, TILL_C] = ['a'.repeat(64), 'b'.repeat(64), 'c'.repeat(64)];

function till(): Store {
  return openStore(tempDbPath(), { clock: new ManualClock(T0), storeMode: true });
}

function forwardTo(owner: string, order: string): ForwardBody {
  return {
    op: 'forward',
    owner,
    order,
    change: { kind: 'cancel', reason: 'guest left' },
    basedOn: { seq: 1, lines: [] },
    by: { id: 'stf_cfg_max', name: 'Max', role: 'manager' },
    approvedBy: null,
    from: { till: TILL_B, name: 'Patio' },
    at: T0,
  };
}

const inbox = (store: Store) => store.db.prepare('SELECT op_id AS opId, origin, state FROM store_inbox ORDER BY rowid').all();

describe('forwarding between two tills', () => {
  it("puts a forward addressed to this till in its inbox once (a page applied twice, an entry replayed in another page), and ignores one for another till", () => {
    const a = till();
    const b = till();
    const placed = a.cashier.createOrder(threeLineOrder(), cashier);
    b.transaction(() => {
      b.log.forwards.send('fwd_1', forwardTo(TILL_A, placed.id));
      b.log.forwards.send('fwd_2', forwardTo(TILL_C, placed.id));
    });
    const page = b.log.read(0, 100);
    expect(page.map((entry) => entry.opId)).toEqual(['fwd_1', 'fwd_2']);

    a.replicas.apply(TILL_B, b.log.logId(), page, T0, TILL_A);
    a.replicas.apply(TILL_B, b.log.logId(), page, T0 + 1, TILL_A);
    // The same entry again under another seq (a replaced log read again): still once.
    a.replicas.apply(TILL_B, 'another-log', [{ ...page[0]!, seq: 1 }], T0 + 2, TILL_A);
    expect(inbox(a)).toEqual([{ opId: 'fwd_1', origin: TILL_B, state: 'waiting' }]);
    expect(a.log.forwards.waiting(10).map((w) => w.body.change)).toEqual([{ kind: 'cancel', reason: 'guest left' }]);
    // A forward is no document: nothing listed from it.
    expect(a.replicas.openOrders()).toEqual([]);
    a.close();
    b.close();
  });

  it('answers a forward once, and the answer read back settles the forward on the till that sent it, once', () => {
    const a = till();
    const b = till();
    b.transaction(() => b.log.forwards.send('fwd_1', forwardTo(TILL_A, 'ord_1')));
    a.replicas.apply(TILL_B, b.log.logId(), b.log.read(0, 10), T0, TILL_A);
    const [waiting] = a.log.forwards.waiting(10);
    expect(a.transaction(() => a.log.forwards.answer(waiting!, { outcome: 'refused', reason: 'the order was paid meanwhile.', seq: null }, T0 + 5))).toBe(true);
    // A second answer (a drain run again with what it read before) writes nothing.
    expect(a.transaction(() => a.log.forwards.answer(waiting!, { outcome: 'applied', reason: null, seq: 9 }, T0 + 6))).toBe(false);
    expect(a.log.forwards.waiting(10)).toEqual([]);
    const answers = a.log.read(0, 10);
    expect(answers.map((entry) => entry.opId)).toEqual(['fwd_1.outcome']);

    expect(b.log.forwards.sent(0)).toMatchObject([{ opId: 'fwd_1', state: 'pending', byName: 'Max' }]);
    // An answer read by a till that did not send it, or from a till that does not own the order, changes nothing.
    b.replicas.apply(TILL_C, 'log-c', [{ ...answers[0]!, seq: 1 }], T0 + 7, TILL_B);
    expect(b.log.forwards.state('fwd_1')).toBe('pending');
    b.replicas.apply(TILL_A, a.log.logId(), answers, T0 + 8, TILL_B);
    b.replicas.apply(TILL_A, a.log.logId(), answers, T0 + 9, TILL_B);
    expect(b.log.forwards.sent(0)).toMatchObject([{ opId: 'fwd_1', state: 'refused', reason: 'the order was paid meanwhile.', answeredAt: T0 + 8 }]);
    // Refused ones are listed for a while only.
    expect(b.log.forwards.sent(T0 + 10)).toEqual([]);
    a.close();
    b.close();
  });

  it("logs an order's server with its entries, the create's included (attributed later in its transaction)", () => {
    const a = till();
    const placed = a.transaction(() => {
      const created = a.cashier.createOrder(threeLineOrder(), cashier);
      a.shifts.attribute({ entity_kind: 'order', entity_id: created.id, staff_id: 'stf_cfg_cass', shift_id: null, business_day: '2027-01-15', at: T0 });
      return created;
    });
    a.cashier.updateOrder(placed.id, { notes: 'no ice' }, cashier);
    const bodies = a.log.read(0, 10).map((entry) => JSON.parse(Buffer.from(entry.body).toString('utf8')) as { staff: string | null });
    expect(bodies.map((body) => body.staff)).toEqual(['stf_cfg_cass', 'stf_cfg_cass']);
    const b = till();
    b.replicas.apply(TILL_A, a.log.logId(), a.log.read(0, 10), T0, TILL_B);
    expect(b.replicas.order(placed.id)).toMatchObject({ origin: TILL_A, seq: 2, staff: 'stf_cfg_cass', doc: { notes: 'no ice', status: 'open' } });
    expect(b.replicas.order('ord_nobody')).toBeNull();
    a.close();
    b.close();
  });
});
