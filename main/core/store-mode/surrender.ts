// The quiet till's side of an adoption (docs/store-mode.md, "Built: adopting a dead till's orders"): back after another till
// took some of its orders over, it gives each up once, as soon as the page that told it commits and
// before its outbox drains (store-link.ts holds the push until its peers are caught up).
import type { Clock } from '../../../common/clock';
import type { Logger } from '../../../common/log';
import type { Store } from '../../../store/index';

/**
 * This till, back after others adopted its orders: gives each adopted order up (its operations
 * taken over leave the outbox, the order leaves its rows), once, before its outbox drains. A change
 * the adopter's copy lacks (made here after it, or before this till went quiet but never pulled by the
 * adopter) goes to the dead letters with the reason, for a person.
 */
export function surrenderAdopted(store: Store, self: string, clock: Clock, logger: Logger): number {
  const surrenders = store.adoptions.surrenders(self);
  for (const surrender of surrenders) {
    store.transaction(() => {
      const now = clock.now();
      const { unsent } = store.adoptions.surrender(self, surrender, now);
      const adopter = surrender.adopterName ?? 'another till';
      for (const opId of unsent) {
        store.outbox.deadLetter(opId, `${adopter} took this order over while this till was away, without this change (it had not reached ${adopter}), so neither till sends it: make it again on ${adopter}.`, now, {
          cause: 'conflict',
          status: null,
          code: null,
        });
      }
      store.cashier.recordAudit('system', 'store.adopted_away', { adopter: surrender.adopter, adopterName: surrender.adopterName, order: surrender.orderId, operations: surrender.opIds.length, unsent }, { kind: 'order', id: surrender.orderId });
    });
  }
  if (surrenders.length > 0) logger.info({ event: 'store-mode.adopted-away', orders: surrenders.length }, 'orders of this till were taken over by another till while it was away');
  return surrenders.length;
}
