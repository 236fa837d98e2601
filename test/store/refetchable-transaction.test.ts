// store.refetchableTransaction: the commit of a pulled page skips the fsync (synchronous=NORMAL
// for that one commit only), stays atomic, and never leaves the connection less durable.
import { describe, expect, it } from 'vitest';
import { openStore } from '../../store';
import { cashier, tempDbPath, threeLineOrder } from './helpers';

const synchronous = (store: ReturnType<typeof openStore>) => store.db.pragma('synchronous', { simple: true });
const page = (id: string) => ({ id, name: `Location ${id}`, currency: 'usd', address: null, timezone: null });

describe('refetchable transactions', () => {
  it('commit without the fsync, then put synchronous=FULL back for every other write', () => {
    const store = openStore(tempDbPath());
    const during = store.refetchableTransaction(() => {
      store.server.applyPullPage({ kind: 'location', scope: 'location:all', records: [page('loc_a')], cursor: 'next', pullStartedAt: 1 });
      return synchronous(store);
    });
    expect(during).toBe(1); // NORMAL
    expect(synchronous(store)).toBe(2); // FULL again
    expect(store.server.getCursor('location:all')?.cursor).toBe('next');
    expect(store.cashier.getLocation('loc_a')?.name).toBe('Location loc_a');
    store.cashier.createOrder(threeLineOrder(), cashier);
    expect(synchronous(store)).toBe(2);
    store.close();
  });

  it('roll back whole when the work throws, and still put synchronous=FULL back', () => {
    const store = openStore(tempDbPath());
    expect(() =>
      store.refetchableTransaction(() => {
        store.server.applyPullPage({ kind: 'location', scope: 'location:all', records: [page('loc_b')], cursor: 'next', pullStartedAt: 1 });
        throw new Error('page rejected');
      }),
    ).toThrow('page rejected');
    expect(synchronous(store)).toBe(2);
    expect(store.cashier.getLocation('loc_b')).toBeUndefined();
    expect(store.server.getCursor('location:all')).toBeUndefined();
    store.close();
  });

  it('inside another transaction are a savepoint of it, as durable as it is', () => {
    const store = openStore(tempDbPath());
    expect(() =>
      store.transaction(() => {
        const during = store.refetchableTransaction(() => {
          store.server.applyPullPage({ kind: 'location', scope: 'location:all', records: [page('loc_c')], cursor: 'next', pullStartedAt: 1 });
          return synchronous(store);
        });
        expect(during).toBe(2);
        throw new Error('outer failure');
      }),
    ).toThrow('outer failure');
    expect(store.cashier.getLocation('loc_c')).toBeUndefined();
    expect(synchronous(store)).toBe(2);
    store.close();
  });
});
