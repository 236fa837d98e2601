// The three-way merge of an order's lines: examples a cashier would recognise, then the rules as
// properties over random lines.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OrderLineInput } from '../../store/index';
import { lineRefs, mergeLines, orderTotal, sameLines } from '../../store/order-lines';

const line = (menuItemId: string, quantity: number, modifiers: string[] = []): OrderLineInput => ({
  menu_item_id: menuItemId,
  name: menuItemId,
  quantity,
  unit_price: 100,
  modifiers: modifiers.map((id) => ({ modifier_id: id, name: id, price: 10 })),
});
const counts = (lines: readonly OrderLineInput[]) => {
  const out: Record<string, number> = {};
  for (const l of lines) {
    const key = [l.menu_item_id, ...l.modifiers.map((m) => m.modifier_id).sort()].join('+');
    out[key] = (out[key] ?? 0) + l.quantity;
  }
  return out;
};

describe('mergeLines', () => {
  const burger = line('burger', 1);
  const ancestor = lineRefs([burger]);

  it('keeps what each side added', () => {
    const { lines, conflicts } = mergeLines(ancestor, [burger, line('fries', 1)], [burger, line('cola', 2)]);
    expect(conflicts).toEqual([]);
    expect(lines.map((l) => [l.menu_item_id, l.quantity])).toEqual([['burger', 1], ['cola', 2], ['fries', 1]]);
  });

  it('keeps what each side removed or changed when the other left it alone', () => {
    const start = [line('burger', 2), line('fries', 1), line('cola', 1)];
    const ours = [line('burger', 3), line('fries', 1), line('cola', 1)]; // one more burger
    const theirs = [line('burger', 2), line('cola', 1)]; // no fries
    const { lines, conflicts } = mergeLines(lineRefs(start), ours, theirs);
    expect(conflicts).toEqual([]);
    expect(counts(lines)).toEqual({ burger: 3, cola: 1 });
  });

  it('takes a change both sides made alike once', () => {
    const { lines, conflicts } = mergeLines(ancestor, [line('burger', 2)], [line('burger', 2)]);
    expect(conflicts).toEqual([]);
    expect(counts(lines)).toEqual({ burger: 2 });
  });

  it('reports an item both sides changed differently, and gives it our quantity in the merge', () => {
    const { lines, conflicts } = mergeLines(ancestor, [line('burger', 7), line('fries', 1)], [line('burger', 3)]);
    expect(conflicts).toEqual([{ name: 'burger', ancestor: 1, ours: 7, theirs: 3 }]);
    expect(counts(lines)).toEqual({ burger: 7, fries: 1 });
  });

  it('tells items apart by their modifiers, in any order', () => {
    const start = [line('burger', 1, ['cheese', 'bacon'])];
    const ours = [line('burger', 1, ['bacon', 'cheese']), line('burger', 1)];
    const theirs = [line('burger', 2, ['cheese', 'bacon'])];
    const { lines, conflicts } = mergeLines(lineRefs(start), ours, theirs);
    expect(conflicts).toEqual([]);
    expect(counts(lines)).toEqual({ 'burger+bacon+cheese': 2, burger: 1 });
  });

  it("keeps the server's names and prices on its lines", () => {
    const theirs = [{ ...line('burger', 1), name: 'Burger (new name)', unit_price: 120 }];
    const { lines } = mergeLines(ancestor, [burger, line('fries', 1)], theirs);
    expect(lines[0]).toMatchObject({ name: 'Burger (new name)', unit_price: 120 });
    expect(orderTotal(lines)).toBe(120 + 100);
  });
});

describe('mergeLines, as properties', () => {
  const items = ['burger', 'fries', 'cola', 'salad'];
  const linesArb = fc.array(
    fc.record({ item: fc.constantFrom(...items), quantity: fc.integer({ min: 1, max: 5 }), cheese: fc.boolean() }).map(({ item, quantity, cheese }) => line(item, quantity, cheese ? ['cheese'] : [])),
    { maxLength: 6 },
  );

  it('each item ends at the quantity of the side that changed it; unchanged by ours means theirs', () => {
    fc.assert(
      fc.property(linesArb, linesArb, linesArb, (start, ours, theirs) => {
        const { lines } = mergeLines(lineRefs(start), ours, theirs);
        const [a, o, t, m] = [counts(start), counts(ours), counts(theirs), counts(lines)];
        for (const key of new Set([...Object.keys(a), ...Object.keys(o), ...Object.keys(t)])) {
          const [qa, qo, qt] = [a[key] ?? 0, o[key] ?? 0, t[key] ?? 0];
          expect(m[key] ?? 0).toBe(qo === qa ? qt : qo);
        }
        expect(lines.every((l) => l.quantity > 0)).toBe(true);
      }),
    );
  });

  it('with no change on the server the result is ours; with none here it is theirs', () => {
    fc.assert(
      fc.property(linesArb, linesArb, (start, other) => {
        const unchangedThere = mergeLines(lineRefs(start), other, start);
        expect(sameLines(lineRefs(unchangedThere.lines), lineRefs(other))).toBe(true);
        expect(unchangedThere.conflicts).toEqual([]);
        const unchangedHere = mergeLines(lineRefs(start), start, other);
        expect(sameLines(lineRefs(unchangedHere.lines), lineRefs(other))).toBe(true);
        expect(unchangedHere.conflicts).toEqual([]);
      }),
    );
  });

  it('conflicts are exactly the items both sides changed, each differently', () => {
    fc.assert(
      fc.property(linesArb, linesArb, linesArb, (start, ours, theirs) => {
        const [a, o, t] = [counts(start), counts(ours), counts(theirs)];
        const expected = [...new Set([...Object.keys(a), ...Object.keys(o), ...Object.keys(t)])].filter((key) => {
          const [qa, qo, qt] = [a[key] ?? 0, o[key] ?? 0, t[key] ?? 0];
          return qo !== qa && qt !== qa && qo !== qt;
        });
        expect(mergeLines(lineRefs(start), ours, theirs).conflicts).toHaveLength(expected.length);
      }),
    );
  });
});
