import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import type { PaymentMethod } from '../../bridge/primitives';
import type { PrintingStatus } from '../../bridge/printing/contract';
import type { ZReport } from '../../bridge/reports/contract';
import { ErrorNote, StatusNote } from '../components/Dialog';
import { FieldError } from '../components/FieldError';
import { ManagerPinField } from '../components/ManagerPinField';
import { downloadText } from '../lib/download';
import { formatBusinessDay, formatTime, money, toRateText, zoneLabel } from '../lib/format';
import { describeError, useBridge } from '../lib/hooks';
import { useTimePlace } from '../lib/location-time';
import { PRINTER_STATE_LABEL, receiptPrinter, usePrintingStatus } from '../lib/printing';
import { approvalLabel } from '../lib/session';
import { APPROVAL_PIN, approvalRefusal, overShortClass, overShortText } from '../lib/shift';
import { useStoreModeRead } from '../store-mode/polling';
import { StoreDayView } from '../store-mode/StoreDay';
import '../shift.css';

const TENDER_NAME: Record<PaymentMethod, string> = { card: 'Card', cash: 'Cash' };

/** What the printer did with the report, in a sentence. */
export function reportPrintMessage(status: PrintingStatus): string {
  if (!status.enabled) return 'Printing is not set up on this terminal, so the report cannot be printed. Export it as CSV instead.';
  const printer = receiptPrinter(status);
  if (printer === null) return 'No receipt printer is set up on this terminal: the report waits for one. Export it as CSV instead.';
  if (printer.state === 'ready' || printer.state === 'printing') return 'The report is printing on the receipt printer.';
  return `The report waits: the receipt printer is ${PRINTER_STATE_LABEL[printer.state].toLowerCase()}.${printer.message ? ` ${printer.message}` : ''}`;
}

type Loaded = { state: 'loading' } | { state: 'ready'; report: ZReport } | { state: 'gate'; message: string; wrongPin: boolean } | { state: 'error'; message: string };

/**
 * The end-of-day (Z) report of a business day as this terminal recorded it: what the cloud does
 * not have yet on top, then sales, categories, items, tenders, tips, refunds, voids, staff, taxes,
 * and the drawer's shifts. Exported as CSV or printed on the receipt printer. A person without
 * `reports.view` sees it once a manager enters their PIN (kept for this screen only).
 */
