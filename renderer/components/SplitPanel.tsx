import { useRef, useState, type KeyboardEvent } from 'react';
import type { SplitPart } from '../../bridge/checkout';
import { seatAssignment } from '../../bridge/checkout/split';
import type { Order, SplitPlan } from '../../bridge/contract';
import { money } from '../lib/format';
import { describeError, useBridge } from '../lib/hooks';
import { previewEvenSplit, previewItemSplit, type Preview } from '../lib/order-check';
import { ErrorNote } from './Dialog';

export const MIN_PARTS = 2;
const MAX_PARTS = 20;

/** The plan being shaped: the whole bill, N even parts, or each line on a numbered check. */
export type Draft = { kind: 'whole' } | { kind: 'even'; count: number } | { kind: 'items'; count: number; assignment: number[] };

export function draftOf(plan: SplitPlan | null, lines: number): Draft {
  if (plan === null) return { kind: 'whole' };
  if (plan.kind === 'even') return { kind: 'even', count: plan.parts };
  return { kind: 'items', count: Math.max(MIN_PARTS, ...plan.assignment), assignment: Array.from({ length: lines }, (_, i) => plan.assignment[i] ?? 1) };
}

export function planOf(draft: Draft): SplitPlan | null {
  if (draft.kind === 'whole') return null;
  return draft.kind === 'even' ? { kind: 'even', parts: draft.count } : { kind: 'items', assignment: draft.assignment };
}

function samePlan(a: SplitPlan | null, b: SplitPlan | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.kind === 'even' && b.kind === 'even') return a.parts === b.parts;
  if (a.kind === 'items' && b.kind === 'items') return a.assignment.length === b.assignment.length && a.assignment.every((check, i) => check === b.assignment[i]);
  return false;
}

export const SPLIT_KINDS: { kind: Draft['kind']; label: string }[] = [
  { kind: 'whole', label: 'Whole bill' },
  { kind: 'even', label: 'Split evenly' },
  { kind: 'items', label: 'By items' },
];

/** "Seat 2", or "Table" for a line shared by the table; null when no line of the order has a seat. */
function seatLabels(lines: readonly { seat?: number | null }[]): (string | null)[] {
  if (!lines.some((line) => (line.seat ?? null) !== null)) return lines.map(() => null);
  return lines.map((line) => (line.seat == null ? 'Table' : `Seat ${line.seat}`));
}

/**
 * A split by items being shaped: how many checks, and a button per line saying which check it is on
 * (and, on a table's order with seats, whose seat the line is, or the table's).
 */
export function ItemsOnChecks({
  lines,
  draft,
  onChange,
}: {
  lines: readonly { name: string; quantity: number; seat?: number | null }[];
  draft: Extract<Draft, { kind: 'items' }>;
  onChange: (draft: Draft) => void;
}) {
  const seats = seatLabels(lines);
  return (
    <>
      <Stepper label="Checks" value={draft.count} onChange={(count) => onChange({ kind: 'items', count, assignment: draft.assignment.map((check) => Math.min(check, count)) })} />
      <ul className="assignments" aria-label="Which check each item goes on">
        {lines.map((line, index) => (
          <li key={index}>
            <AssignButton
              name={`${line.quantity} × ${line.name}`}
              seat={seats[index] ?? null}
              check={draft.assignment[index] ?? 1}
              count={draft.count}
              onChange={(check) => onChange({ ...draft, assignment: draft.assignment.map((c, i) => (i === index ? check : c)) })}
            />
          </li>
        ))}
      </ul>
    </>
  );
}

/** A split bill's parts, paid or not; the one picked is what is charged now. */
export function PartsToPay({ parts, currency, selected, onSelect }: { parts: readonly { label: string; amount: number; paid: boolean }[]; currency: string; selected: string | null; onSelect: (label: string) => void }) {
  return (
    <fieldset className="parts">
      <legend>Part to pay now</legend>
      {parts.map((part) => (
        <label key={part.label} className={part.paid ? 'part part-paid' : selected === part.label ? 'part selected' : 'part'} data-testid="split-part">
          <input type="radio" name="split-part" checked={selected === part.label} disabled={part.paid} onChange={() => onSelect(part.label)} />
          <span>{part.label}</span>
          <strong>{money(part.amount, currency)}</strong>
          <span className={part.paid ? 'badge badge-paid' : 'badge badge-open'}>{part.paid ? 'Paid' : 'Unpaid'}</span>
        </label>
      ))}
    </fieldset>
  );
}

