import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { ShiftView } from '../../bridge/staff/contract';
import type { CashCount } from '../../bridge/staff/cash';
import { CashCountForm, focusFirstRefused, readCount, type CountTexts } from '../components/CashCountForm';
import { CashMoveDialog, MOVE_TITLE, type CashMoveKind } from '../components/CashMoveDialog';
import { Dialog, ErrorNote, StatusNote } from '../components/Dialog';
import { FieldError } from '../components/FieldError';
import { ManagerPinField } from '../components/ManagerPinField';
import { OpenDrawer } from '../components/OpenDrawer';
import { formatClock, formatTime, money } from '../lib/format';
import { describeError, useBridge, useQuery } from '../lib/hooks';
import { useTimePlace } from '../lib/location-time';
import { approvalLabel, useApproval, useSession } from '../lib/session';
import { APPROVAL_PIN, approvalRefusal, issueAt, overShortClass, overShortText, useCurrentShift } from '../lib/shift';
import { Reports } from './Reports';
import '../shift.css';

/**
 * The drawer's shift: opened with the float counted by note and coin, cash paid out or dropped to
 * the safe while it runs, closed with a blind count (what the till expects shows only once the
 * count is in), then what it came to. `onOpenReports` shows the day's Z report on its own screen;
 * without it the report opens in a dialog.
 */
export function Shift({ onOpenReports }: { onOpenReports?: (businessDay: string) => void } = {}) {
  const { current, error: shiftError, take } = useCurrentShift();
  const { session, can } = useSession();
  const { data: location } = useQuery('location.get', {}, ['settings.changed']);
  // The shift being counted for its close: another shift (a sign-in in per-cashier mode) is not counted on with this form.
  const [closingId, setClosingId] = useState<string | null>(null);
  const [moving, setMoving] = useState<CashMoveKind | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [closed, setClosed] = useState<ShiftView | null>(null);
  const [reportDay, setReportDay] = useState<string | null>(null);
  const perCashier = session?.drawerMode === 'per_cashier';
  const shift = current.shift;
  const currency = shift?.currency ?? location?.currency ?? null;

  const openReport = (businessDay: string) => (onOpenReports ? onOpenReports(businessDay) : setReportDay(businessDay));

  return (
    <div className="shift-screen">
      <div className="shift-main">
        <ErrorNote message={shiftError} />
        {closed ? (
          <ClosedShift shift={closed} canViewReport={can('reports.view')} onReport={() => openReport(closed.businessDay)} onDone={() => setClosed(null)} />
        ) : null}
        {!current.loaded || currency === null ? (
          shiftError ? null : <p className="muted empty">Loading the drawer…</p>
        ) : shift === null ? (
          <OpenShiftForm
            currency={currency}
            perCashier={perCashier}
            onOpened={(view) => {
              take(view);
              setClosed(null);
              setNotice(`The shift is open with a float of ${money(view.float, view.currency)}.`);
            }}
          />
        ) : closingId === shift.id ? (
          <CloseShiftForm
            shift={shift}
            perCashier={perCashier}
            onCancel={() => setClosingId(null)}
            onClosed={(view) => {
              setClosed(view);
              setNotice(null);
              setClosingId(null);
              take(null);
            }}
          />
        ) : (
          <OpenShift
            shift={shift}
            perCashier={perCashier}
            notice={notice}
            onMove={(kind) => {
              setNotice(null);
              setMoving(kind);
            }}
            onClose={() => {
              setNotice(null);
              setClosingId(shift.id);
            }}
          />
        )}
        {moving && currency ? (
          <CashMoveDialog
            kind={moving}
            currency={currency}
            onClose={() => setMoving(null)}
            onDone={(view, message) => {
              take(view);
              setMoving(null);
              setNotice(message);
            }}
          />
        ) : null}
      </div>
      <div className="shift-side">
        {location ? (
          <section className="card" aria-label="Location">
            <h2>{location.name}</h2>
            <p className="muted">
              {location.address}
              {location.phone ? ` · ${location.phone}` : ''} · {location.timezone || "no time zone: times are this computer's"}
            </p>
          </section>
        ) : null}
        <TodaySummary />
        <OpenDrawer />
      </div>
      {reportDay ? (
        <Dialog title="End-of-day report" onClose={() => setReportDay(null)} wide>
          <Reports initialDay={reportDay} />
        </Dialog>
      ) : null}
    </div>
  );
}

function drawerName(shift: ShiftView | null, perCashier: boolean): string {
  if (perCashier) return 'your drawer';
  return shift ? `the till's drawer (${shift.drawer})` : "the till's drawer, shared by every cashier";
}

/** A fact row of a <dl className="facts">. */
function Fact({ term, children, testId }: { term: string; children: ReactNode; testId?: string }) {
  return (
    <>
      <dt>{term}</dt>
      <dd data-testid={testId}>{children}</dd>
    </>
  );
}

