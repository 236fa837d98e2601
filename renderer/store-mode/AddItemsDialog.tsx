// "Add items" to an order another till owns (docs/store-mode.md, "Built (layer 3)"): the round a server
// adds to the tab the bar opened. The menu is picked with the register's own picker (MenuPicker: search,
// Enter, categories and tiles) and ModifierDialog for required choices, extras and the kitchen note; the new lines
// get their quantities here, and "Send to Bar" sends storeMode.changeOrder with the order's lines
// followed by the new ones: kept in this till's log, made on Bar once it has them. A refusal (a
// manager's approval for someone else's order, the item not on this till's menu, …) is said in the
// dialog, and nothing is sent.
import { useRef, useState } from 'react';
import type { MenuItem } from '../../bridge/contract';
import type { ForwardLine, StoreModeOrder } from '../../bridge/store-mode/contract';
import { useApprovalPin } from '../components/ApprovalPin';
import { Dialog, ErrorNote } from '../components/Dialog';
import { MenuPicker } from '../components/MenuPicker';
import { ModifierDialog } from '../components/ModifierDialog';
import { BridgeCallError } from '../lib/bridge-client';
import { money } from '../lib/format';
import { describeError, useBridge, useMenu } from '../lib/hooks';
import { needsChooser } from '../lib/modifiers';
import { useApproval } from '../lib/session';
import type { LineChoice } from '../lib/ticket';
import { tillName } from './till-words';

/** The bridge takes at most this many lines in a change (ForwardChange). */
const MAX_LINES = 100;

/** A line to add: an item with its choices, note and quantity. */
interface NewLine extends LineChoice {
  key: string;
  item: MenuItem;
  quantity: number;
}

/** What the register's modifier dialog is open for: a new line of `item`, or the new line `key` being changed. */
type Chooser = { item: MenuItem; key: string | null };

/** The details dialog's quantities, and the order's lines they were made on (linesSignature). */
export interface DetailsQuantities {
  signature: string;
  quantities: readonly number[];
}

/** The order's lines as this till holds them, in one string ("item:quantity:modifiers:note|…"): what quantities made on them fit. */
export function linesSignature(order: StoreModeOrder): string {
  return order.lines.map((line) => `${line.menuItemId}:${line.quantity}:${line.modifierIds.join(',')}:${line.note}`).join('|');
}

const ownerOf = (order: StoreModeOrder) => tillName(order.ownerTillName, order.ownerTillId);

/** "Large, Oat milk" from the item's own modifiers. */
function choiceNames(item: MenuItem, modifierIds: readonly string[]): string {
  const names = new Map(item.modifiers.map((modifier) => [modifier.id, modifier.name]));
  return modifierIds.map((id) => names.get(id) ?? '').filter(Boolean).join(', ');
}

/** The same line again (same item, choices and note): one more of it rather than a second line. */
function sameLine(line: NewLine, item: MenuItem, choice: LineChoice): boolean {
  return line.item.id === item.id && line.note === choice.note && line.modifierIds.join(',') === choice.modifierIds.join(',');
}

/**
 * The dialog. `quantities`: the order's lines as they should stay (the details dialog's quantities,
 * when it was opened from there; else the order's own); fewer units than the order has is a void.
 */
