// The store-mode room's commands (bridge/store-mode/contract.ts) as the core's dispatcher runs them:
// this till's link and the store's replicas turned into the bridge's shapes, and changes to other
// tills' orders forwarded (forwarding.ts). With store mode off the reads answer (off, nothing
// replicated), so a screen needs no other check.
import type { z } from 'zod';
import type { storeModeCommands, StoreModeForward, StoreModeOrder, StoreModeStatus } from '../../../bridge/store-mode/contract';
import type { ReplicaOrder, Store } from '../../../store/index';
import type { CommandContext } from '../dispatch';
import type { DayReports } from '../staff/reports';
import type { StoreLink } from '../store-link';
import { AdoptionDesk, adoptionRefusal, QUIET_BEFORE_ADOPTION_MS } from './adoption';
import { priceLines } from '../checkout';
import { ForwardDesk, splitOf, type ForwardingDeps } from './forwarding';
import type { PairingDesk } from './pairing';
import { buildStoreDay, dayWindow } from './store-z';

type Commands = typeof storeModeCommands;
export type StoreModeHandlers = { [C in keyof Commands]: (payload: z.output<Commands[C]['payload']>, context: CommandContext) => z.output<Commands[C]['result']> | Promise<z.output<Commands[C]['result']>> };

const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));
const SERVICE_TYPES = new Set(['dine_in', 'takeout', 'delivery']);

/** What an order discount comes off: the lines after their own discounts, priced by this till's rules. */
function discountBase(order: ReplicaOrder, cashier: ForwardingDeps['cashier']): number {
  const { source: _source, ...rules } = cashier.pricing();
  const check = priceLines(order.lines, null, rules, order.currency);
  return check.subtotal - check.lineDiscountTotal;
}

function orderView(order: ReplicaOrder, forwards: readonly StoreModeForward[], cashier: ForwardingDeps['cashier'], store: Store): StoreModeOrder {
  return {
    id: order.id,
    number: order.number,
    label: order.number ?? `#${order.id.slice(-4).toUpperCase()}`,
    serviceType: order.serviceType !== null && SERVICE_TYPES.has(order.serviceType) ? (order.serviceType as StoreModeOrder['serviceType']) : null,
    table: order.table,
    customerName: order.customerName,
    total: { amount: order.total, currency: order.currency },
    paid: { amount: order.paid, currency: order.currency },
    ownerTillId: order.origin,
    ownerTillName: order.ownerName,
    reachedCloud: order.reachedCloud,
    createdAt: iso(order.createdAt),
    updatedAt: iso(order.updatedAt),
    ownerLastHeardAt: isoOrNull(order.ownerHeardAt),
    lines: order.lines.map((line) => ({
      menuItemId: line.menu_item_id,
      name: line.name,
      quantity: line.quantity,
      modifierIds: line.modifiers.map((m) => m.modifier_id),
      modifierNames: line.modifiers.map((m) => m.name),
      note: line.note,
      discount: line.discount,
    })),
    discount: order.discount,
    discountBase: { amount: discountBase(order, cashier), currency: order.currency },
    split: splitOf(order, store),
    forwards: forwards.filter((forward) => forward.orderId === order.id),
  };
}

function statusView(link: StoreLink, store: Store, now: number, quietMs: number): Omit<StoreModeStatus, 'pairing'> {
  const status = link.status();
  const tills = new Map(store.replicas.tills().map((till) => [till.origin, till]));
  // Counted only for a till whose orders may be adopted now: the screens ask every 2 s, and a peer's replica holds its whole history.
  const adoption = (tillId: string | null) => {
    if (tillId === null) return { adoptableOrders: 0, adoptionRefusal: null };
    const refusal = adoptionRefusal(status, tills.get(tillId), tillId, now, quietMs);
    return { adoptableOrders: refusal === null ? store.adoptions.adoptable(tillId).length : 0, adoptionRefusal: refusal };
  };
  const identified = new Set(status.peers.flatMap((peer) => (peer.tillId === null ? [] : [peer.tillId])));
  // Tills whose log is here but who have not answered since this till started: a till that died
  // holding orders the cloud does not have must stay in sight across a restart.
  const unheard = [...tills.values()]
    .filter((till) => !identified.has(till.origin))
    .map((till) => ({
      address: null,
      source: null,
      tillId: till.origin,
      name: till.name,
      lastHeardAt: isoOrNull(till.heardAt),
      ordersNotInCloud: till.ordersNotInCloud,
      refusals: {},
      logReplacements: 0,
      problem: null,
      ...adoption(till.origin),
    }));
  return {
    mode: 'on',
    till: { id: status.tillId, name: status.tillName, listen: status.listen },
    refusals: status.refusals,
    peers: [...status.peers.map((peer) => {
      const till = peer.tillId === null ? undefined : tills.get(peer.tillId);
      // Heard in this run, or (after a restart, before it answers) when its last page was applied.
      const heardAt = peer.lastHeardAt ?? till?.heardAt ?? null;
      return {
        address: peer.address,
        source: peer.source,
        tillId: peer.tillId,
        name: peer.name,
        lastHeardAt: isoOrNull(heardAt),
        ordersNotInCloud: till?.ordersNotInCloud ?? 0,
        refusals: peer.refusals,
        logReplacements: peer.logReplacements,
        problem: peer.problem,
        ...adoption(peer.tillId),
      };
    }), ...unheard],
  };
}

