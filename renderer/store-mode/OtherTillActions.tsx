// What a cashier can do here to an order another till owns (docs/store-mode.md, "Built (layer 3)"):
// change its quantities, discount it, take payment on it and split its bill (PayOtherOrder.tsx), cancel it
// with a reason, mark it fulfilled. Each is checked here with this
// till's permissions and PIN approvals, kept in this till's log, and sent to the owner, which applies
// it once; until then the row says so ("Sent to Bar, waiting for it."), and a refusal in words.
// Adding items from the menu: AddItemsDialog.tsx ("Add items" on the row, or from the details).
// On the row: Take payment and Add items; Details, Discount, Mark fulfilled and Cancel order under "More…".
import { useState } from 'react';
import type { Discount, MenuSnapshot } from '../../bridge/contract';
import type { ForwardedChange, StoreModeForward, StoreModeOrder } from '../../bridge/store-mode/contract';
import { ApprovedActionDialog } from '../components/ApprovedActionDialog';
import { useApprovalPin } from '../components/ApprovalPin';
import { Dialog, ErrorNote } from '../components/Dialog';
import { DiscountDialog } from '../components/DiscountDialog';
import { MenuButton } from '../components/ActionMenu';
import { useReasonField } from '../components/ReasonField';
import { describeDiscount } from '../lib/discounts';
import { money } from '../lib/format';
import { describeError, useBridge, useMenu } from '../lib/hooks';
import { useApproval } from '../lib/session';
import { AddItemsDialog, linesSignature, type DetailsQuantities } from './AddItemsDialog';
import { dueHere, HandBackButton, PayOtherOrderDialog } from './PayOtherOrder';
import { tillName } from './till-words';

/** The order's own till, as the row names it. */
const ownerOf = (order: StoreModeOrder) => tillName(order.ownerTillName, order.ownerTillId);

/**
 * "Items: 2 × Fries, 1 × Latte", "Cancel: guest left", "Mark fulfilled" (items named from the order's
 * lines when it is listed, else from this till's menu: an item added here is not on the order yet).
 */
function changeWords(change: ForwardedChange, order: StoreModeOrder | null, menu: MenuSnapshot | null): string {
  if (change.kind === 'payment') {
    const currency = order?.total.currency ?? menu?.currency ?? 'usd';
    const tip = change.tip > 0 ? ` + ${money(change.tip, currency)} tip` : '';
    return `${change.method === 'cash' ? 'Cash' : 'Card'} payment${change.splitPart ? ` (${change.splitPart})` : ''}: ${money(change.amount, currency)}${tip}`;
  }
  if (change.kind === 'split') {
    if (change.split === null) return 'Whole bill (no split)';
    return change.split.kind === 'even' ? `Split evenly ${change.split.parts} ways` : `Split by items onto ${Math.max(...change.split.assignment)} checks`;
  }
  if (change.kind === 'cancel') return `Cancel: ${change.reason}`;
  if (change.kind === 'fulfil') return 'Mark fulfilled';
  if (change.kind === 'discount') return change.discount ? `Discount: ${describeDiscount(change.discount, order?.total.currency ?? menu?.currency ?? 'usd')}` : 'Remove the discount';
  const names = new Map([...(menu?.items.map((item) => [item.id, item.name] as const) ?? []), ...(order?.lines.map((line) => [line.menuItemId, line.name] as const) ?? [])]);
  return `Items: ${change.lines.map((line) => `${line.quantity} × ${names.get(line.menuItemId) ?? 'an item'}`).join(', ')}`;
}

function ForwardList({ forwards, order, label, onChanged }: { forwards: readonly StoreModeForward[]; order: StoreModeOrder | null; label: string; onChanged: () => void }) {
  return forwards.length === 0 ? null : <ForwardItems forwards={forwards} order={order} label={label} onChanged={onChanged} />;
}

/** Asks for the menu (to name added items) only where there are changes to list. */
function ForwardItems({ forwards, order, label, onChanged }: { forwards: readonly StoreModeForward[]; order: StoreModeOrder | null; label: string; onChanged: () => void }) {
  const { menu } = useMenu();
  return (
    <ul className="other-till-forwards" aria-label={label}>
      {forwards.map((forward) => (
        <li key={forward.id} className={forward.state === 'refused' ? 'error-note' : 'muted'} data-forward-state={forward.state}>
          <span className={`badge ${forward.state === 'refused' ? 'badge-open' : 'sync-pending'}`}>{forward.state === 'refused' ? 'Refused' : 'Pending'}</span>{' '}
          {changeWords(forward.change, order, menu)} — {forward.sentence}
          <HandBackButton forward={forward} onDone={onChanged} />
        </li>
      ))}
    </ul>
  );
}