export function AddItemsDialog({ order, quantities, onClose, onSent }: { order: StoreModeOrder; quantities?: DetailsQuantities; onClose: () => void; onSent: () => void }) {
  const { menu, error: menuError } = useMenu();
  const [lines, setLines] = useState<NewLine[]>([]);
  const [chooser, setChooser] = useState<Chooser | null>(null);
  // Kept here: the picker is unmounted while the chooser is open, and what was searched stays.
  const [query, setQuery] = useState('');
  const [categoryId, setCategoryId] = useState<string | null>(null);
  // Someone else's order needs a manager's approval (order.adopt) for a cashier: the core says so, and the PIN is asked from then on.
  const [adoptAsked, setAdoptAsked] = useState(false);
  const nextKey = useRef(0);
  // The row's order follows this till's replica while the dialog is open: the details' quantities, made
  // on the lines as they were, no longer fit once the owner's lines changed, and are left out (said so).
  const detailsLeftOut = quantities !== undefined && quantities.signature !== linesSignature(order);
  const fromDetails = detailsLeftOut ? undefined : quantities?.quantities;

  const add = (item: MenuItem, choice: LineChoice) =>
    setLines((now) => {
      const same = now.find((line) => sameLine(line, item, choice));
      if (same) return now.map((line) => (line === same ? { ...line, quantity: Math.min(999, line.quantity + 1) } : line));
      nextKey.current += 1;
      return [...now, { key: `new-${nextKey.current}`, item, quantity: 1, ...choice }];
    });
  const pick = (item: MenuItem) => {
    if (needsChooser(item)) setChooser({ item, key: null });
    else add(item, { modifierIds: [], note: '' });
  };
  const chosen = (choice: LineChoice) => {
    if (!chooser) return;
    const { item, key } = chooser;
    if (key === null) add(item, choice);
    else setLines((now) => now.map((line) => (line.key === key ? { ...line, ...choice } : line)));
    setChooser(null);
  };

  // The register's chooser takes the screen while it is open (one modal at a time); what was picked stays.
  if (chooser && menu) {
    const editing = chooser.key === null ? null : (lines.find((line) => line.key === chooser.key) ?? null);
    return <ModifierDialog item={chooser.item} currency={menu.currency} initial={editing ?? { modifierIds: [], note: '' }} editing={editing !== null} onDone={chosen} onClose={() => setChooser(null)} />;
  }
  return (
    <Dialog title={`Add items to ${order.label} at ${ownerOf(order)}`} onClose={onClose} wide>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 16, alignItems: 'flex-start' }}>
        <section aria-label="Menu" className="add-items-menu" style={{ flex: '1 1 340px', minWidth: 0 }}>
          {menu ? (
            <MenuPicker menu={menu} query={query} onQueryChange={setQuery} categoryId={categoryId} onCategoryChange={setCategoryId} label="Search the menu" placeholder="Search the menu…" autoFocus onPick={pick} />
          ) : menuError ? (
            <ErrorNote message={menuError} />
          ) : (
            <p className="muted">Loading the menu…</p>
          )}
        </section>
        <NewLines
          order={order}
          quantities={fromDetails ?? order.lines.map((line) => line.quantity)}
          detailsLeftOut={detailsLeftOut}
          lines={lines}
          currency={menu?.currency ?? null}
          setLines={setLines}
          adoptAsked={adoptAsked}
          onAdoptAsked={() => setAdoptAsked(true)}
          onChoose={(line) => setChooser({ item: line.item, key: line.key })}
          onClose={onClose}
          onSent={onSent}
        />
      </div>
    </Dialog>
  );
}

