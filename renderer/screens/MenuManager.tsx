import { useId, useState, type FormEvent } from 'react';
import type { MenuItem, MenuSnapshot } from '../../bridge/contract';
import { minorDigits } from '../../bridge/money';
import { useApprovalPin } from '../components/ApprovalPin';
import { ApprovedActionDialog } from '../components/ApprovedActionDialog';
import { BridgeCallError } from '../lib/bridge-client';
import { Dialog, ErrorNote } from '../components/Dialog';
import { describedBy, FieldError } from '../components/FieldError';
import { money, readAmount, toAmountText } from '../lib/format';
import { describeError, useBridge } from '../lib/hooks';
import { useApproval } from '../lib/session';

interface Draft {
  id: string | null;
  name: string;
  priceText: string;
  categoryId: string;
  description: string;
  available: boolean;
  /** As typed; blank means no code. */
  barcode: string;
}

/** A refusal the core pinned on the barcode field (format or a code another item has). */
function barcodeIssue(caught: unknown): string | undefined {
  if (!(caught instanceof BridgeCallError)) return undefined;
  return caught.issues?.find((issue) => issue.path === 'barcode' || issue.path === 'changes.barcode')?.message;
}

/**
 * "New item" or "Edit item": its fields, each refusal under its field, and a manager's PIN when the
 * signed-in person may not edit the menu. A refused approval is said next to the PIN, which is
 * cleared; the dialog stays with what was typed, and nothing is saved.
 */
function ItemDialog({ initial, menu, onClose }: { initial: Draft; menu: MenuSnapshot; onClose: () => void }) {
  const client = useBridge();
  const approval = useApprovalPin('menu.edit', useApproval('menu.edit').needed);
  const [draft, setDraft] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [priceError, setPriceError] = useState<string | null>(null);
  const priceErrorId = useId();
  const [barcodeError, setBarcodeError] = useState<string | null>(null);
  const barcodeHintId = useId();
  const barcodeErrorId = useId();

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const { amount: price, error: refused } = readAmount(draft.priceText, menu.currency);
    setPriceError(refused);
    if (price === null) return;
    setBarcodeError(null);
    setError(null);
    approval.clearRefusal();
    const barcode = draft.barcode.trim() === '' ? null : draft.barcode;
    const fields = { name: draft.name, price, categoryId: draft.categoryId, description: draft.description, available: draft.available, barcode };
    try {
      await (draft.id ? client.call('menu.updateItem', { id: draft.id, changes: fields, ...approval.payload }) : client.call('menu.createItem', { ...fields, ...approval.payload }));
      onClose();
    } catch (caught) {
      if (approval.refused(caught)) return;
      const onBarcode = barcodeIssue(caught);
      if (onBarcode) setBarcodeError(onBarcode);
      else setError(describeError(caught));
    }
  };

  return (
    <Dialog title={draft.id ? 'Edit item' : 'New item'} onClose={onClose}>
      <form onSubmit={save}>
        <label>
          Name
          <input value={draft.name} onChange={(event) => setDraft({ ...draft, name: event.target.value })} required data-autofocus />
        </label>
        <label>
          Price
          <input
            inputMode="decimal"
            value={draft.priceText}
            onChange={(event) => setDraft({ ...draft, priceText: event.target.value })}
            required
            {...describedBy(priceErrorId, priceError)}
          />
        </label>
        <FieldError id={priceErrorId} message={priceError} />
        <label>
          Category
          <select value={draft.categoryId} onChange={(event) => setDraft({ ...draft, categoryId: event.target.value })}>
            {menu.categories.map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Description
          <textarea rows={2} value={draft.description} onChange={(event) => setDraft({ ...draft, description: event.target.value })} />
        </label>
        <label>
          Barcode / PLU
          <input
            value={draft.barcode}
            onChange={(event) => setDraft({ ...draft, barcode: event.target.value })}
            onKeyDown={(event) => {
              // A scanner ends its code with Enter: that fills this field, it does not save the form.
              if (event.key === 'Enter') event.preventDefault();
            }}
            autoComplete="off"
            spellCheck={false}
            aria-describedby={barcodeError ? `${barcodeErrorId} ${barcodeHintId}` : barcodeHintId}
            aria-invalid={barcodeError ? true : undefined}
          />
        </label>
        <FieldError id={barcodeErrorId} message={barcodeError} />
        <p id={barcodeHintId} className="field-hint muted">
          Scan the item’s barcode here, or type a PLU of up to 6 letters and digits.
        </p>
        <label className="checkbox">
          <input type="checkbox" checked={draft.available} onChange={(event) => setDraft({ ...draft, available: event.target.checked })} />
          Available to sell
        </label>
        {approval.field}
        <ErrorNote message={error} />
        <div className="dialog-actions">
          <button type="button" className="secondary big" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary big" disabled={approval.missing}>
            Save
          </button>
        </div>
      </form>
    </Dialog>
  );
}