/** A labelled <dl className="facts">: a row per [term, test id, value]. */
function FactList({ label, facts }: { label: string; facts: [term: string, testId: string, value: ReactNode][] }) {
  return (
    <dl className="facts" aria-label={label}>
      {facts.map(([term, testId, value]) => (
        <Fact key={testId} term={term} testId={testId}>
          {value}
        </Fact>
      ))}
    </dl>
  );
}

/** The count and, beside it, what it comes to and what to do with it: one layout for opening and closing. */
function CountLayout({ count, side }: { count: ReactNode; side: ReactNode }) {
  return (
    <div className="count-layout">
      <div className="count-layout-count">{count}</div>
      <div className="count-layout-side">{side}</div>
    </div>
  );
}

/**
 * A drawer count's form: what was typed, the approving PIN (shown once the core asks for it, or
 * from the start when `approvalNeeded`), and the submit that checks the count and the PIN first,
 * then sends them and puts a refusal where it belongs (a PIN refused next to the PIN).
 */
function useCountForm(currency: string, approvalNeeded = false) {
  const [texts, setTexts] = useState<CountTexts>({});
  const [pin, setPin] = useState('');
  const [pinAsked, setPinAsked] = useState(false);
  const [pinError, setPinError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const reading = readCount(texts, currency);
  const showPin = pinAsked || approvalNeeded;

  const submitCount = async (
    event: FormEvent,
    { pinMessage, issuePaths, send }: { pinMessage: string; issuePaths: string[]; send: (count: CashCount, approvalPin: { managerPin?: string }) => Promise<void> },
  ) => {
    event.preventDefault();
    setError(null);
    if (reading.count === null) {
      focusFirstRefused(formRef.current);
      return;
    }
    if (showPin && !APPROVAL_PIN.test(pin)) {
      setPinError(pinMessage);
      return;
    }
    setPinError(null);
    setBusy(true);
    try {
      await send(reading.count, showPin ? { managerPin: pin } : {});
    } catch (caught) {
      const refusal = approvalRefusal(caught);
      if (refusal !== null) {
        setPinAsked(true);
        setPin('');
        setPinError(refusal);
      } else setError(issueAt(caught, ...issuePaths) ?? describeError(caught));
    } finally {
      setBusy(false);
    }
  };
  return { texts, setTexts, pin, setPin, pinError, error, busy, formRef, reading, showPin, submitCount };
}

function OpenShiftForm({ currency, perCashier, onOpened }: { currency: string; perCashier: boolean; onOpened: (shift: ShiftView) => void }) {
  const client = useBridge();
  const { texts, setTexts, pin, setPin, pinError, error, busy, formRef, reading, showPin: pinAsked, submitCount } = useCountForm(currency);
  const pinId = useId();
  const submitRef = useRef<HTMLButtonElement>(null);

  const submit = (event: FormEvent) =>
    submitCount(event, {
      pinMessage: 'The approving PIN is 4 to 8 digits.',
      issuePaths: ['count'],
      send: async (count, approvalPin) => onOpened(await client.call('shift.open', { count, ...approvalPin })),
    });

  return (
    <form ref={formRef} className="card shift-count-card" aria-label="Open the drawer" onSubmit={(event) => void submit(event)} noValidate>
      <h2>Open the drawer</h2>
      <p className="muted">
        No shift is open on {drawerName(null, perCashier)}. Count the float by note and coin to open one: cash sales need an open shift.
      </p>
      <CountLayout
        count={<CashCountForm currency={currency} texts={texts} onChange={setTexts} legend="The float" onDone={() => submitRef.current?.focus()} disabled={busy} />}
        side={
          <>
            <p className="count-sum">
              Float <strong data-testid="float-total">{money(reading.total, currency)}</strong>
            </p>
            {pinAsked ? (
              <div className="manager-approval">
                <ManagerPinField label="Manager PIN to approve" value={pin} onChange={setPin} errorId={pinId} error={pinError} />
                <FieldError id={pinId} message={pinError} />
              </div>
            ) : null}
            <ErrorNote message={error} />
            {/* A refused row is not "no float": nothing opens until the count reads. Said disabled, yet a press still takes the cashier to the row to correct. */}
            <button ref={submitRef} type="submit" className="primary big wide-button" disabled={busy} aria-disabled={reading.count === null ? true : undefined}>
              {reading.count !== null && reading.total === 0 ? 'Open with no float' : 'Open the shift'}
            </button>
            {reading.count === null ? (
              <p className="muted" role="status">
                Correct the rows marked in the count to open the shift.
              </p>
            ) : null}
          </>
        }
      />
    </form>
  );
}

function OpenShift({
  shift,
  perCashier,
  notice,
  onMove,
  onClose,
}: {
  shift: ShiftView;
  perCashier: boolean;
  notice: string | null;
  onMove: (kind: CashMoveKind) => void;
  onClose: () => void;
}) {
  // Blind count: the core sends no cash figure that adds up to what the drawer should hold (null) until the count is in.
  const m = (amount: number | null) => (amount === null ? 'After the count' : money(amount, shift.currency));
  const place = useTimePlace();
  return (
    <section className="card open-shift" aria-label="Open shift">
      <div className="open-shift-head">
        <h2>{perCashier ? `Your drawer · ${shift.drawer}` : `Drawer · ${shift.drawer}`}</h2>
        <span className="badge badge-open">Open</span>
      </div>
      <p className="muted">
        Opened by {shift.openedBy.name}, {formatTime(shift.openedAt, place)}
      </p>
      <StatusNote message={notice} testId="shift-notice" />
      <div className="shift-figures">
        <FactList
          label="Cash"
          facts={[
            ['Float', 'shift-float', m(shift.float)],
            ['Cash sales', 'shift-cash-sales', m(shift.cashSales)],
            ['Cash tips', 'shift-cash-tips', m(shift.cashTips)],
            ['Cash refunds', 'shift-cash-refunds', m(shift.cashRefunds)],
            ...(shift.cashForOtherTills ? [["Of it, for other tills' orders", 'shift-cash-other-tills', m(shift.cashForOtherTills)] satisfies [string, string, string]] : []),
            ['Paid-outs', 'shift-paid-outs', m(shift.paidOuts)],
            ['Drops', 'shift-drops', m(shift.drops)],
          ]}
        />
        <FactList
          label="Card"
          facts={[
            ['Card sales', 'shift-card-sales', m(shift.cardSales)],
            ['Card tips', 'shift-card-tips', m(shift.cardTips)],
            ['Payments', 'shift-payments', shift.payments],
          ]}
        />
      </div>
      <p className="muted blind-note">What the drawer should hold is shown once it is counted at the close.</p>
      <div className="shift-actions">
        <button type="button" className="secondary big" onClick={() => onMove('paid_out')}>
          Paid-out
        </button>
        <button type="button" className="secondary big" onClick={() => onMove('drop')}>
          Drop
        </button>
        <button type="button" className="primary big" onClick={onClose}>
          Close the shift
        </button>
      </div>
      <Movements shift={shift} />
    </section>
  );
}

function Movements({ shift }: { shift: ShiftView }) {
  const headingId = useId();
  const place = useTimePlace();
  return (
    <section className="movements" aria-labelledby={headingId}>
      <h3 id={headingId}>Paid-outs and drops</h3>
      {shift.movements.length === 0 ? (
        <p className="muted">None yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="table" aria-labelledby={headingId}>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">What</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">Reason</th>
                <th scope="col">By</th>
              </tr>
            </thead>
            <tbody>
              {shift.movements.map((move) => (
                <tr key={move.id} data-testid="cash-movement">
                  <td className="nowrap">{formatClock(move.at, place)}</td>
                  <td className="nowrap">{MOVE_TITLE[move.kind]}</td>
                  <td className="num">{money(move.amount, shift.currency)}</td>
                  <td className="wrap">{move.reason}</td>
                  <td>{move.staff.name}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function CloseShiftForm({ shift, perCashier, onCancel, onClosed }: { shift: ShiftView; perCashier: boolean; onCancel: () => void; onClosed: (shift: ShiftView) => void }) {
  const client = useBridge();
  const approval = useApproval('shift.close');
  const { texts, setTexts, pin, setPin, pinError, error, busy, formRef, reading, showPin, submitCount } = useCountForm(shift.currency, approval.needed);
  const [note, setNote] = useState('');
  const ids = { pin: useId() };
  const noteRef = useRef<HTMLTextAreaElement>(null);

  const submit = (event: FormEvent) =>
    submitCount(event, {
      pinMessage: approval.needed ? 'Closing a shift needs a manager: they enter their PIN (4 to 8 digits).' : 'The approving PIN is 4 to 8 digits.',
      issuePaths: ['count', 'note'],
      send: async (count, approvalPin) => onClosed(await client.call('shift.close', { count, note: note.trim(), ...approvalPin })),
    });

  return (
    <form ref={formRef} className="card shift-count-card" aria-label="Close the shift" onSubmit={(event) => void submit(event)} noValidate>
      <h2>Close the shift: count {perCashier ? 'your drawer' : `the drawer (${shift.drawer})`}</h2>
      <p className="muted">Count every note and coin in the drawer. What the till expected shows once the count is in.</p>
      <CountLayout
        count={<CashCountForm currency={shift.currency} texts={texts} onChange={setTexts} legend="The count" onDone={() => noteRef.current?.focus()} disabled={busy} />}
        side={
          <>
            <p className="count-sum">
              Counted <strong data-testid="closing-total">{money(reading.total, shift.currency)}</strong>
            </p>
            <label>
              Note (optional)
              <textarea ref={noteRef} rows={2} maxLength={300} value={note} onChange={(event) => setNote(event.target.value)} />
            </label>
            {showPin ? (
              <div className="manager-approval">
                {approval.needed ? <p className="muted">Closing a shift needs a manager: they check the count and enter their PIN.</p> : null}
                <ManagerPinField label={approval.needed ? approval.label : approvalLabel('shift.close')} value={pin} onChange={setPin} errorId={ids.pin} error={pinError} />
                <FieldError id={ids.pin} message={pinError} />
              </div>
            ) : null}
            <ErrorNote message={error} />
            <div className="shift-actions">
              <button type="button" className="secondary big" onClick={onCancel} disabled={busy}>
                Keep the shift open
              </button>
              <button type="submit" className="primary big" disabled={busy}>
                Close the shift
              </button>
            </div>
          </>
        }
      />
    </form>
  );
}

function ClosedShift({ shift, canViewReport, onReport, onDone }: { shift: ShiftView; canViewReport: boolean; onReport: () => void; onDone: () => void }) {
  const m = (amount: number | null) => (amount === null ? '—' : money(amount, shift.currency));
  const place = useTimePlace();
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The result is what the person waits for: it takes the focus (and a screen reader reads it).
  useEffect(() => headingRef.current?.focus(), []);
  const overShort = shift.overShort ?? 0;
  return (
    <section className="card closed-shift" aria-label="Shift closed">
      <h2 ref={headingRef} tabIndex={-1}>
        Shift closed · {shift.drawer}
      </h2>
      <p className={overShortClass(shift.overShort)} data-testid="over-short" role="status">
        {overShortText(overShort, shift.currency)}
      </p>
      <dl className="facts big-facts">
        <Fact term="Expected" testId="closed-expected">
          {shift.expected === null ? '—' : m(shift.expected)}
        </Fact>
        <Fact term="Counted" testId="closed-counted">
          {shift.counted === null ? '—' : m(shift.counted)}
        </Fact>
      </dl>
      <details className="expected-breakdown">
        <summary>How the expected cash adds up</summary>
        <dl className="facts">
          <Fact term="Float">{m(shift.float)}</Fact>
          <Fact term="+ Cash sales">{m(shift.cashSales)}</Fact>
          <Fact term="+ Cash tips">{m(shift.cashTips)}</Fact>
          <Fact term="− Cash refunds">{m(shift.cashRefunds)}</Fact>
          <Fact term="− Paid-outs">{m(shift.paidOuts)}</Fact>
          <Fact term="− Drops">{m(shift.drops)}</Fact>
        </dl>
      </details>
      <p className="muted">
        Closed by {shift.closedBy?.name ?? 'someone'}
        {shift.closedAt ? ` at ${formatTime(shift.closedAt, place)}` : ''}
        {shift.note ? ` · “${shift.note}”` : ''}
      </p>
      <div className="shift-actions">
        {canViewReport ? (
          <button type="button" className="secondary big" onClick={onReport}>
            View the end-of-day report
          </button>
        ) : null}
        <button type="button" className="primary big" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}

/** The till's day so far (orders, tax, discounts, what was taken): the drawer's shift is above. */
function TodaySummary() {
  const { data: summary, error } = useQuery('shift.summary', {}, ['orders.changed', 'shift.changed']);
  const place = useTimePlace();
  if (error) return <ErrorNote message={error} />;
  if (!summary) return null;
  const m = (amount: number | null) => (amount === null ? 'After the count' : money(amount, summary.currency));
  return (
    <section className="card today-summary" aria-label="Shift summary">
      <h2>Today at this location</h2>
      <p className="muted">Since {formatTime(summary.since, place)}: every order this till knows, online orders from the cloud included; what it took itself.</p>
      <dl className="facts">
        <Fact term="Orders">{summary.orders}</Fact>
        <Fact term="Cancelled">{summary.cancelled}</Fact>
        <Fact term="Card">{m(summary.byMethod.card)}</Fact>
        <Fact term="Cash">{m(summary.byMethod.cash)}</Fact>
        <Fact term="Tax">{m(summary.tax)}</Fact>
        <Fact term="Discounts and comps">{m(summary.discounts)}</Fact>
        <Fact term="Card tips">{m(summary.tips.card)}</Fact>
        {summary.tips.cash !== 0 ? <Fact term="Cash tips">{m(summary.tips.cash)}</Fact> : null}
        <Fact term="Card stored offline">{m(summary.queuedOffline)}</Fact>
        <Fact term="Refunded">{m(summary.refunded)}</Fact>
        <Fact term="Net taken" testId="shift-net">
          {m(summary.net)}
        </Fact>
      </dl>
    </section>
  );
}
