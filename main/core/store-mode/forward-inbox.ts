// The owner's side of forwarding (docs/store-mode.md, "Built (layer 3)"): the forwards other tills
// addressed to this one wait in the store's inbox (recorded with the replica page that brought
// them); each is applied here through the cashier's own use case, as the person who made it on the
// other till, in ONE transaction with its inbox row leaving 'waiting' and the answer appended to
// this till's log. So a forward is applied once whether its page comes twice, this till restarts
// between, or a drain runs again: the inbox row is answered, or the change never happened.
import { ZodError } from 'zod';
import { ForwardedChange, type ForwardLine } from '../../../bridge/store-mode/contract';
import type { Clock } from '../../../common/clock';
import type { Logger } from '../../../common/log';
import { StoreError, type OrderLineDoc, type OrderLineInput, type StaffDoc, type Store } from '../../../store/index';
import { lineRefs, mergeLines, sameLines } from '../../../store/order-lines';
import type { ForwardBody, ForwardPerson, WaitingForward } from '../../../store/store-forwards';
import type { Cashier } from '../cashier';
import { CoreError } from '../errors';
import type { Act } from '../staff/desk';

/** Forwards answered per turn of the event loop: a till catching up on many leaves the register room between. */
const PER_TURN = 20;

export interface ForwardInboxDeps {
  store: Store;
  cashier: Cashier;
  clock: Clock;
  logger: Logger;
}

type Outcome = { outcome: 'applied'; reason: null; seq: number } | { outcome: 'refused'; reason: string; seq: null };

/**
 * The person who made the change on the other till, as the cashier's permission check sees them:
 * the other till checked their permissions and approvals with the same table (the store is one
 * trust domain, its tills authenticated by mutual TLS), so this one trusts the role it was told.
 */
function staffOf(who: ForwardPerson, tillName: string): StaffDoc {
  return { id: who.id, name: `${who.name} (on ${tillName})`, role: who.role, pin_hash: '', active: true, provisioned: false, created_at: 0, updated_at: 0 };
}

function actOf(body: ForwardBody): Act {
  const by = staffOf(body.by, body.from.name);
  // Attempt 0 names no PIN check of this till: nothing here was typed, so nothing is settled.
  return { by, approver: body.approvedBy ? { kind: 'staff', staff: staffOf(body.approvedBy, body.from.name), attempt: 0 } : { kind: 'none' } };
}

/** A line as mergeLines weighs it (item, modifiers, quantity), carrying the change's own line. */
type MergeLine = OrderLineInput & { from: ForwardLine };

function mergeLine(line: ForwardLine): MergeLine {
  return { menu_item_id: line.menuItemId, name: '', quantity: line.quantity, unit_price: 0, modifiers: line.modifierIds.map((id) => ({ modifier_id: id, name: '', price: 0 })), from: line };
}

function ownLine(line: OrderLineDoc): MergeLine {
  const from: ForwardLine = { menuItemId: line.menu_item_id, quantity: line.quantity, modifierIds: line.modifiers.map((m) => m.modifier_id), note: line.note, discount: line.discount };
  return { ...mergeLine(from), name: line.name };
}

export class ForwardInbox {
  #scheduled = false;
  #stopped = false;

  constructor(private readonly deps: ForwardInboxDeps) {}

