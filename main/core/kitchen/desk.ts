// The kitchen display's use cases (docs/kitchen-display.md): the store's open orders as tickets, and
// bump and recall. Every order of the store is another till's (replicated over the LAN), except the
// online orders this display pulls from the cloud itself; the tills' own orders are read only from
// their logs, so an order the display also pulls from the cloud is never shown twice. A bump takes the
// ticket off the display at once (its own table) and, on the pass (a display of every station), marks
// the order fulfilled where it belongs: a fulfil change forwarded to its till (store mode's forwarding,
// applied there exactly once), or the cashier's fulfil for an order of its own, in the transaction that
// records the bump. A station's display bumps its part only: the other stations may still be cooking.
import type { KitchenBumped, KitchenSetup, KitchenTicket, KitchenTickets } from '../../../bridge/kitchen/contract';
import type { StoreModeForward } from '../../../bridge/store-mode/contract';
import type { Clock } from '../../../common/clock';
import type { BumpRow, OrderDoc, Store } from '../../../store/index';
import type { TerminalConfig } from '../../config/schema';
import { kitchenStations } from '../../config/schema';
import { CoreError } from '../errors';
import type { Act } from '../staff/desk';
import { allDayCounts, KitchenLine, kitchenLines, markedLines, TicketOrderDoc, type TicketLookups } from './tickets';

/** What a display forgets after a day (tickets seen, bumps of closed orders). */
const FORGET_AFTER_MS = 24 * 60 * 60_000;
/** Online orders the display reads of its own at most (the cloud's, pulled): as many as a list holds. */
const OWN_ORDERS_MAX = 500;
/** The cloud's channels of orders that come to the kitchen from outside the tills (api/enums.ts). */
const ONLINE_CHANNELS = new Set(['online', 'delivery']);
const SERVICES = new Set(['dine_in', 'takeout', 'delivery']);

export interface KitchenDeps {
  store: Store;
  clock: Clock;
  config: Pick<TerminalConfig, 'role' | 'kitchen' | 'printing'>;
  lookups: TicketLookups;
  /** The cashier's fulfil of an order this display owns. */
  fulfilOwn(orderId: string, act: Act): void;
  /** Store mode's forwarding: the change, durable in this display's log, for the order's till to apply once. */
  forward: {
    change(payload: { orderId: string; change: { kind: 'fulfil' } }, act: Act): StoreModeForward;
    forwards(): StoreModeForward[];
    /** A forward's state by its id; null: not one of this display's. */
    state(forwardId: string): StoreModeForward['state'] | null;
  };
}

/** An order a ticket may be made of: this display's own, or another till's as replicated here. */
interface TicketSource {
  id: string;
  doc: TicketOrderDoc;
  /** The till that owns it; null: this display's own. */
  tillName: string | null;
}

const iso = (ms: number): string => new Date(ms).toISOString();
const labelOf = (id: string, number: string | null): string => number ?? `#${id.slice(-4).toUpperCase()}`;

export class KitchenDesk {
  #forgottenAt = 0;

  constructor(private readonly deps: KitchenDeps) {
  }