export function Reports({ initialDay }: { initialDay?: string } = {}) {
  const client = useBridge();
  const { status: printing, publish } = usePrintingStatus();
  const [days, setDays] = useState<string[] | null>(null);
  const [day, setDay] = useState<string | null>(initialDay ?? null);
  // The approving PIN a manager gave on this screen; each try is a new object, so the same PIN typed again asks again.
  const [approval, setApproval] = useState<{ pin: string } | null>(null);
  const approvedPin = approval?.pin ?? null;
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [tick, setTick] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'csv' | 'print' | null>(null);
  const ids = { day: useId(), print: useId() };
  const place = useTimePlace();
  // The store view is offered only in store mode (asked once: the screen is opened again to see a change).
  const storeMode = useStoreModeRead('storeMode.status', null).data?.mode === 'on';
  const [view, setView] = useState<'till' | 'store'>('till');
  const showStore = storeMode && view === 'store';

  // New sales, refunds and shifts change the day's figures: both lists are asked again.
  useEffect(() => {
    const bump = () => setTick((n) => n + 1);
    const offs = (['orders.changed', 'shift.changed', 'terminal.reset'] as const).map((event) => client.on(event, bump));
    return () => offs.forEach((off) => off());
  }, [client]);

  useEffect(() => {
    let live = true;
    client.call('reports.days', {}).then(
      (value) => live && setDays(value),
      // The list is a convenience: without it the current day's report is still asked for.
      () => live && setDays((known) => known ?? []),
    );
    return () => {
      live = false;
    };
  }, [client, tick]);

  const businessDay = day ?? days?.[0] ?? null;
  // Until the list of days is in (or a day was given), the default day is not known yet.
  const ready = day !== null || days !== null;
  const pinPayload = approvedPin !== null ? { managerPin: approvedPin } : {};
  useEffect(() => {
    if (!ready) return;
    let live = true;
    client.call('reports.z', { ...(businessDay !== null ? { businessDay } : {}), ...(approval !== null ? { managerPin: approval.pin } : {}) }).then(
      (report) => live && setLoaded({ state: 'ready', report }),
      (caught: unknown) => {
        if (!live) return;
        const refusal = approvalRefusal(caught);
        if (refusal !== null) {
          setLoaded({ state: 'gate', message: refusal, wrongPin: approval !== null });
        } else setLoaded({ state: 'error', message: describeError(caught) });
      },
    );
    return () => {
      live = false;
    };
  }, [client, ready, businessDay, approval, tick]);

  const report = loaded.state === 'ready' ? loaded.report : null;
  const choices = [...(days ?? [])];
  if (report && !choices.includes(report.businessDay)) choices.unshift(report.businessDay);
  if (businessDay !== null && !choices.includes(businessDay)) choices.unshift(businessDay);

  const exportCsv = async () => {
    if (!report) return;
    setNotice(null);
    setActionError(null);
    setBusy('csv');
    try {
      const { filename, csv } = await client.call('reports.csv', { businessDay: report.businessDay, ...pinPayload });
      downloadText(filename, csv);
      setNotice(`The report is saved as ${filename}.`);
    } catch (caught) {
      setActionError(describeError(caught));
    } finally {
      setBusy(null);
    }
  };

  const print = async () => {
    if (!report) return;
    setNotice(null);
    setActionError(null);
    setBusy('print');
    try {
      const status = await client.call('reports.print', { businessDay: report.businessDay, ...pinPayload });
      publish(status);
      setNotice(reportPrintMessage(status));
    } catch (caught) {
      setActionError(describeError(caught));
    } finally {
      setBusy(null);
    }
  };

  const printingOff = printing !== null && !printing.enabled;
  return (
    <div className="reports">
      <div className="report-toolbar">
        <label className="report-day">
          Business day
          <select
            id={ids.day}
            value={businessDay ?? report?.businessDay ?? ''}
            disabled={choices.length === 0}
            onChange={(event) => {
              setNotice(null);
              setActionError(null);
              setDay(event.target.value);
            }}
          >
            {choices.map((choice, index) => (
              <option key={choice} value={choice}>
                {formatBusinessDay(choice, place)}
                {index === 0 && days?.[0] === choice ? ' (latest)' : ''}
              </option>
            ))}
          </select>
        </label>
        {storeMode ? (
          <div className="report-actions" role="group" aria-label="Report view">
            <button type="button" className="secondary big" aria-pressed={view === 'till'} onClick={() => setView('till')}>
              This till
            </button>
            <button type="button" className="secondary big" aria-pressed={view === 'store'} onClick={() => setView('store')}>
              Store
            </button>
          </div>
        ) : null}
        <div className="report-actions">
          <button type="button" className="secondary big" disabled={!report || busy !== null || showStore} onClick={() => void exportCsv()}>
            Export CSV
          </button>
          <button type="button" className="secondary big" disabled={!report || busy !== null || printingOff || showStore} onClick={() => void print()} aria-describedby={printingOff ? ids.print : undefined}>
            Print
          </button>
        </div>
      </div>
      {printingOff ? (
        <p id={ids.print} className="muted report-print-off" data-testid="report-print-off">
          Printing is not set up on this terminal, so the report cannot be printed here. Export it as CSV instead.
        </p>
      ) : null}
      <StatusNote message={notice} testId="report-notice" />
      <ErrorNote message={actionError} />
      {loaded.state === 'loading' ? <p className="muted empty">Adding up the day…</p> : null}
      {loaded.state === 'error' ? <ErrorNote message={loaded.message} /> : null}
      {loaded.state === 'gate' ? <ApprovalGate message={loaded.message} wrongPin={loaded.wrongPin} onApprove={(pin) => setApproval({ pin })} /> : null}
      {report && showStore ? <StoreDayView businessDay={report.businessDay} managerPin={approvedPin} tick={tick} /> : null}
      {report && !showStore ? <ReportBody report={report} /> : null}
    </div>
  );
}

/** "The end-of-day report needs a manager": their PIN, then the report. A wrong PIN is said next to the field. */
function ApprovalGate({ message, wrongPin, onApprove }: { message: string; wrongPin: boolean; onApprove: (pin: string) => void }) {
  const [pin, setPin] = useState('');
  const [typed, setTyped] = useState<string | null>(null);
  const errorId = useId();
  const error = typed ?? (wrongPin ? message : null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!APPROVAL_PIN.test(pin)) {
      setTyped('The approving PIN is 4 to 8 digits.');
      return;
    }
    setTyped(null);
    onApprove(pin);
    setPin('');
  };
  return (
    <form className="card report-gate" aria-label="Approve the report" onSubmit={submit} noValidate>
      <h2>End-of-day report</h2>
      <p>{wrongPin ? 'The end-of-day report needs a manager: they enter their PIN.' : message}</p>
      <div className="manager-approval">
        <ManagerPinField label={approvalLabel('reports.view')} value={pin} onChange={setPin} errorId={errorId} error={error} autoFocus />
        <FieldError id={errorId} message={error} />
      </div>
      <div className="dialog-actions">
        <button type="submit" className="primary big">
          Show the report
        </button>
      </div>
    </form>
  );
}