/** The lines to add with their quantities, choices and notes; what is sent, and what stopped it. */
function NewLines({
  order,
  quantities,
  lines,
  currency,
  detailsLeftOut,
  setLines,
  adoptAsked,
  onAdoptAsked,
  onChoose,
  onClose,
  onSent,
}: {
  order: StoreModeOrder;
  quantities: readonly number[];
  lines: NewLine[];
  currency: string | null;
  detailsLeftOut: boolean;
  setLines: (update: (now: NewLine[]) => NewLine[]) => void;
  adoptAsked: boolean;
  onAdoptAsked: () => void;
  onChoose: (line: NewLine) => void;
  onClose: () => void;
  onSent: () => void;
}) {
  const client = useBridge();
  const takesOff = quantities.some((quantity, i) => quantity < order.lines[i]!.quantity);
  const voidNeeded = useApproval('order.void').needed && takesOff;
  const approval = useApprovalPin(voidNeeded ? 'order.void' : 'order.adopt', voidNeeded || adoptAsked);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const kept: ForwardLine[] = order.lines
    .map((line, i) => ({ menuItemId: line.menuItemId, quantity: quantities[i]!, modifierIds: line.modifierIds, note: line.note, discount: line.discount }))
    .filter((line) => line.quantity > 0);
  const added: ForwardLine[] = lines.map((line) => ({ menuItemId: line.item.id, quantity: line.quantity, modifierIds: line.modifierIds, note: line.note, discount: null }));
  const tooMany = kept.length + added.length > MAX_LINES;

  const step = (key: string, by: number) =>
    setLines((now) => now.flatMap((line) => (line.key !== key ? [line] : line.quantity + by <= 0 ? [] : [{ ...line, quantity: Math.min(999, line.quantity + by) }])));
  const send = async () => {
    setBusy(true);
    setError(null);
    approval.clearRefusal();
    try {
      await client.call('storeMode.changeOrder', { orderId: order.id, change: { kind: 'lines', lines: [...kept, ...added] }, ...approval.payload });
      onSent();
    } catch (caught) {
      if (!approval.refused(caught)) {
        if (caught instanceof BridgeCallError && caught.code === 'needs_manager' && !adoptAsked) onAdoptAsked();
        setError(describeError(caught));
      }
      setBusy(false);
    }
  };

  return (
    <section aria-label="To add" style={{ flex: '1 1 300px', minWidth: 0, display: 'flex', flexDirection: 'column', gap: 8 }}>
      <h3 style={{ margin: 0 }}>To add</h3>
      {lines.length === 0 ? (
        <p className="muted" style={{ margin: 0 }}>
          Tap an item to add it. Items with choices ask for them; a note for the kitchen goes with each line.
        </p>
      ) : (
        <ul className="ticket-lines" aria-label="Items to add" style={{ flex: '0 1 auto', maxHeight: 'min(30vh, 240px)' }}>
          {lines.map((line) => {
            const choices = choiceNames(line.item, line.modifierIds);
            return (
              <li key={line.key} className="ticket-line" data-new-line={line.item.id}>
                <span className="line-main">
                  <span className="line-name">{line.item.name}</span>
                  {choices ? <span className="line-mods">{choices}</span> : null}
                  {line.note ? <span className="line-mods">Note: {line.note}</span> : null}
                  <button type="button" className="secondary" style={{ minHeight: 40, marginTop: 4, padding: '2px 10px', fontSize: '0.85rem' }} onClick={() => onChoose(line)} aria-label={`${line.item.modifiers.length > 0 ? 'Choices' : 'Note'} for ${line.item.name}`}>
                    {line.item.modifiers.length > 0 ? 'Choices' : 'Note'}
                  </button>
                </span>
                <div className="qty">
                  <button type="button" className="qty-btn" aria-label={line.quantity === 1 ? `Remove ${line.item.name}` : `One less ${line.item.name}`} onClick={() => step(line.key, -1)}>
                    −
                  </button>
                  <span className="qty-value" aria-label={`${line.item.name} quantity`}>
                    {line.quantity}
                  </span>
                  <button type="button" className="qty-btn" aria-label={`One more ${line.item.name}`} onClick={() => step(line.key, 1)}>
                    +
                  </button>
                </div>
                <span className="line-total">{currency ? money(line.quantity * (line.item.price + line.item.modifiers.filter((m) => line.modifierIds.includes(m.id)).reduce((sum, m) => sum + m.price, 0)), currency) : null}</span>
              </li>
            );
          })}
        </ul>
      )}
      <p className="muted" style={{ margin: 0, fontSize: '0.9rem' }}>
        Sent to {ownerOf(order)} with the order’s {kept.length === 1 ? 'one line' : `${kept.length} lines`}, and added there once {ownerOf(order)} has them.
      </p>
      {detailsLeftOut ? <p className="error-note">The order changed at {ownerOf(order)} meanwhile: the quantity changes made in the details are left out. Change them again there.</p> : null}
      {tooMany ? <p className="error-note">An order has at most {MAX_LINES} lines: send fewer items.</p> : null}
      {approval.field}
      <ErrorNote message={error} />
      <div className="dialog-actions" style={{ marginTop: 0 }}>
        <button type="button" className="secondary big" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="primary big" disabled={busy || lines.length === 0 || tooMany || approval.missing} onClick={() => void send()}>
          Send to {ownerOf(order)}
        </button>
      </div>
    </section>
  );
}