export function Stepper({ label, value, onChange }: { label: string; value: number; onChange: (value: number) => void }) {
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

/** One line's check (0: shared by every check, a split by seat's lines for the table): a tap moves it to the next, arrows step, a digit picks it. */
function AssignButton({ name, seat, check, count, onChange }: { name: string; seat: string | null; check: number; count: number; onChange: (check: number) => void }) {
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const step = event.key === 'ArrowRight' || event.key === 'ArrowUp' ? 1 : event.key === 'ArrowLeft' || event.key === 'ArrowDown' ? -1 : 0;
    const digit = /^[1-9]$/.test(event.key) ? Number(event.key) : null;
    if (step !== 0) onChange(Math.min(count, Math.max(1, check + step)));
    else if (digit !== null && digit <= count) onChange(digit);
    else return;
    event.preventDefault();
  };
  return (
    <button
      type="button"
      className="assign"
      aria-label={`${seat === null ? '' : `${seat} · `}${name}: ${check === 0 ? `shared by all ${count} checks` : `check ${check} of ${count}`}`}
      onClick={() => onChange((check % count) + 1)}
      onKeyDown={onKeyDown}
    >
      {seat === null ? null : <span className="assign-seat">{seat}</span>}
      <span className="assign-name">{name}</span>
      <span className="assign-check">{check === 0 ? 'Shared' : `Check ${check}`}</span>
    </button>
  );
}

function previewOf(order: Order, draft: Draft): Preview<SplitPart[]> | null {
  if (draft.kind === 'even') return previewEvenSplit(order, draft.count);
  if (draft.kind === 'items') return previewItemSplit(order, draft.assignment, draft.count);
  return null;
}

/** The split being chosen in the payment dialog, and where its saving stands. */
export interface SplitChoice {
  draft: Draft;
  /** The parts the draft would have (null for the whole bill), or why it cannot be saved yet. */
  preview: Preview<SplitPart[]> | null;
  /** Part of the bill is paid: the split stays as it is. */
  locked: boolean;
  /**
   * Why nothing can be charged now: the split on screen is not the order's yet (being saved,
   * not finished, or refused). Charging then would take an amount nobody chose.
   */
  blocked: string | null;
  /** Why the last save was refused. */
  error: string | null;
  pick: (kind: Draft['kind']) => void;
  change: (draft: Draft) => void;
  retry: () => void;
}

/**
 * The split as the cashier shapes it. Each plan that can be saved is saved on the order
 * (orders.update) as soon as it is chosen, so a restart keeps it and the dialog charges its
 * parts: "Whole bill" saves no split. Saves go one at a time; a change made while one is on
 * its way is saved after it (only the newest), so quick taps on − and + end on what was tapped last.
 */