/**
 * `link`: the session's store link, null while store mode is off or the till is not paired yet; `reports`:
 * this till's Z reports; `pairing`: codes shown here and joining with one, and whether this till waits
 * for a pairing; `quietBeforeAdoptionMs`: how long a till is silent before its orders may be adopted (tests shorten it).
 */
export function storeModeHandlers(
  link: () => StoreLink | null,
  deps: ForwardingDeps,
  reports: DayReports,
  pairing: { desk: PairingDesk; awaiting: () => boolean },
  quietBeforeAdoptionMs = QUIET_BEFORE_ADOPTION_MS,
): StoreModeHandlers {
  const { store, cashier, clock } = deps;
  const desk = new ForwardDesk(deps, link);
  const adoptions = new AdoptionDesk({ ...deps, quietBeforeAdoptionMs }, link);
  return {
    'storeMode.status': () => {
      const running = link();
      const view = running ? statusView(running, store, clock.now(), quietBeforeAdoptionMs) : { mode: pairing.awaiting() ? ('unpaired' as const) : ('off' as const), till: null, refusals: {}, peers: [] };
      return { ...view, pairing: pairing.desk.status() };
    },
    'storeMode.pairingCode': (_payload, c) => pairing.desk.openCode(c.act()),
    'storeMode.cancelPairing': (_payload, c) => {
      deps.staff.require(c.act(), 'store.pair');
      return pairing.desk.cancel();
    },
    'storeMode.join': ({ address, code }, c) => pairing.desk.join({ address, code }, c.act()),
    'storeMode.adoptTill': ({ tillId }, c) => {
      const adopted = adoptions.adopt(tillId, c.act());
      if (adopted.orders > 0) deps.onAdopted?.();
      return adopted;
    },
    'storeMode.orders': () => {
      if (!link()) return { orders: [], forwardsElsewhere: [] };
      const forwards = desk.forwards();
      const orders = store.replicas.openOrders().map((order) => orderView(order, forwards, cashier, store));
      const listed = new Set(orders.map((order) => order.id));
      return { orders, forwardsElsewhere: forwards.filter((forward) => !listed.has(forward.orderId)) };
    },
    'storeMode.forwards': () => ({ forwards: link() ? desk.forwards() : [] }),
    'storeMode.changeOrder': ({ orderId, change }, c) => desk.change({ orderId, change }, c.act()),
    'storeMode.takePayment': ({ orderId, method, amount, tip, tendered, splitPart }, c) => desk.takePayment({ orderId, method, amount, tip, tendered, splitPart }, c.act()),
    'storeMode.giveBack': ({ forwardId }, c) => desk.giveBack(forwardId, c.act()),
    'reports.storeZ': ({ day }, c) => {
      const timeZone = cashier.location()?.timezone ?? '';
      const businessDay = day ?? cashier.today();
      // reports.z's permission: this till's own report is asked for first.
      const report = reports.report(c.act(), businessDay);
      const running = link();
      const status = running?.status();
      const { from, to } = dayWindow(businessDay, timeZone);
      return buildStoreDay({
        day: businessDay,
        timeZone,
        now: clock.now(),
        currency: cashier.currency(),
        self: { tillId: status?.tillId ?? 'this-till', name: status?.tillName ?? report.till, report },
        others: running ? store.replicas.tills().map((till) => ({ tillId: till.origin, name: till.name, heardAt: till.heardAt })) : [],
        docs: running ? store.replicas.dayDocs(businessDay, from, to) : [],
        categoryOf: (menuItemId) => cashier.categoryOf(menuItemId)?.name ?? null,
      });
    },
  };
}
