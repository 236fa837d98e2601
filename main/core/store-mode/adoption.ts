// Taking over a quiet till's orders (docs/store-mode.md, "Built: adopting a dead till's orders"): a
// manager, on any register of the store, adopts the orders a till holds that the cloud does not have
// (and its open tabs) once that till has not answered for a while. The store does the copying in one
// transaction (store/store-adoption.ts); here are the rules a person meets: who may, which till,
// when, and the audit. The quiet till's side, when it comes back, is surrender.ts.
import type { Clock } from '../../../common/clock';
import { newId } from '../../../common/ids';
import type { ReplicaTill, Store } from '../../../store/index';
import { CoreError } from '../errors';
import type { Act, StaffDesk } from '../staff/desk';
import type { StoreLink, StoreLinkStatus } from '../store-link';

/** A till silent this long (and not answering now) may have its orders adopted: the sync panel's "quiet". */
export const QUIET_BEFORE_ADOPTION_MS = 2 * 60_000;

export interface AdoptionDeps {
  store: Store;
  staff: StaffDesk;
  clock: Clock;
  /** Tests shorten the wait. */
  quietBeforeAdoptionMs?: number;
}

export interface AdoptionView {
  tillId: string;
  tillName: string | null;
  orders: number;
  operations: number;
  labels: string[];
  sentence: string;
}

/**
 * Why `tillId`'s orders cannot be adopted now, in words; null when they can. `status`: the link's;
 * `till`: what the replicas know of it (undefined: never heard), both read once by the caller.
 */
export function adoptionRefusal(status: StoreLinkStatus, till: ReplicaTill | undefined, tillId: string, now: number, quietMs: number): string | null {
  if (tillId === status.tillId) return 'These are this till’s own orders.';
  if (!till) return 'No till of this store with that id has been heard from.';
  const peer = status.peers.find((p) => p.tillId === tillId);
  const name = till.name ?? 'That till';
  // Answering now: it still delivers its own orders (a till cut off from this one answers nobody here).
  if (peer && peer.problem === null && peer.lastHeardAt !== null) return `${name} is answering: it delivers its own orders.`;
  const heardAt = peer?.lastHeardAt ?? till.heardAt;
  if (heardAt !== null && now - heardAt < quietMs) {
    return `${name} was heard from ${Math.round((now - heardAt) / 1000)} s ago: wait until it has been quiet for ${Math.round(quietMs / 60_000)} min, in case it is only restarting.`;
  }
  return null;
}

export class AdoptionDesk {
  constructor(
    private readonly deps: AdoptionDeps,
    private readonly link: () => StoreLink | null,
  ) {}

  /** Adopts every order `tillId` holds that the cloud does not have, and its open ones; needs 'store.adopt'. */
  adopt(tillId: string, act: Act): AdoptionView {
    const { store, staff, clock } = this.deps;
    const approvedBy = staff.require(act, 'store.adopt');
    const running = this.link();
    if (!running) throw new CoreError('unavailable', 'Store mode is off on this till: there is no other till to take orders from.');
    const now = clock.now();
    const status = running.status();
    const till = store.replicas.tills().find((known) => known.origin === tillId);
    const refusal = adoptionRefusal(status, till, tillId, now, this.deps.quietBeforeAdoptionMs ?? QUIET_BEFORE_ADOPTION_MS);
    if (refusal !== null) throw new CoreError('conflict', refusal);
    const tillName = till?.name ?? null;
    const approver = approvedBy !== null && act.approver.kind === 'staff' && act.approver.staff.id === approvedBy ? act.approver.staff : null;
    const person = (doc: { id: string; name: string; role: 'cashier' | 'manager' | 'owner' }) => ({ id: doc.id, name: doc.name, role: doc.role });
    const result = store.transaction(() => {
      const adopted = store.adoptions.adopt({
        origin: tillId,
        originName: tillName,
        self: status.tillId,
        adoptionId: newId('adopt_', now),
        by: person(act.by),
        approvedBy: approver === null ? null : person(approver),
        now,
      });
      // A repeat finds nothing left to take, and changes nothing.
      if (adopted.orders.length === 0) return adopted;
      store.cashier.recordAudit(act.by.id, 'store.adopt', {
        from: tillId,
        fromName: tillName,
        orders: adopted.orders.map((order) => order.orderId),
        operations: adopted.operations,
        approvedBy: approver?.id ?? null,
      });
      return adopted;
    });
    const labels = result.orders.map((order) => order.number ?? `#${order.orderId.slice(-4).toUpperCase()}`);
    const name = tillName ?? 'the quiet till';
    const sentence =
      result.orders.length === 0
        ? `${name} holds no order to take over.`
        : `Took over ${result.orders.length} ${result.orders.length === 1 ? 'order' : 'orders'} from ${name} (${labels.join(', ')}): this till sends them to the cloud and they are changed here from now on.`;
    return { tillId, tillName, orders: result.orders.length, operations: result.operations, labels, sentence };
  }
}