export function useSplitChoice(order: Order, onSaved: (order: Order) => void): SplitChoice {
  const client = useBridge();
  const saved = order.split?.plan ?? null;
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved, order.lines.length));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const sending = useRef(false);
  /** The newest plan asked for while a save was on its way. */
  const queued = useRef<{ plan: SplitPlan | null } | null>(null);
  const locked = order.split?.parts.some((part) => part.paid) ?? false;
  const preview = previewOf(order, draft);
  const plan = planOf(draft);

  const save = async (first: SplitPlan | null) => {
    sending.current = true;
    setSaving(true);
    setError(null);
    try {
      let next = first;
      for (;;) {
        onSaved(await client.call('orders.update', { id: order.id, split: next }));
        const wanted = queued.current;
        queued.current = null;
        if (wanted === null || samePlan(wanted.plan, next)) break;
        next = wanted.plan;
      }
    } catch (caught) {
      queued.current = null;
      setError(describeError(caught));
    } finally {
      sending.current = false;
      setSaving(false);
    }
  };

  const change = (next: Draft) => {
    setDraft(next);
    setError(null);
    const nextPlan = planOf(next);
    // An unfinished split (a check with no items) is not saved: the order keeps its last one.
    if (previewOf(order, next)?.error) {
      queued.current = null;
    } else if (sending.current) {
      queued.current = { plan: nextPlan };
    } else if (!samePlan(nextPlan, saved)) {
      void save(nextPlan);
    }
  };

  const pick = (kind: Draft['kind']) => {
    if (kind === draft.kind) return;
    if (kind === saved?.kind || (kind === 'whole' && saved === null)) change(draftOf(saved, order.lines.length));
    else if (kind === 'whole') change({ kind });
    // A table's guests are how many ways it usually splits.
    else if (kind === 'even') change({ kind, count: Math.min(MAX_PARTS, Math.max(MIN_PARTS, order.service.guests ?? MIN_PARTS)) });
    else change({ kind, count: MIN_PARTS, assignment: order.lines.map(() => 1) });
  };

  const dirty = !samePlan(plan, saved);
  const blocked = preview?.error
    ? 'Finish the split to charge'
    : saving || (dirty && error === null)
      ? 'Saving the split…'
      : dirty
        ? 'The split is not saved'
        : null;
  return { draft, preview, locked, blocked, error, pick, change, retry: () => void save(plan) };
}

/**
 * How the bill is shared: whole, evenly by N, or by items onto numbered checks, saved on the
 * order as it is chosen (useSplitChoice). A saved split lists its parts, paid or not, and the
 * one picked is what the dialog charges. Once a part is paid the plan stays.
 */
export function SplitPanel({
  order,
  split,
  selectedPart,
  onSelectPart,
}: {
  order: Order;
  split: SplitChoice;
  selectedPart: string | null;
  onSelectPart: (label: string) => void;
}) {
  const { draft, preview, locked, blocked, error, pick, change, retry } = split;
  // One check per seat, the table's lines shared: offered when two seats or more have lines.
  const bySeat = seatAssignment(order.lines.map((line) => line.seat));
  const seatChecks = bySeat === null ? 0 : Math.max(...bySeat);
  const isBySeat = bySeat !== null && draft.kind === 'items' && draft.count === seatChecks && draft.assignment.every((check, i) => check === bySeat[i]);
  return (
    <fieldset className="split">
      <legend>Bill</legend>
      <div className="segmented segmented-3">
        {SPLIT_KINDS.map(({ kind, label }) => (
          <label key={kind} className={draft.kind === kind ? 'segment selected' : 'segment'}>
            <input type="radio" name="split-kind" checked={draft.kind === kind} disabled={locked} onChange={() => pick(kind)} />
            {label}
          </label>
        ))}
      </div>
      {bySeat !== null && !locked ? (
        <button type="button" className="secondary by-seat" aria-pressed={isBySeat} onClick={() => change({ kind: 'items', count: seatChecks, assignment: bySeat })}>
          By seat ({seatChecks} checks)
        </button>
      ) : null}
      {locked ? <p className="muted">Part of the bill is paid: the split stays as it is.</p> : null}
      {draft.kind === 'even' && !locked ? <Stepper label="Ways" value={draft.count} onChange={(count) => change({ kind: 'even', count })} /> : null}
      {draft.kind === 'items' && !locked ? <ItemsOnChecks lines={order.lines} draft={draft} onChange={change} /> : null}
      {preview?.error ? <p className="muted">{preview.error}</p> : null}
      {blocked === null && order.split ? (
        <PartsToPay parts={order.split.parts} currency={order.currency} selected={selectedPart} onSelect={onSelectPart} />
      ) : preview?.value ? (
        // Being saved: the parts as they will be, not yet to pick.
        <ul className="split-preview" data-testid="split-preview" aria-busy={blocked !== null}>
          {preview.value.map((part) => (
            <li key={part.label}>
              <span>{part.label}</span> <strong>{money(part.amount, order.currency)}</strong>
            </li>
          ))}
        </ul>
      ) : null}
      <ErrorNote message={error} />
      {error ? (
        <div className="dialog-actions">
          <button type="button" className="secondary" onClick={retry}>
            Save the split again
          </button>
        </div>
      ) : null}
    </fieldset>
  );
}