type Column = { label: string; num?: boolean };

/** A row's cells: the first is the row header, the others are data (numbers aligned as their column says). */
function RowCells({ cells, columns }: { cells: ReactNode[]; columns: Column[] }) {
  return (
    <>
      {cells.map((cell, c) =>
        c === 0 ? (
          <th key={c} scope="row">
            {cell}
          </th>
        ) : (
          <td key={c} className={columns[c]?.num ? 'num' : undefined}>
            {cell}
          </td>
        ),
      )}
    </>
  );
}

/** A section of the report: its heading names the table (one accessible name), row headers first. */
function ReportTable({ title, columns, rows, foot, empty, testId }: { title: string; columns: Column[]; rows: ReactNode[][]; foot?: ReactNode[]; empty?: string; testId?: string }) {
  const headingId = useId();
  return (
    <section className={`report-section${testId ? ` ${testId}` : ''}`} aria-labelledby={headingId} data-testid={testId}>
      <h3 id={headingId}>{title}</h3>
      {rows.length === 0 && empty ? (
        <p className="muted">{empty}</p>
      ) : (
        <div className="table-scroll">
          <table className="table report-table" aria-labelledby={headingId}>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column.label} scope="col" className={column.num ? 'num' : undefined}>
                    {column.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((cells, r) => (
                <tr key={r}>
                  <RowCells cells={cells} columns={columns} />
                </tr>
              ))}
            </tbody>
            {foot ? (
              <tfoot>
                <tr>
                  <RowCells cells={foot} columns={columns} />
                </tr>
              </tfoot>
            ) : null}
          </table>
        </div>
      )}
    </section>
  );
}