  setup(): KitchenSetup {
    const { role, kitchen, printing } = this.deps.config;
    return { role, station: this.#station(undefined), stations: kitchenStations(printing), amberMinutes: kitchen.amberMinutes, redMinutes: kitchen.redMinutes };
  }

  tickets(payload: { station?: string | undefined }): KitchenTickets {
    const station = this.#station(payload.station);
    const now = this.deps.clock.now();
    const bumps = new Map(this.deps.store.kitchen.bumps().map((bump) => [bump.orderId, bump]));
    const open = this.#openOrders();
    const openIds = new Set(open.map((order) => order.id));
    // A recalled ticket shows again even when its till closed the order meanwhile.
    const recalledClosed = [...bumps.values()].filter((bump) => bump.recalledAt !== null && !openIds.has(bump.orderId)).flatMap((bump) => this.#order(bump.orderId) ?? []);
    const candidates = [...open, ...recalledClosed]
      .filter((order) => bumps.get(order.id)?.recalledAt !== null)
      .sort((a, b) => a.doc.created_at - b.doc.created_at || a.id.localeCompare(b.id));

    const current = candidates.map((order) => ({ order, lines: kitchenLines(order.doc, this.deps.lookups) })).filter(({ lines }) => lines.length > 0);
    const seen = this.deps.store.kitchen.seen(current.map(({ order }) => order.id));
    const firstTime = current.filter(({ order }) => !seen.has(order.id));
    if (firstTime.length > 0) this.deps.store.transaction(() => this.deps.store.kitchen.remember(firstTime.map(({ order, lines }) => ({ orderId: order.id, lines: JSON.stringify(lines) })), now));
    if (now - this.#forgottenAt > FORGET_AFTER_MS / 24) {
      this.#forgottenAt = now;
      this.deps.store.kitchen.forget(now - FORGET_AFTER_MS, openIds);
    }

    const tickets: KitchenTicket[] = [];
    for (const { order, lines } of current) {
      const before = seen.get(order.id);
      const firstShown = before ? { lines: KitchenLine.array().parse(JSON.parse(before.lines)), shownAt: before.shownAt } : { lines, shownAt: now };
      const shown = markedLines(firstShown, lines, order.doc, this.deps.lookups, this.deps.config.printing).filter((line) => station === null || line.station === station);
      if (shown.length === 0) continue;
      const service = order.doc.service?.type ?? null;
      tickets.push({
        orderId: order.id,
        label: labelOf(order.id, order.doc.number),
        service: service !== null && SERVICES.has(service) ? (service as KitchenTicket['service']) : null,
        table: order.doc.service?.table ?? null,
        customerName: order.doc.customer?.name || null,
        placedAt: iso(order.doc.created_at),
        tillName: order.tillName,
        recalled: bumps.get(order.id)?.recalledAt != null,
        lines: shown,
      });
    }
    const last = this.deps.store.kitchen.lastBumped();
    return { station, tickets, allDay: allDayCounts(tickets.flatMap((ticket) => ticket.lines)), lastBumped: last ? this.#bumpedView(last) : null, now: iso(now) };
  }

  /** Off the display, and fulfilled at the order's till; a ticket bumped already answers as it was. */
  bump(orderId: string, act: Act): KitchenBumped {
    const earlier = this.deps.store.kitchen.bump(orderId);
    if (earlier && earlier.recalledAt === null) return this.#bumpedView(earlier);
    const order = this.#order(orderId);
    if (!order) throw new CoreError('not_found', 'No till of this store has that order any more. The screen shows the tickets again.');
    const { store, clock } = this.deps;
    const row = store.transaction(() => {
      const label = labelOf(order.id, order.doc.number);
      const base = { orderId, label, bumpedAt: clock.now() };
      let bump: Omit<BumpRow, 'recalledAt'>;
      if (order.doc.status !== 'open') bump = { ...base, delivery: 'closed', forwardId: null };
      // A station makes its part of the order; the others may still be at theirs.
      else if (this.deps.config.kitchen.station !== '') bump = { ...base, delivery: 'station', forwardId: null };
      else if (order.tillName === null) {
        this.deps.fulfilOwn(orderId, act);
        bump = { ...base, delivery: 'here', forwardId: null };
      } else if (this.#moneyDue(orderId)) {
        // The food is out, the check is not closed: fulfilling it unpaid would be a walkout at its till.
        bump = { ...base, delivery: 'served', forwardId: null };
      } else {
        // A fulfil sent before (then recalled) and not answered yet is the one its till will apply.
        const waiting = this.deps.forward.forwards().find((f) => f.orderId === orderId && f.change.kind === 'fulfil' && f.state === 'pending');
        const forwardId = waiting?.id ?? this.deps.forward.change({ orderId, change: { kind: 'fulfil' } }, act).id;
        bump = { ...base, delivery: 'forwarded', forwardId };
      }
      this.deps.store.kitchen.recordBump(bump);
      return { ...bump, recalledAt: null };
    });
    return this.#bumpedView(row);
  }

  /** Back on the display, marked recalled; a ticket recalled already answers as it is. */
  recall(orderId: string): { orderId: string; label: string; recalled: true } {
    const bump = this.deps.store.kitchen.bump(orderId);
    if (!bump) throw new CoreError('not_found', 'That ticket was not bumped on this display, so there is nothing to recall.', [{ path: 'orderId', message: 'Not bumped here.' }]);
    if (bump.recalledAt === null) this.deps.store.kitchen.recall(orderId, this.deps.clock.now());
    return { orderId, label: bump.label, recalled: true };
  }

  /** The station asked for (else the configured one) as the routing names it; null: every station. */
  #station(asked: string | undefined): string | null {
    const wanted = asked ?? this.deps.config.kitchen.station;
    if (wanted === '') return null;
    const station = kitchenStations(this.deps.config.printing).find((name) => name.toLowerCase() === wanted.toLowerCase());
    if (station === undefined) {
      const message = `"${wanted}" is not a station of the print routing.`;
      throw new CoreError('invalid_command', message, [{ path: 'station', message }]);
    }
    return station;
  }

  /** Every open order of the store that may come to the kitchen: the other tills', and this display's online ones. */
  #openOrders(): TicketSource[] {
    const { store } = this.deps;
    const others = store.replicas.openOrders().map((listed): TicketSource => {
      const doc: TicketOrderDoc = {
        status: 'open',
        number: listed.number,
        created_at: listed.createdAt,
        customer: listed.customerName === null ? null : { name: listed.customerName },
        service: { type: listed.serviceType, table: listed.table },
        lines: listed.lines,
        courses: null,
      };
      // The listing has no courses: only an order served in courses is read whole (one more query).
      if (listed.lines.some((line) => line.course !== null)) doc.courses = this.#order(listed.id)?.doc.courses ?? null;
      return { id: listed.id, doc, tillName: listed.ownerName ?? 'another till' };
    });
    const own = store.cashier
      .listOrders({ status: 'open', limit: OWN_ORDERS_MAX })
      .filter((doc) => doc.channel !== null && ONLINE_CHANNELS.has(doc.channel))
      .map((doc) => ownSource(doc));
    return [...others, ...own];
  }

  /** Another till's open order of which its replica shows money still to take (a dine-in check not paid yet). */
  #moneyDue(orderId: string): boolean {
    const listed = this.deps.store.replicas.openOrders().find((order) => order.id === orderId);
    return listed !== undefined && listed.paid < listed.total;
  }

