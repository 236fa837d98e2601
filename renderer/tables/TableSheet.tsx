import { useState } from 'react';
import type { TableView } from '../../bridge/tables/contract';
import { Dialog, ErrorNote, StatusNote } from '../components/Dialog';
import { formatAge, money } from '../lib/format';
import { describeError, useBridge } from '../lib/hooks';
import { STATE_NAMES } from './floor-text';
import { GiveCheck } from './GiveCheck';
import { MergeCheck } from './MergeCheck';
import { MoveCheck } from './MoveCheck';

/** A table's checks and what can be done with it: open a check, move it, give it to another server or merge it into another check, start another, print the bill, clear it. */
export function TableSheet({
  table,
  tables,
  currency,
  now,
  onClose,
  onOpen,
  onNewCheck,
}: {
  table: TableView;
  /** Every table of the floor: where a check can be moved, and the checks it can be merged into. */
  tables: readonly TableView[];
  currency: string;
  now: number;
  onClose: () => void;
  onOpen: (orderId: string) => void;
  onNewCheck: () => void;
}) {
  const client = useBridge();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  /** A check being moved to another table, given to another server or merged into another check. */
  const [moving, setMoving] = useState<{ orderId: string; to: 'table' | 'server' | 'check' } | null>(null);
  /** Whether another open check is on the floor for this one to merge into. */
  const canMerge = (orderId: string) => [table, ...tables].some((t) => t.checks.some((c) => c.orderId !== orderId));
  const movingCheck = table.checks.find((c) => c.orderId === moving?.orderId) ?? null;
  const run = async (command: 'tables.printBill' | 'tables.clear', said: string) => {
    setBusy(true);
    setError(null);
    try {
      await client.call(command, { id: table.id });
      if (command === 'tables.clear') onClose();
      else setDone(said);
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };
  /** A table whose checks are all paid: each closed (completed), then the table cleared, in one press. */
  const closeAndClear = async () => {
    setBusy(true);
    setError(null);
    try {
      for (const check of table.checks) await client.call('orders.fulfil', { id: check.orderId });
      await client.call('tables.clear', { id: table.id });
      onClose();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };
  const due = table.checks.reduce((sum, c) => sum + c.due, 0);
  return (
    <Dialog title={`Table ${table.name} · ${STATE_NAMES[table.state]}`} onClose={onClose}>
      {table.checks.length === 0 ? (
        <p className="dialog-message">{table.state === 'needs_clearing' ? 'Its check is closed. Clear the table when it is set for the next guests.' : 'No open check.'}</p>
      ) : (
        <ul className="table-checks">
          {table.checks.map((c, i) => (
            <li key={c.orderId}>
              <button type="button" className="big table-check" onClick={() => onOpen(c.orderId)} {...(i === 0 ? { 'data-autofocus': true } : {})}>
                <strong>{c.label}</strong>
                <span>{c.guests === null ? '' : `${c.guests} ${c.guests === 1 ? 'guest' : 'guests'} · `}{formatAge(now - Date.parse(c.createdAt))}{c.server ? ` · ${c.server.name}` : ''}</span>
                <span>{c.due > 0 ? `${money(c.due, currency)} due` : 'Paid'}</span>
              </button>
              <button type="button" className="big" aria-label={`Move ${c.label} to another table`} onClick={() => setMoving({ orderId: c.orderId, to: 'table' })}>
                Move…
              </button>
              <button type="button" className="big" aria-label={`Give ${c.label} to another server`} onClick={() => setMoving({ orderId: c.orderId, to: 'server' })}>
                Give…
              </button>
              {canMerge(c.orderId) ? (
                <button type="button" className="big" aria-label={`Merge ${c.label} into another check`} onClick={() => setMoving({ orderId: c.orderId, to: 'check' })}>
                  Merge…
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {movingCheck && moving?.to === 'check' ? (
        <MergeCheck
          key={movingCheck.orderId}
          check={movingCheck}
          from={table}
          tables={tables}
          onCancel={() => setMoving(null)}
          onMerged={(into) => {
            setMoving(null);
            setDone(`${movingCheck.label} is merged into ${into}.`);
          }}
        />
      ) : movingCheck && moving?.to === 'server' ? (
        <GiveCheck
          key={movingCheck.orderId}
          check={movingCheck}
          onCancel={() => setMoving(null)}
          onGiven={(to) => {
            setMoving(null);
            setDone(`${movingCheck.label} is ${to}’s now.`);
          }}
        />
      ) : movingCheck ? (
        <MoveCheck
          key={movingCheck.orderId}
          check={movingCheck}
          from={table}
          tables={tables}
          onCancel={() => setMoving(null)}
          onMoved={(to) => {
            setMoving(null);
            setDone(`${movingCheck.label} is at table ${to} now.`);
          }}
        />
      ) : null}
      <StatusNote message={done} />
      <ErrorNote message={error} />
      <div className="dialog-actions table-actions">
        <button type="button" className="secondary big" onClick={onClose}>
          Done
        </button>
        {table.checks.length > 0 ? (
          <button type="button" className="big" onClick={onNewCheck}>
            New check here
          </button>
        ) : null}
        {due > 0 ? (
          <button type="button" className="big" disabled={busy} onClick={() => void run('tables.printBill', `The bill is printing (${money(due, currency)} due).`)}>
            Print the bill
          </button>
        ) : null}
        {table.checks.length > 0 && due === 0 ? (
          <button type="button" className="primary big" disabled={busy} onClick={() => void closeAndClear()}>
            {table.checks.length === 1 ? 'Close the check' : `Close the ${table.checks.length} checks`} and clear
          </button>
        ) : null}
        {table.checks.length === 0 ? (
          <button type="button" className="primary big" disabled={busy} onClick={() => void run('tables.clear', '')} data-autofocus>
            Table is cleared
          </button>
        ) : null}
      </div>
    </Dialog>
  );
}
