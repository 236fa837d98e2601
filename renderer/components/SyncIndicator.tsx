import { useId, useState } from 'react';
import type { SyncStatusView, WaitingChange } from '../../bridge/contract';
import { BridgeCallError } from '../lib/bridge-client';
import { formatAge, formatTime } from '../lib/format';
import { describeError, useBridge, useEventStreamConnected, useSyncStatus } from '../lib/hooks';
import { useApproval } from '../lib/session';
import { StoreSyncPart } from '../store-mode/StoreSyncPart';
import { Dialog, ErrorNote } from './Dialog';
import { FieldError } from './FieldError';
import { ManagerPinField } from './ManagerPinField';

/** Events are fetched within moments of arriving; one still kept after this needs a person. */
const EVENT_STUCK_MS = 30_000;

function headline(status: SyncStatusView, connected: boolean): { tone: 'ok' | 'warn' | 'bad'; text: string } {
  if (!connected) return { tone: 'bad', text: 'Terminal program not answering' };
  if (status.storeProblem) return { tone: 'bad', text: 'Database damaged' };
  if (status.credentials === 'none') return { tone: 'warn', text: 'Not connected to an account' };
  if (status.credentials === 'rejected') return { tone: 'bad', text: 'Sign-in rejected' };
  if (status.serverProblem) return { tone: 'bad', text: SERVER_PROBLEM_HEADLINES[status.serverProblem.kind] };
  if (!status.online) return { tone: 'bad', text: 'Offline' };
  if (status.readProblems.length > 0) return { tone: 'bad', text: 'Cloud data unreadable' };
  const stuckEvents = status.unappliedEvents.some((event) => Date.now() - Date.parse(event.receivedAt) > EVENT_STUCK_MS);
  if (status.deadLetters.length > 0 || status.repricedOrders.length > 0 || stuckEvents) return { tone: 'bad', text: 'Needs attention' };
  if (!status.initialSyncDone && status.engineRunning) return { tone: 'warn', text: status.orderProgress ? `First sync ${progressPercent(status.orderProgress)}` : 'First sync…' };
  if (status.pending > 0) return { tone: 'warn', text: 'Syncing' };
  return { tone: 'ok', text: 'Online, all synced' };
}

const SERVER_PROBLEM_HEADLINES: Record<NonNullable<SyncStatusView['serverProblem']>['kind'], string> = {
  dns_not_found: 'Server name not found',
  refused: 'Cannot reach server',
  not_an_api: 'Wrong server address',
};

function connectionText(status: SyncStatusView): string {
  if (status.serverProblem) return status.serverProblem.message;
  if (!status.online) return 'Offline: orders and payments are kept on this terminal and sent when the connection returns.';
  if (!status.initialSyncDone && status.engineRunning) return 'Online. The first sync with the cloud has not completed yet: the menu and orders may be incomplete.';
  return 'Online';
}

/** What waits to be sent, in words: how many changes and since when (the oldest are listed below, one by one). */
function waitingText(status: SyncStatusView): string {
  if (status.pending === 0) return 'Nothing: every change made here is in the cloud.';
  const changes = status.pending === 1 ? '1 change made here (an order, a payment or another change)' : `${status.pending} changes made here (orders, payments and other changes)`;
  const age = status.oldestPendingAgeMs !== null ? `, the oldest made ${formatAge(status.oldestPendingAgeMs)} ago` : '';
  return `${changes}${age}. They are kept on this terminal until the cloud takes them.`;
}

/** "Made Mar 14, 12:41 · tried 3 times": when a waiting change was made and how its tries went. */
function waitingSince(change: WaitingChange): string {
  const tries = change.sending ? 'being sent now' : change.attempts === 0 ? 'not sent yet' : `tried ${change.attempts} ${change.attempts === 1 ? 'time' : 'times'}`;
  return `Made ${formatTime(change.since)} · ${tries}`;
}

/** "37%", or "…" while the server has not said how many there are. */
function progressPercent(progress: NonNullable<SyncStatusView['orderProgress']>): string {
  return progress.total ? `${Math.min(99, Math.floor((progress.done / progress.total) * 100))}%` : '…';
}

/** "12,000 of 50,240 orders": the history still coming, for the sync panel. */
function progressText(progress: NonNullable<SyncStatusView['orderProgress']>): string {
  const n = (value: number) => value.toLocaleString();
  return progress.total === null ? `${n(progress.done)} orders so far` : `${n(progress.done)} of ${n(progress.total)} orders`;
}

