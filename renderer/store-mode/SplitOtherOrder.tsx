// Splitting the bill of an order another till owns (docs/store-mode.md): the register's split controls
// (whole, evenly by N, by items onto numbered checks), sent to the order's till as one change; the
// parts and their amounts are the owner's once it has it (its pricing). Opened from "Take payment".
import { useState } from 'react';
import type { SplitPlan } from '../../bridge/contract';
import type { StoreModeOrder } from '../../bridge/store-mode/contract';
import { draftOf, ItemsOnChecks, MIN_PARTS, planOf, SPLIT_KINDS, Stepper, type Draft } from '../components/SplitPanel';
import { ErrorNote } from '../components/Dialog';
import { useApprovalPin } from '../components/ApprovalPin';
import { BridgeCallError } from '../lib/bridge-client';
import { describeError, useBridge } from '../lib/hooks';
import { tillName } from './till-words';

/** Why a split by items cannot be sent yet: a check with no item. */
function unfinished(draft: Draft): string | null {
  if (draft.kind !== 'items') return null;
  const empty = Array.from({ length: draft.count }, (_, i) => i + 1).find((check) => !draft.assignment.includes(check));
  return empty === undefined ? null : `Check ${empty} has no items yet: put one on it, or use fewer checks.`;
}

export function SplitOtherOrder({ order, onSent, onBack }: { order: StoreModeOrder; onSent: () => void; onBack: () => void }) {
  const client = useBridge();
  const owner = tillName(order.ownerTillName, order.ownerTillId);
  const current = order.split?.plan ?? null;
  const [draft, setDraft] = useState<Draft>(() => draftOf(current, order.lines.length));
  // This till does not know whose order it is: a manager's PIN is asked once the owner's server is found to be someone else.
  const [pinAsked, setPinAsked] = useState(false);
  const approval = useApprovalPin('order.adopt', pinAsked);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pick = (kind: Draft['kind']) => {
    if (kind === draft.kind) return;
    if (kind === 'whole') setDraft({ kind });
    else if (kind === 'even') setDraft({ kind, count: MIN_PARTS });
    else setDraft({ kind, count: MIN_PARTS, assignment: order.lines.map(() => 1) });
  };
  const notReady = unfinished(draft);
  const send = async () => {
    const split: SplitPlan | null = planOf(draft);
    setBusy(true);
    setError(null);
    approval.clearRefusal();
    try {
      await client.call('storeMode.changeOrder', { orderId: order.id, change: { kind: 'split', split }, ...approval.payload });
      onSent();
    } catch (caught) {
      if (approval.refused(caught)) return;
      if (caught instanceof BridgeCallError && caught.code === 'needs_manager') setPinAsked(true);
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="split">
      <p className="dialog-message">The split is sent to {owner}, and the parts are {owner}’s once it has it.</p>
      <div className="segmented segmented-3" role="radiogroup" aria-label="How the bill is split">
        {SPLIT_KINDS.map(({ kind, label }) => (
          <label key={kind} className={draft.kind === kind ? 'segment selected' : 'segment'}>
            <input type="radio" name="other-split-kind" checked={draft.kind === kind} onChange={() => pick(kind)} />
            {label}
          </label>
        ))}
      </div>
      {draft.kind === 'even' ? <Stepper label="Ways" value={draft.count} onChange={(count) => setDraft({ kind: 'even', count })} /> : null}
      {draft.kind === 'items' ? <ItemsOnChecks lines={order.lines} draft={draft} onChange={setDraft} /> : null}
      {notReady ? <p className="muted">{notReady}</p> : null}
      {approval.field}
      <ErrorNote message={error} />
      <div className="dialog-actions">
        <button type="button" className="secondary big" onClick={onBack}>
          Back to the payment
        </button>
        <button type="button" className="primary big" disabled={busy || notReady !== null || approval.missing} onClick={() => void send()}>
          {draft.kind === 'whole' ? (current === null ? 'Keep the whole bill' : `Send “whole bill” to ${owner}`) : `Send the split to ${owner}`}
        </button>
      </div>
    </div>
  );
}