function ReportBody({ report }: { report: ZReport }) {
  // `+ 0` makes a negative zero (a discount of nothing, negated) plain zero: never "-$0.00".
  const m = (amount: number) => money(amount + 0, report.currency);
  const s = report.sales;
  const warningId = useId();
  const amount: Column = { label: 'Amount', num: true };
  const place = useTimePlace();
  return (
    <article className="report" aria-label={`End-of-day report, ${formatBusinessDay(report.businessDay, place)}`}>
      <header className="report-head">
        <h2>End-of-day report · {formatBusinessDay(report.businessDay, place)}</h2>
        <p className="muted" data-testid="report-made">
          {report.location} · till {report.till} · worked out {formatTime(report.generatedAt, place)} from what this terminal recorded · times in{' '}
          {zoneLabel(report.generatedAt, place)}
        </p>
      </header>

      {report.complete ? (
        <p className="notice report-complete" data-testid="report-complete">
          Everything of this day is in the cloud.
        </p>
      ) : (
        <section className="warning-note report-incomplete" aria-labelledby={warningId} data-testid="report-incomplete">
          <h3 id={warningId}>Not complete in the cloud</h3>
          <p>
            Some of this day is only on this terminal so far: the cloud's figures will differ until it is delivered. Keep the terminal on and connected.
          </p>
          {report.offlineCards.count > 0 ? (
            <p data-testid="offline-card-exposure">
              Card payments stored offline, not yet accepted: {report.offlineCards.count} for {m(report.offlineCards.amount)}. Until the cloud accepts them, they may still be declined.
            </p>
          ) : null}
          {report.notInCloud.length > 0 ? (
            <ul className="not-in-cloud">
              {report.notInCloud.map((entry) => (
                <li key={entry.orderId} data-testid="not-in-cloud">
                  <strong>{entry.label}</strong>: {entry.what}
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      )}

      <div className="report-grid">
        <ReportTable
          title="Sales"
          testId="report-sales"
          columns={[{ label: 'Figure' }, amount]}
          rows={[
            ['Orders', s.orders],
            ['Gross sales', m(s.gross)],
            ['Discounts', m(-s.discounts)],
            ['Comps', m(-s.comps)],
            ['Net sales', m(s.net)],
            ['Tax', m(s.tax)],
          ]}
          foot={['Total', <strong key="total">{m(s.total)}</strong>]}
        />
        <ReportTable
          title="Tips"
          testId="report-tips"
          columns={[{ label: 'Tender' }, { label: 'Tips', num: true }]}
          rows={[
            ['Card', m(report.tips.card)],
            ['Cash', m(report.tips.cash)],
          ]}
          foot={['Total', m(report.tips.card + report.tips.cash)]}
        />
        {report.gratuity.checks > 0 ? (
          <ReportTable
            title="Automatic gratuity"
            testId="report-gratuity"
            columns={[{ label: 'Large parties, in the tips above' }, amount]}
            rows={[
              [`${report.gratuity.checks} ${report.gratuity.checks === 1 ? 'check' : 'checks'}`, m(report.gratuity.collected)],
              ...(report.gratuity.tax > 0 ? [['of which tax', m(report.gratuity.tax)]] : []),
            ]}
          />
        ) : null}
        <ReportTable
          title="Refunds"
          testId="report-refunds"
          columns={[{ label: 'Tender' }, amount]}
          rows={[
            ['To card', m(report.refunds.card)],
            ['In cash', m(report.refunds.cash)],
          ]}
          foot={[`Total (${report.refunds.count} ${report.refunds.count === 1 ? 'refund' : 'refunds'})`, m(report.refunds.amount)]}
        />
        <ReportTable
          title="Discounts, comps and voids"
          testId="report-adjustments"
          columns={[{ label: 'What' }, { label: 'Count', num: true }, amount]}
          rows={[
            ['Discounts', report.discounts.count, m(report.discounts.amount)],
            ['Comps', report.comps.count, m(report.comps.amount)],
            ['Voids (orders cancelled)', report.voids.count, m(report.voids.amount)],
          ]}
        />
        <ReportTable
          title="Taxes"
          testId="report-taxes"
          columns={[{ label: 'Tax' }, { label: 'Rate', num: true }, amount]}
          rows={report.taxes.map((t) => [t.name, `${toRateText(t.ratePpm)}%`, m(t.amount)])}
          empty="No tax on this day's sales."
        />
        <ReportTable
          title="Cash of the closed shifts"
          testId="report-cash"
          columns={[{ label: 'Figure' }, amount]}
          rows={[
            ['Closed shifts', report.cash.closedShifts],
            ...(report.cash.openShifts > 0 ? [['Open shifts, not counted yet (below)', report.cash.openShifts]] : []),
            ['Floats', m(report.cash.float)],
            ['+ Cash sales', m(report.cash.sales)],
            ['+ Cash tips', m(report.cash.tips)],
            ['− Cash refunds', m(report.cash.refunds)],
            ...(report.cash.forOtherTills > 0 ? [["Of the sales and tips: taken for other tills' orders (their sales)", m(report.cash.forOtherTills)]] : []),
            ['− Paid-outs', m(report.cash.paidOuts)],
            ['− Drops', m(report.cash.drops)],
            ['Expected', report.cash.expected === null ? '—' : m(report.cash.expected)],
            ['Counted', report.cash.counted === null ? '—' : m(report.cash.counted)],
          ]}
          foot={[
            'Over/short',
            report.cash.overShort === null ? '—' : <span className={overShortClass(report.cash.overShort)}>{overShortText(report.cash.overShort, report.currency)}</span>,
          ]}
        />
      </div>

      <ReportTable
        title="Open checks (not in sales)"
        testId="report-open-checks"
        columns={[{ label: 'Order' }, { label: 'Staff' }, { label: 'Total', num: true }, { label: 'Paid', num: true }, { label: 'Due', num: true }]}
        rows={report.openChecks.orders.map((o) => [o.label, o.staff?.name ?? '—', m(o.total), m(o.paid), m(o.due)])}
        foot={[`${report.openChecks.count} open`, '', m(report.openChecks.total), m(report.openChecks.paid), m(report.openChecks.due)]}
        empty="No check is open."
      />
      <ReportTable
        title="Walkouts (not in sales)"
        testId="report-walkouts"
        columns={[{ label: 'Order' }, { label: 'Closed by' }, { label: 'Approved by' }, { label: 'Reason' }, { label: 'Total', num: true }, { label: 'Paid', num: true }, { label: 'Unpaid', num: true }]}
        rows={report.walkouts.orders.map((w) => [w.label, w.staff?.name ?? '—', w.approvedBy?.name ?? '—', w.reason, m(w.total), m(w.paid), m(w.unpaid)])}
        foot={[`${report.walkouts.count} ${report.walkouts.count === 1 ? 'walkout' : 'walkouts'}`, '', '', '', m(report.walkouts.total), m(report.walkouts.paid), m(report.walkouts.unpaid)]}
        empty="No order was closed unpaid."
      />
      {report.reopened.checks > 0 ? (
        <ReportTable
          title="Reopened checks (already in sales and refunds)"
          testId="report-reopened"
          columns={[
            { label: 'Order' },
            { label: 'Added on' },
            { label: 'Reopened by' },
            { label: 'Approved by' },
            { label: 'Reason' },
            { label: 'Added', num: true },
            { label: 'Refunded since', num: true },
          ]}
          rows={report.reopened.orders.map((r) => [r.label, r.linkedLabel ?? '—', r.staff?.name ?? '—', r.approvedBy?.name ?? '—', r.reason, m(r.added), m(r.refunded)])}
          foot={[`${report.reopened.checks} reopened`, '', '', '', '', m(report.reopened.added), m(report.reopened.refunded)]}
        />
      ) : null}

      <ReportTable
        title="By tender"
        testId="report-tenders"
        columns={[{ label: 'Tender' }, { label: 'Payments', num: true }, amount, { label: 'Tips', num: true }, { label: 'Refunds', num: true }, { label: 'Net', num: true }]}
        rows={report.byTender.map((t) => [TENDER_NAME[t.method], t.payments, m(t.amount), m(t.tips), m(t.refunds), m(t.net)])}
      />
      <ReportTable
        title="By category"
        testId="report-categories"
        columns={[{ label: 'Category' }, { label: 'Quantity', num: true }, { label: 'Gross', num: true }, { label: 'Discounts', num: true }, { label: 'Net', num: true }]}
        rows={report.byCategory.map((r) => [r.category, r.quantity, m(r.gross), m(r.discounts), m(r.net)])}
        empty="No sales on this day."
      />
      <ReportTable
        title="By item"
        testId="report-items"
        columns={[{ label: 'Item' }, { label: 'Category' }, { label: 'Quantity', num: true }, { label: 'Gross', num: true }, { label: 'Discounts', num: true }, { label: 'Net', num: true }]}
        rows={report.byItem.map((r) => [r.item, r.category, r.quantity, m(r.gross), m(r.discounts), m(r.net)])}
        empty="No sales on this day."
      />
      <ReportTable
        title="By staff"
        testId="report-staff"
        columns={[
          { label: 'Staff' },
          { label: 'Orders', num: true },
          { label: 'Sales', num: true },
          { label: 'Payments', num: true },
          { label: 'Tips', num: true },
          { label: 'Refunds', num: true },
          { label: 'Voids', num: true },
        ]}
        rows={report.byStaff.map((r) => [r.staff.name, r.orders, m(r.sales), m(r.payments), m(r.tips), m(r.refunds), r.voids])}
        empty="Nobody sold or took payments on this day."
      />
      <ReportTable
        title="Cash and shifts, each on its own"
        testId="report-shifts"
        columns={[
          { label: 'Drawer' },
          { label: 'Opened, closed' },
          { label: 'Float', num: true },
          { label: '+ Cash sales', num: true },
          { label: '+ Tips', num: true },
          { label: '− Refunds', num: true },
          { label: '− Paid-outs', num: true },
          { label: '− Drops', num: true },
          { label: 'Expected', num: true },
          { label: 'Counted', num: true },
          { label: 'Over/short', num: true },
        ]}
        rows={report.shifts.map((shift) => [
          shift.drawer,
          // One column for both, a line each: twelve columns did not fit a 1024-pixel till.
          <>
            {`${formatTime(shift.openedAt, place)} · ${shift.openedBy.name}`}
            <br />
            {shift.closedAt ? `${formatTime(shift.closedAt, place)} · ${shift.closedBy?.name ?? ''}` : 'Still open'}
          </>,
          m(shift.float),
          shift.cashSales === null ? '—' : m(shift.cashSales),
          shift.cashTips === null ? '—' : m(shift.cashTips),
          shift.cashRefunds === null ? '—' : m(shift.cashRefunds),
          m(shift.paidOuts),
          m(shift.drops),
          shift.expected === null ? 'At close' : m(shift.expected),
          shift.counted === null ? '—' : m(shift.counted),
          shift.overShort === null ? '—' : <span className={overShortClass(shift.overShort)}>{overShortText(shift.overShort, report.currency)}</span>,
        ])}
        empty="No drawer was opened on this day."
      />
      {report.unreadable.length > 0 ? (
        <section className="card report-unreadable" aria-label="Unreadable records" data-testid="report-unreadable">
          <h2>Records that cannot be read ({report.unreadable.length})</h2>
          <p className="muted">Left out of the figures above.</p>
          <ul>
            {report.unreadable.map((what) => (
              <li key={what}>{what}</li>
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  );
}