  /** Applies the waiting forwards soon (after the page that brought them has committed). */
  schedule(): void {
    if (this.#scheduled || this.#stopped) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      if (this.#stopped) return;
      try {
        if (this.drain() === PER_TURN) this.schedule();
      } catch (error) {
        // The inbox could not be read (the disk): what waits is tried again with the next page or start.
        this.deps.logger.error({ err: error }, 'the forwarded changes could not be read');
      }
    });
  }

  /** No drain after this: the store is about to close. What waits is applied at the next start. */
  stop(): void {
    this.#stopped = true;
  }

  /** Answers up to PER_TURN waiting forwards, oldest first; returns how many it looked at. */
  drain(): number {
    const waiting = this.deps.store.log.forwards.waiting(PER_TURN);
    for (const forward of waiting) {
      try {
        this.#answer(forward);
      } catch (error) {
        // Not the order's state (the disk, a bug): it stays waiting for the next drain, and blocks no other.
        this.deps.logger.error({ err: error, forward: forward.opId }, 'a forwarded change could not be applied');
      }
    }
    return waiting.length;
  }

  #answer(forward: WaitingForward): void {
    const { store, clock, logger } = this.deps;
    const { body } = forward;
    store.transaction(() => {
      let outcome: Outcome;
      try {
        // Its own savepoint: a refusal halfway leaves nothing of the attempt.
        store.transaction(() => this.#apply(body));
        outcome = { outcome: 'applied', reason: null, seq: store.log.maxSeq() };
      } catch (error) {
        const reason = refusalReason(error);
        if (reason === null) throw error;
        outcome = { outcome: 'refused', reason, seq: null };
      }
      const detail = { forward: forward.opId, from: body.from, change: body.change.kind, ...(outcome.reason ? { reason: outcome.reason } : {}), ...(body.approvedBy ? { approvedBy: body.approvedBy.id } : {}) };
      store.cashier.recordAudit(body.by.id, `store.forward.${outcome.outcome}`, detail, { kind: 'order', id: body.order });
      store.log.forwards.answer(forward, outcome, clock.now());
      logger.info({ event: 'store-mode.forward', forward: forward.opId, order: body.order, from: body.from.name, outcome: outcome.outcome }, 'forwarded change answered');
    });
  }

  /** The change through the cashier's use case, as its own cashier's would go; throws when refused. */
  #apply(body: ForwardBody): void {
    const { store, cashier } = this.deps;
    const order = store.cashier.getOrder(body.order);
    if (!order) throw new CoreError('not_found', 'this till no longer has that order.');
    if (order.status !== 'open') {
      const view = cashier.getOrder({ id: order.id });
      const paid = order.status === 'fulfilled' && view.total > 0 && view.paidAmount >= view.total;
      throw new CoreError('conflict', `the order was ${paid ? 'paid' : order.status} meanwhile.`);
    }
    const change = ForwardedChange.parse(body.change);
    const act = actOf(body);
    if (change.kind === 'payment') {
      const { paymentId, method, amount, tip, splitPart } = change;
      cashier.recordPaymentTakenElsewhere({ orderId: order.id, paymentId, method, amount, tip, splitPart }, act);
    } else if (change.kind === 'cancel') cashier.cancelOrder({ id: order.id, reason: change.reason }, act);
    else if (change.kind === 'fulfil') cashier.fulfilOrder({ id: order.id }, act);
    else if (change.kind === 'discount') cashier.updateOrder({ id: order.id, discount: change.discount }, act);
    else if (change.kind === 'split') cashier.updateOrder({ id: order.id, split: change.split }, act);
    else cashier.updateOrder({ id: order.id, lines: mergedLines(change.lines, body.basedOn.lines, order.lines) }, act);
  }
}

/**
 * The lines to write: the change's own when the order's lines are still those it was made on; else
 * the line-level three-way merge (store/order-lines.ts), and a true conflict is refused in words.
 */
function mergedLines(lines: readonly ForwardLine[], basedOn: ForwardBody['basedOn']['lines'], current: readonly OrderLineDoc[]): ForwardLine[] {
  if (sameLines(basedOn, lineRefs(current))) return [...lines];
  // The change names no item: a conflict names it as this till's line does ("Fries was changed…").
  const names = new Map(current.map((line) => [line.menu_item_id, line.name]));
  const { lines: merged, conflicts } = mergeLines(basedOn, lines.map((line) => ({ ...mergeLine(line), name: names.get(line.menuItemId) ?? '' })), current.map(ownLine));
  if (conflicts.length > 0) {
    const [first] = conflicts;
    throw new CoreError('conflict', `${first!.name || 'an item'} was changed here meanwhile (now ${first!.theirs}, it was ${first!.ancestor}): look at the order again and change it once more.`);
  }
  return merged.map((line) => ({ ...line.from, quantity: line.quantity }));
}

/** Why the owner refused, in words; null when the failure is not about the order (the disk, a bug). */
function refusalReason(error: unknown): string | null {
  if (error instanceof CoreError) return error.message;
  if (error instanceof StoreError && (error.code === 'not_found' || error.code === 'conflict')) return 'the order is no longer open here.';
  if (error instanceof ZodError) return 'this till cannot read the change (the other till may run a newer version).';
  return null;
}
