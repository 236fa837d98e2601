import { useState, type KeyboardEvent } from 'react';
import type { Order, SplitPlan } from '../../bridge/contract';
import { money } from '../lib/format';
import { describeError, useBridge } from '../lib/hooks';
import { previewEvenSplit, previewItemSplit } from '../lib/order-check';
import { ErrorNote } from './Dialog';

const MIN_PARTS = 2;
const MAX_PARTS = 20;

/** The plan being shaped: the whole bill, N even parts, or each line on a numbered check. */
type Draft = { kind: 'whole' } | { kind: 'even'; count: number } | { kind: 'items'; count: number; assignment: number[] };

function draftOf(plan: SplitPlan | null, lines: number): Draft {
  if (plan === null) return { kind: 'whole' };
  if (plan.kind === 'even') return { kind: 'even', count: plan.parts };
  return { kind: 'items', count: Math.max(MIN_PARTS, ...plan.assignment), assignment: Array.from({ length: lines }, (_, i) => plan.assignment[i] ?? 1) };
}

function planOf(draft: Draft): SplitPlan | null {
  if (draft.kind === 'whole') return null;
  return draft.kind === 'even' ? { kind: 'even', parts: draft.count } : { kind: 'items', assignment: draft.assignment };
}

function samePlan(a: SplitPlan | null, b: SplitPlan | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.kind === 'even' && b.kind === 'even') return a.parts === b.parts;
  if (a.kind === 'items' && b.kind === 'items') return a.assignment.length === b.assignment.length && a.assignment.every((check, i) => check === b.assignment[i]);
  return false;
}

const KINDS: { kind: Draft['kind']; label: string }[] = [
  { kind: 'whole', label: 'Whole bill' },
  { kind: 'even', label: 'Split evenly' },
  { kind: 'items', label: 'By items' },
];

function Stepper({ label, value, onChange }: { label: string; value: number; onChange: (value: number) => void }) {
  return (
    <div className="stepper" role="group" aria-label={label}>
      <button type="button" className="qty-btn" aria-label={`Fewer ${label.toLowerCase()}`} disabled={value <= MIN_PARTS} onClick={() => onChange(value - 1)}>
        −
      </button>
      <output className="stepper-value" aria-live="polite">
        {value} {label.toLowerCase()}
      </output>
      <button type="button" className="qty-btn" aria-label={`More ${label.toLowerCase()}`} disabled={value >= MAX_PARTS} onClick={() => onChange(value + 1)}>
        +
      </button>
    </div>
  );
}

/** One line's check: a tap moves it to the next, arrows step, a digit picks it. */
function AssignButton({ name, check, count, onChange }: { name: string; check: number; count: number; onChange: (check: number) => void }) {
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const step = event.key === 'ArrowRight' || event.key === 'ArrowUp' ? 1 : event.key === 'ArrowLeft' || event.key === 'ArrowDown' ? -1 : 0;
    const digit = /^[1-9]$/.test(event.key) ? Number(event.key) : null;
    if (step !== 0) onChange(Math.min(count, Math.max(1, check + step)));
    else if (digit !== null && digit <= count) onChange(digit);
    else return;
    event.preventDefault();
  };
  return (
    <button type="button" className="assign" aria-label={`${name}: check ${check} of ${count}`} onClick={() => onChange((check % count) + 1)} onKeyDown={onKeyDown}>
      <span className="assign-name">{name}</span>
      <span className="assign-check">Check {check}</span>
    </button>
  );
}

/**
 * How the bill is shared: whole, evenly by N, or by items onto numbered checks. A new plan is
 * saved on the order (orders.update) so a restart keeps it; a saved split lists its parts, paid
 * or not, and the one picked is what the dialog charges. Once a part is paid the plan stays.
 */
export function SplitPanel({ order, selectedPart, onSelectPart, onSaved }: { order: Order; selectedPart: string | null; onSelectPart: (label: string) => void; onSaved: (order: Order) => void }) {
  const client = useBridge();
  const saved = order.split?.plan ?? null;
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved, order.lines.length));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const plan = planOf(draft);
  const dirty = !samePlan(plan, saved);
  const locked = order.split?.parts.some((part) => part.paid) ?? false;
  const preview = draft.kind === 'even' ? previewEvenSplit(order, draft.count) : draft.kind === 'items' ? previewItemSplit(order, draft.assignment, draft.count) : null;

  const pick = (kind: Draft['kind']) => {
    setError(null);
    if (kind === saved?.kind || (kind === 'whole' && saved === null)) setDraft(draftOf(saved, order.lines.length));
    else if (kind === 'whole') setDraft({ kind });
    else if (kind === 'even') setDraft({ kind, count: MIN_PARTS });
    else setDraft({ kind, count: MIN_PARTS, assignment: order.lines.map(() => 1) });
  };

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      onSaved(await client.call('orders.update', { id: order.id, split: plan }));
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <fieldset className="split">
      <legend>Bill</legend>
      <div className="segmented segmented-3">
        {KINDS.map(({ kind, label }) => (
          <label key={kind} className={draft.kind === kind ? 'segment selected' : 'segment'}>
            <input type="radio" name="split-kind" checked={draft.kind === kind} disabled={locked} onChange={() => pick(kind)} />
            {label}
          </label>
        ))}
      </div>
      {locked ? <p className="muted">Part of the bill is paid: the split stays as it is.</p> : null}
      {draft.kind === 'even' && dirty ? <Stepper label="Ways" value={draft.count} onChange={(count) => setDraft({ kind: 'even', count })} /> : null}
      {draft.kind === 'items' && dirty ? (
        <>
          <Stepper
            label="Checks"
            value={draft.count}
            onChange={(count) => setDraft({ kind: 'items', count, assignment: draft.assignment.map((check) => Math.min(check, count)) })}
          />
          <ul className="assignments" aria-label="Which check each item goes on">
            {order.lines.map((line, index) => (
              <li key={index}>
                <AssignButton
                  name={`${line.quantity} × ${line.name}`}
                  check={draft.assignment[index] ?? 1}
                  count={draft.count}
                  onChange={(check) => setDraft({ ...draft, assignment: draft.assignment.map((c, i) => (i === index ? check : c)) })}
                />
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {dirty ? (
        <>
          {preview?.value ? (
            <ul className="split-preview" data-testid="split-preview">
              {preview.value.map((part) => (
                <li key={part.label}>
                  <span>{part.label}</span> <strong>{money(part.amount, order.currency)}</strong>
                </li>
              ))}
            </ul>
          ) : null}
          {preview?.error ? <p className="muted">{preview.error}</p> : null}
          <div className="dialog-actions">
            <button type="button" className="secondary big" disabled={busy || (preview !== null && preview.error !== null)} onClick={() => void save()}>
              {plan === null ? 'Pay as one bill' : 'Save split'}
            </button>
          </div>
        </>
      ) : order.split ? (
        <fieldset className="parts">
          <legend>Part to pay now</legend>
          {order.split.parts.map((part) => (
            <label key={part.label} className={part.paid ? 'part part-paid' : selectedPart === part.label ? 'part selected' : 'part'} data-testid="split-part">
              <input type="radio" name="split-part" checked={selectedPart === part.label} disabled={part.paid} onChange={() => onSelectPart(part.label)} />
              <span>{part.label}</span>
              <strong>{money(part.amount, order.currency)}</strong>
              <span className={part.paid ? 'badge badge-paid' : 'badge badge-open'}>{part.paid ? 'Paid' : 'Unpaid'}</span>
            </label>
          ))}
        </fieldset>
      ) : null}
      <ErrorNote message={error} />
    </fieldset>
  );
}
