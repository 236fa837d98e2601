// What a /v1 order becomes in the store: its line prices in the till's terms.
import { describe, expect, it } from 'vitest';
import { clientOrderSchema } from '../../api/client-records';
import type { OrderLineDoc } from '../../store/index';
import { orderTotal } from '../../store/order-lines';
import { orderRecord } from '../../sync/server-records';

describe('orderRecord', () => {
  it("takes the modifiers out of a line's price (/v1 puts them in; the till keeps them apart), so the lines add up to the total", () => {
    const order = clientOrderSchema.parse({
      id: 'ord_1',
      status: 'open',
      items: [
        { id: 'li_1', menu_item_id: 'mi_burger', name: 'Burger', quantity: 2, price: 1150, modifiers: [{ id: 'mod_cheese', name: 'Cheese', price: 150 }] },
        { id: 'li_2', menu_item_id: 'mi_cola', name: 'Cola', quantity: 1, price: 250, modifiers: ['mod_ice'] },
      ],
      total: 2550,
      currency: 'usd',
    });
    const lines = orderRecord(order).lines as OrderLineDoc[];
    expect(lines.map((line) => line.unit_price)).toEqual([1000, 250]);
    expect(lines[1]!.modifiers).toEqual([{ modifier_id: 'mod_ice', name: '', price: 0 }]);
    expect(orderTotal(lines)).toBe(2550);
  });
});