export function MenuManager({ menu }: { menu: MenuSnapshot }) {
  const client = useBridge();
  const digits = minorDigits(menu.currency);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [deleting, setDeleting] = useState<MenuItem | null>(null);
  const [filter, setFilter] = useState('');
  const [error, setError] = useState<string | null>(null);
  const categoryName = new Map(menu.categories.map((c) => [c.id, c.name]));
  // Find by name, or by scanning the item's code into the box.
  const visible = menu.items
    .filter((item) => item.name.toLowerCase().includes(filter.toLowerCase()) || (filter.trim() !== '' && item.barcode === filter.trim().toUpperCase()))
    .slice(0, 300);

  /** 86-ing an item or putting it back on is anyone's: no approval is asked. */
  const setAvailable = async (item: MenuItem) => {
    setError(null);
    try {
      await client.call('menu.setAvailable', { id: item.id, available: !item.available });
    } catch (caught) {
      setError(describeError(caught));
    }
  };

  return (
    <div className="menu-manager">
      <header className="toolbar">
        <label>
          Find
          <input type="search" value={filter} onChange={(event) => setFilter(event.target.value)} />
        </label>
        <button
          type="button"
          className="primary big"
          onClick={() => setDraft({ id: null, name: '', priceText: '', categoryId: menu.categories[0]?.id ?? '', description: '', available: true, barcode: '' })}
        >
          New item
        </button>
      </header>
      <ErrorNote message={error} />
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Category</th>
            <th scope="col">Price</th>
            <th scope="col">Stock</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {visible.map((item) => (
            <tr key={item.id} data-item-id={item.id}>
              <td>
                {item.name}
                {item.barcode ? <span className="item-code muted"> · {item.barcode}</span> : null}
              </td>
              <td>{item.categoryId ? (categoryName.get(item.categoryId) ?? '—') : '—'}</td>
              <td>{money(item.price, menu.currency)}</td>
              <td>
                {!item.available ? <span className="badge badge-cancelled">Sold out (86)</span> : item.lowStock ? <span className="badge badge-low">Low stock</span> : 'In stock'}
              </td>
              <td className="row-actions">
                <button type="button" className="secondary" onClick={() => void setAvailable(item)}>
                  {item.available ? '86 it' : 'Back on'}
                </button>
                <button
                  type="button"
                  className="secondary"
                  onClick={() =>
                    setDraft({
                      id: item.id,
                      name: item.name,
                      priceText: toAmountText(item.price, digits),
                      categoryId: item.categoryId ?? menu.categories[0]?.id ?? '',
                      description: item.description,
                      available: item.available,
                      barcode: item.barcode ?? '',
                    })
                  }
                >
                  Edit
                </button>
                <button type="button" className="danger" onClick={() => setDeleting(item)}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {draft ? <ItemDialog key={draft.id ?? 'new'} initial={draft} menu={menu} onClose={() => setDraft(null)} /> : null}
      {deleting ? (
        <ApprovedActionDialog
          title={`Delete ${deleting.name}?`}
          message="It disappears from every register. Orders already taken keep it. To stop selling it for today only, use “86 it” instead."
          permission="menu.edit"
          perform={(approval) => client.call('menu.deleteItem', { id: deleting.id, ...approval })}
          keepLabel="Keep working"
          confirmLabel="Delete item"
          onClose={() => setDeleting(null)}
          onDone={() => setDeleting(null)}
        />
      ) : null}
    </div>
  );
}