  /** One order of the store, whatever its state; null when no till here knows it. */
  #order(orderId: string): TicketSource | null {
    const own = this.deps.store.cashier.getOrder(orderId);
    if (own) return ownSource(own);
    const replica = this.deps.store.replicas.order(orderId);
    const doc = replica && TicketOrderDoc.safeParse(replica.doc);
    return replica && doc?.success ? { id: orderId, doc: doc.data, tillName: replica.ownerName ?? 'another till' } : null;
  }

  #bumpedView(bump: BumpRow): KitchenBumped {
    return { orderId: bump.orderId, label: bump.label, bumpedAt: iso(bump.bumpedAt), sentence: this.#deliverySentence(bump) };
  }

  /** What became of a bump at the order's till, in words. */
  #deliverySentence(bump: BumpRow): string {
    if (bump.delivery === 'here') return 'Marked fulfilled on this display.';
    if (bump.delivery === 'closed') return 'Already closed at its till: nothing was sent.';
    if (bump.delivery === 'station') return 'Done at this station; the pass marks the order fulfilled.';
    if (bump.delivery === 'served') return 'Served: the check stays open at its till until it is paid.';
    const state = bump.forwardId === null ? null : this.deps.forward.state(bump.forwardId);
    if (state === 'applied') return 'Marked fulfilled at its till.';
    // Waiting, or refused lately, the forward says it with its till's name and reason.
    const listed = this.deps.forward.forwards().find((f) => f.id === bump.forwardId);
    return listed?.sentence ?? (state === 'refused' ? 'Its till refused it: see the order there.' : 'Sent to its till, waiting for it.');
  }
}

function ownSource(doc: OrderDoc): TicketSource {
  return { id: doc.id, doc: TicketOrderDoc.parse(doc), tillName: null };
}