/** This till's changes to the order its owner has not applied yet, or refused: on the order's row. */
export function ForwardNotes({ order, onChanged }: { order: StoreModeOrder; onChanged: () => void }) {
  return <ForwardList forwards={order.forwards} order={order} label="Changes sent from this till" onChanged={onChanged} />;
}

/** This till's changes waiting or refused whose order is no longer listed (closed meanwhile): under the list. */
export function ForwardsElsewhere({ forwards, onChanged }: { forwards: readonly StoreModeForward[]; onChanged: () => void }) {
  if (forwards.length === 0) return null;
  return (
    <div data-testid="forwards-elsewhere">
      <h3>Changes sent for orders no longer open</h3>
      <ForwardList forwards={forwards} order={null} label="Changes sent for orders no longer open" onChanged={onChanged} />
    </div>
  );
}

/** The add-items dialog carries the details dialog's quantities (and the lines they were made on) when it is opened from there. */
type Open = 'details' | { add: DetailsQuantities | undefined } | 'cancel' | 'discount' | 'pay' | null;

/** The row's actions, and their dialogs; `onSent` once a change is kept here (the list asks again). */
export function OtherTillActions({ order, onSent }: { order: StoreModeOrder; onSent: () => void }) {
  const client = useBridge();
  const { menu } = useMenu();
  const [open, setOpen] = useState<Open>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const markFulfilled = async () => {
    setBusy(true);
    setError(null);
    try {
      await client.call('storeMode.changeOrder', { orderId: order.id, change: { kind: 'fulfil' } });
      onSent();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };
  const sent = () => {
    setOpen(null);
    onSent();
  };
  return (
    <div className="other-till-actions">
      <button type="button" className="secondary" disabled={dueHere(order) === 0} onClick={() => setOpen('pay')}>
        Take payment
      </button>
      <button type="button" className="secondary" onClick={() => setOpen({ add: undefined })}>
        Add items
      </button>
      {/* The rarer actions in a menu: six buttons would wrap and make the row tall at 1024 px. */}
      <MenuButton
        label="More…"
        accessibleLabel={`More actions for ${order.label}`}
        actions={[
          { label: 'Details', onSelect: () => setOpen('details') },
          { label: 'Discount', onSelect: () => setOpen('discount') },
          { label: 'Mark fulfilled', disabled: busy, onSelect: () => void markFulfilled() },
          { label: 'Cancel order', onSelect: () => setOpen('cancel') },
        ]}
      />
      <ErrorNote message={error} />
      {open === 'details' ? <OtherOrderDetails order={order} onClose={() => setOpen(null)} onSent={sent} onAddItems={(quantities) => setOpen({ add: quantities })} /> : null}
      {open !== null && typeof open === 'object' ? <AddItemsDialog order={order} quantities={open.add} onClose={() => setOpen(null)} onSent={sent} /> : null}
      {open === 'cancel' ? <CancelOtherOrder order={order} onClose={() => setOpen(null)} onSent={sent} /> : null}
      {open === 'pay' && menu ? <PayOtherOrderDialog order={order} checkout={menu.checkout} onClose={() => setOpen(null)} onSent={onSent} /> : null}
      {open === 'discount' ? <DiscountOtherOrder order={order} onClose={() => setOpen(null)} onSent={sent} onRefused={setError} /> : null}
    </div>
  );
}

/**
 * The order's own discount, as on this till's own orders (the register's dialog, its quick reasons and
 * approval limits): sent to the owner, which applies it once. A refusal is said on the row.
 */
function DiscountOtherOrder({ order, onClose, onSent, onRefused }: { order: StoreModeOrder; onClose: () => void; onSent: () => void; onRefused: (message: string) => void }) {
  const client = useBridge();
  const { menu } = useMenu();
  const approval = useApproval('discount.above_limit');
  if (!menu) return null;
  const send = async (discount: Discount | null, managerPin: string) => {
    onClose();
    try {
      await client.call('storeMode.changeOrder', { orderId: order.id, change: { kind: 'discount', discount }, ...(managerPin === '' ? {} : { managerPin }) });
      onSent();
    } catch (caught) {
      onRefused(describeError(caught));
    }
  };
  return (
    <DiscountDialog
      title={`Discount ${order.label} at ${ownerOf(order)}`}
      base={order.discountBase.amount}
      currency={order.discountBase.currency}
      current={order.discount}
      approval={menu.checkout.discountApproval}
      pinNeeded={approval.needed}
      managerPin=""
      onApply={(discount, managerPin) => void send(discount, managerPin)}
      onRemove={() => void send(null, '')}
      onClose={onClose}
    />
  );
}

function CancelOtherOrder({ order, onClose, onSent }: { order: StoreModeOrder; onClose: () => void; onSent: () => void }) {
  const client = useBridge();
  const reason = useReasonField('Why is it cancelled?', 'Say why the order is cancelled (for example: the guests left before ordering).');
  return (
    <ApprovedActionDialog
      title={`Cancel ${order.label}?`}
      message={`${order.label} belongs to ${ownerOf(order)}. The cancel is sent there and done once ${ownerOf(order)} has it; until then it shows here as waiting.`}
      permission="order.void"
      ready={reason.ready}
      perform={(approval) => client.call('storeMode.changeOrder', { orderId: order.id, change: { kind: 'cancel', reason: reason.reason }, ...approval })}
      keepLabel="Keep it"
      confirmLabel="Cancel order"
      onClose={onClose}
      onDone={onSent}
    >
      {reason.field}
    </ApprovedActionDialog>
  );
}

/** The order's lines with their quantities to change; fewer units is a void, which may need a manager's PIN. */
function OtherOrderDetails({ order, onClose, onSent, onAddItems }: { order: StoreModeOrder; onClose: () => void; onSent: () => void; onAddItems: (from: DetailsQuantities | undefined) => void }) {
  const client = useBridge();
  // The row's order follows this till's replica while the dialog is open: when the owner's lines change,
  // the quantities start again from them (said so when some had been changed here).
  const signature = linesSignature(order);
  const fresh = () => order.lines.map((line) => line.quantity);
  const [edit, setEdit] = useState(() => ({ signature, base: fresh(), quantities: fresh(), changedMeanwhile: false }));
  if (edit.signature !== signature) {
    const edited = edit.quantities.some((quantity, i) => quantity !== edit.base[i]);
    setEdit({ signature, base: fresh(), quantities: fresh(), changedMeanwhile: edit.changedMeanwhile || edited });
  }
  const quantities = edit.signature === signature ? edit.quantities : fresh();
  const setQuantities = (update: (now: number[]) => number[]) => setEdit((now) => ({ ...now, quantities: update(now.quantities) }));
  const takesOff = quantities.some((quantity, i) => quantity < order.lines[i]!.quantity);
  const approval = useApprovalPin('order.void', useApproval('order.void').needed && takesOff);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const changed = quantities.some((quantity, i) => quantity !== order.lines[i]!.quantity);
  const left = quantities.some((quantity) => quantity > 0);
  const step = (index: number, by: number) => setQuantities((now) => now.map((quantity, i) => (i === index ? Math.max(0, Math.min(999, quantity + by)) : quantity)));
  const send = async () => {
    setBusy(true);
    setError(null);
    approval.clearRefusal();
    const lines = order.lines
      .map((line, i) => ({ menuItemId: line.menuItemId, quantity: quantities[i]!, modifierIds: line.modifierIds, note: line.note, discount: line.discount }))
      .filter((line) => line.quantity > 0);
    try {
      await client.call('storeMode.changeOrder', { orderId: order.id, change: { kind: 'lines', lines }, ...approval.payload });
      onSent();
    } catch (caught) {
      if (!approval.refused(caught)) setError(describeError(caught));
      setBusy(false);
    }
  };
  return (
    <Dialog title={`${order.label} at ${ownerOf(order)}`} onClose={onClose}>
      <p className="dialog-message">Changes are sent to {ownerOf(order)} and made there once it has them.</p>
      <ul className="ticket-lines" aria-label="Items">
        {order.lines.map((line, i) => (
          <li key={`${line.menuItemId}-${i}`} className="ticket-line">
            <span className="ticket-name">
              {line.name}
              {line.modifierNames.length > 0 ? <span className="muted"> · {line.modifierNames.join(', ')}</span> : null}
            </span>
            <div className="qty">
              <button type="button" className="qty-btn" aria-label={`One less ${line.name}`} onClick={() => step(i, -1)}>
                −
              </button>
              <span className="qty-value" aria-label={`${line.name} quantity`}>
                {quantities[i]}
              </span>
              <button type="button" className="qty-btn" aria-label={`One more ${line.name}`} onClick={() => step(i, 1)}>
                +
              </button>
            </div>
          </li>
        ))}
      </ul>
      {edit.changedMeanwhile ? <p className="error-note">The order changed at {ownerOf(order)} meanwhile: its items are shown as they are now. Change them again.</p> : null}
      {left ? null : <p className="error-note">An order keeps at least one item: cancel it instead.</p>}
      {approval.field}
      <ErrorNote message={error} />
      <div className="dialog-actions">
        <button type="button" className="secondary big" onClick={onClose} data-autofocus>
          Close
        </button>
        <button type="button" className="secondary big" disabled={busy || !left} onClick={() => onAddItems(changed ? { signature, quantities } : undefined)}>
          Add items…
        </button>
        <button type="button" className="big" disabled={busy || !changed || !left || approval.missing} onClick={() => void send()}>
          Send to {ownerOf(order)}
        </button>
      </div>
    </Dialog>
  );
}
