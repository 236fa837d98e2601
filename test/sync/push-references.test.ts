// Reference rewriting at send time (sync/operations.ts): local ids become server ids, a reference
// whose create has not reached the server is refused, and what resolved is asked of the store once.
import { describe, expect, it } from 'vitest';
import { openStore } from '../../store/index';
import { buildRequest, ReferenceResolver, UnresolvedReferenceError } from '../../sync/operations';
import { cashier, tempDbPath, threeLineOrder } from '../store/helpers';

describe('ReferenceResolver', () => {
  it('refuses a local id not yet on the server, and resolves it once its create is done', () => {
    const store = openStore(tempDbPath());
    const order = store.cashier.createOrder(threeLineOrder(), cashier);
    const refs = new ReferenceResolver(store);
    expect(() => refs.serverId('order', order.id)).toThrow(UnresolvedReferenceError);
    const [create] = store.outbox.claimReady(Date.now(), 1);
    expect(() => refs.serverId('order', order.id)).toThrow(/has no server id yet/);
    store.outbox.completeOperation(create!.opId, { serverId: 'ord_server_1' });
    // The refusal was not remembered: the same resolver now finds the link.
    expect(refs.serverId('order', order.id)).toBe('ord_server_1');
    expect(() => refs.serverId('order', undefined)).toThrow(/missing order reference/);
    store.close();
  });

  it('asks the store once per reference, however many requests name it', () => {
    const store = openStore(tempDbPath());
    for (let n = 0; n < 5; n++) store.cashier.createOrder(threeLineOrder(), cashier);
    let lookups = 0;
    const serverIdFor = store.serverIdFor.bind(store);
    store.serverIdFor = (kind, id) => {
      lookups++;
      return serverIdFor(kind, id);
    };
    const refs = new ReferenceResolver(store);
    const bodies = store.outbox.readyOperations(Date.now(), 10).map((op) => buildRequest(refs, op).body);
    expect(bodies).toHaveLength(5);
    // The same location, 3 menu items and 1 modifier in every order, all the server's own ids.
    expect(bodies.every((body) => body?.location_id === 'loc_1')).toBe(true);
    expect(bodies[4]?.items).toEqual(bodies[0]?.items);
    expect(lookups).toBe(5);
    store.close();
  });
});