/** Always visible: online/offline, what waits to sync and for how long, and refused changes. */
export function SyncIndicator() {
  const { status, refresh } = useSyncStatus();
  const connected = useEventStreamConnected();
  const [open, setOpen] = useState(false);
  if (!status) return <div className="sync-indicator" role="status">Checking sync…</div>;
  const { tone, text } = headline(status, connected);
  return (
    <>
      <button
        type="button"
        className={`sync-indicator sync-${tone}`}
        onClick={() => {
          refresh();
          setOpen(true);
        }}
        aria-label={`Sync status: ${text}. ${status.pending} waiting. ${status.deadLetters.length} refused. ${status.repricedOrders.length} repriced. Open sync details.`}
        data-testid="sync-indicator"
      >
        <span className="sync-dot" aria-hidden="true" />
        <span className="sync-text">{text}</span>
        <span className="sync-pending" data-testid="sync-pending">
          {status.pending} waiting
          {status.oldestPendingAgeMs !== null && status.pending > 0 ? ` · oldest ${formatAge(status.oldestPendingAgeMs)}` : ''}
        </span>
        {status.deadLetters.length > 0 ? (
          <span className="sync-dead" data-testid="sync-dead-count">
            {status.deadLetters.length} refused
          </span>
        ) : null}
        {status.repricedOrders.length > 0 ? (
          <span className="sync-dead" data-testid="sync-repriced-count">
            {status.repricedOrders.length} repriced
          </span>
        ) : null}
      </button>
      {open ? <SyncDetails status={status} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function SyncDetails({ status, onClose }: { status: SyncStatusView; onClose: () => void }) {
  const client = useBridge();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Discarding a refused change is a manager's: a cashier's discard carries a manager's PIN.
  const approval = useApproval('sync.resolve');
  const [pin, setPin] = useState('');
  const [pinError, setPinError] = useState<string | null>(null);
  const pinErrorId = useId();
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    setPinError(null);
    try {
      await action();
    } catch (caught) {
      // A refused approval is said next to the PIN it is about.
      if (approval.needed && caught instanceof BridgeCallError && caught.code === 'needs_manager') setPinError(caught.message);
      else setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog title="Sync" onClose={onClose} wide>
      <dl className="facts">
        <dt>Connection</dt>
        <dd data-testid="sync-connection">{connectionText(status)}</dd>
        {status.orderProgress ? (
          <>
            <dt>Order history</dt>
            <dd data-testid="sync-progress">
              {progressText(status.orderProgress)}, in the background: selling does not wait for it.
            </dd>
          </>
        ) : null}
        <dt>Waiting to sync</dt>
        <dd data-testid="sync-waiting">{waitingText(status)}</dd>
        <dt>Last sent</dt>
        <dd>{status.lastPushAt ? formatTime(status.lastPushAt) : 'not yet'}</dd>
        <dt>Last received</dt>
        <dd>{status.lastPullAt ? formatTime(status.lastPullAt) : 'not yet'}</dd>
        {status.retryInMs !== null ? (
          <>
            <dt>Next try</dt>
            <dd>in {formatAge(status.retryInMs)}</dd>
          </>
        ) : null}
        {status.lastProblem ? (
          <>
            <dt>Last problem</dt>
            <dd data-testid="sync-last-problem">
              {status.lastProblem}
              {/* The engine's own words, for IT; the sentence before them is the cashier's. */}
              {status.lastError && status.lastError !== status.lastProblem ? (
                <details className="dead-letter-detail">
                  <summary>Details</summary>
                  <p className="muted">{status.lastError}</p>
                </details>
              ) : null}
            </dd>
          </>
        ) : null}
      </dl>
      {status.waiting.length > 0 ? (
        <>
          <h3>Waiting to be sent</h3>
          {status.pending > status.waiting.length ? (
            <p className="muted" data-testid="waiting-shown">
              The {status.waiting.length} oldest of {status.pending.toLocaleString()}, oldest first.
            </p>
          ) : null}
          <ul className="dead-letters">
            {status.waiting.map((change) => (
              <li key={change.id} data-testid="waiting-change">
                <div>
                  <strong>{change.description}</strong>
                  <p className="muted">{waitingSince(change)}</p>
                  {change.problem ? <p>{change.problem}</p> : null}
                  {/* The engine's own words, for IT. */}
                  {change.detail ? (
                    <details className="dead-letter-detail">
                      <summary>Details</summary>
                      <p className="muted">{change.detail}</p>
                    </details>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <StoreSyncPart />
      <ErrorNote message={error} />
      {status.storeProblem ? (
        <p className="dialog-message" role="alert" data-testid="store-problem">
          {status.storeProblem}
        </p>
      ) : null}
      {status.readProblems.length > 0 ? (
        <>
          <h3>Could not read from the cloud</h3>
          <ul className="dead-letters">
            {status.readProblems.map((problem) => (
              <ProblemItem
                key={problem.message + problem.detail}
                testId="read-problem"
                title={problem.message}
                when={`Since ${formatTime(problem.since)}. What could be read is up to date; sync tries again every minute.`}
                detail={problem.detail}
              />
            ))}
          </ul>
        </>
      ) : null}
      {status.unappliedEvents.length > 0 ? (
        <>
          <h3>Updates from the cloud not applied yet</h3>
          <p className="dialog-message">The cloud announced these changes, but the terminal could not read them yet. They are kept and tried again.</p>
          <ul className="dead-letters">
            {status.unappliedEvents.map((event) => (
              <ProblemItem key={event.id} testId="unapplied-event" title={`${event.type} · ${event.resource}`} when={`Received at ${formatTime(event.receivedAt)}`} detail={event.reason} />
            ))}
          </ul>
        </>
      ) : null}
      <h3>Not taken by the cloud</h3>
      {status.deadLetters.length === 0 ? (
        <p className="muted">Nothing refused.</p>
      ) : (
        <>
          <p className="dialog-message">
            The cloud did not take these changes: it refused them, or another terminal had changed the same thing first. They will not be sent again on
            their own. Retry once the problem is fixed (for example the item is back on the menu), or discard to drop the change here too. A discarded order
            has to be entered again.
          </p>
          {approval.needed ? (
            <>
              <ManagerPinField permission="sync.resolve" value={pin} onChange={setPin} errorId={pinErrorId} error={pinError} />
              <FieldError id={pinErrorId} message={pinError} />
            </>
          ) : null}
          <ul className="dead-letters">
          {status.deadLetters.map((letter) => (
            <li key={letter.id} data-testid="dead-letter">
              <div>
                <strong>{letter.description}</strong>
                <p>{letter.reason}</p>
                <p className="muted">Refused at {formatTime(letter.failedAt)}</p>
                {/* The server's own words, for a manager or IT; the sentence above is the cashier's. */}
                <details className="dead-letter-detail">
                  <summary>Details</summary>
                  <p className="muted">{letter.detail}</p>
                </details>
              </div>
              <div className="row-actions">
                <button type="button" className="secondary" disabled={busy} onClick={() => run(() => client.call('sync.retryDeadLetter', { id: letter.id }))}>
                  Retry
                </button>
                <button type="button" className="danger" disabled={busy} onClick={() => run(() => client.call('sync.discardDeadLetter', { id: letter.id, ...(approval.needed && pin !== '' ? { managerPin: pin } : {}) }))}>
                  Discard
                </button>
              </div>
            </li>
          ))}
          </ul>
        </>
      )}
      {status.repricedOrders.length > 0 ? (
        <>
          <h3>Priced differently by the cloud</h3>
          <p className="dialog-message">
            The cloud prices an order when it receives it. These were rung up at the till&apos;s price before a menu price changed, so the cloud&apos;s
            total is not the one the customer was given.
          </p>
          <ul className="dead-letters">
            {status.repricedOrders.map((order) => (
              <li key={order.id} data-testid="repriced-order">
                <div>
                  <strong>{order.description}</strong>
                  <p>{order.message}</p>
                  <p className="muted">
                    {order.placedAt ? `Rung up at ${formatTime(order.placedAt)} · ` : ''}noticed at {formatTime(order.detectedAt)}
                  </p>
                </div>
                <div className="row-actions">
                  <button type="button" className="secondary" disabled={busy} onClick={() => run(() => client.call('sync.settleRepricedOrder', { id: order.id }))}>
                    Mark settled
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="primary big" disabled={busy} onClick={() => run(() => client.call('sync.now', {}))}>
          Sync now
        </button>
      </div>
    </Dialog>
  );
}

/** One thing the cloud sent that the terminal could not use: what, since when, and the details for IT. */
function ProblemItem({ testId, title, when, detail }: { testId: string; title: string; when: string; detail: string }) {
  return (
    <li data-testid={testId}>
      <div>
        <strong>{title}</strong>
        <p className="muted">{when}</p>
        <details className="dead-letter-detail">
          <summary>Details</summary>
          <p className="muted">{detail}</p>
        </details>
      </div>
    </li>
  );
}
