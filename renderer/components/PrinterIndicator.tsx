import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { PrintingStatus, PrintJobView } from '../../bridge/printing/contract';
import { BridgeCallError } from '../lib/bridge-client';
import { formatTime } from '../lib/format';
import { describeError, useBridge } from '../lib/hooks';
import { useTimePlace } from '../lib/location-time';
import { jobExplanation, jobsNeedingAttention, jobTitle, PRINTER_STATE_LABEL, printerFacts, printerTitle, printingHeadline, usePrintingStatus } from '../lib/printing';
import { useApproval } from '../lib/session';
import { Dialog, ErrorNote } from './Dialog';
import { FieldError } from './FieldError';
import { ManagerPinField } from './ManagerPinField';

/**
 * The printers at a glance in the top bar, shown only where printers are set up: "Printers ready",
 * or what needs a person ("Kitchen printer out of paper"). It opens the printers panel.
 */
export function PrinterIndicator() {
  const { status, refresh, publish } = usePrintingStatus();
  const [open, setOpen] = useState(false);
  if (!status?.enabled) return null;
  const { tone, text } = printingHeadline(status);
  const waiting = jobsNeedingAttention(status).length;
  return (
    <>
      <button
        type="button"
        className={`printer-indicator printer-${tone}`}
        onClick={() => {
          refresh();
          setOpen(true);
        }}
        aria-label={`Printers: ${text}.${waiting > 0 && !/need/.test(text) ? ` ${waiting} ${waiting === 1 ? 'ticket needs' : 'tickets need'} you.` : ''} Open the printers.`}
        data-testid="printer-indicator"
      >
        <span className="printer-dot" aria-hidden="true" />
        <span className="printer-text">{text}</span>
      </button>
      {open ? <PrintersPanel status={status} publish={publish} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function PrintersPanel({ status, publish, onClose }: { status: PrintingStatus; publish: (status: PrintingStatus) => void; onClose: () => void }) {
  const [notice, setNotice] = useState<string | null>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const configured = status.printers.filter((p) => p.configured).map((p) => p.name);
  const jobs = jobsNeedingAttention(status);
  // The ticket acted on leaves the list with its buttons: the focus goes to what happened.
  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);
  return (
    <Dialog title="Printers" onClose={onClose} wide>
      <ul className="printer-list" aria-label="Printers">
        {status.printers.map((printer) => (
          <li key={printer.name} data-testid="printer" data-printer={printer.name}>
            <div className="printer-head">
              <strong>{printer.configured ? printerTitle(printer.name) : `"${printer.name}" (not set up)`}</strong>
              <span className={`badge printer-state printer-state-${printer.configured ? printer.state : 'missing'}`}>{printer.configured ? PRINTER_STATE_LABEL[printer.state] : 'Not set up'}</span>
            </div>
            <p className="printer-facts">
              {printerFacts(printer)}
              {printer.url ? (
                <>
                  {' · '}
                  <span className="printer-url">{printer.url}</span>
                </>
              ) : null}
            </p>
            {printer.message ? (
              <p className="printer-message" data-testid="printer-message">
                {printer.message}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
      <h3>Tickets that need you</h3>
      {notice ? (
        <p className="notice" role="status" tabIndex={-1} ref={noticeRef} data-testid="printers-notice">
          {notice}
        </p>
      ) : null}
      {jobs.length === 0 ? (
        <p className="muted">None: every ticket printed or is waiting its turn.</p>
      ) : (
        <ul className="print-jobs">
          {jobs.map((job) => (
            <AttentionJob
              key={job.id}
              job={job}
              printers={configured}
              onDone={(next, message) => {
                publish(next);
                setNotice(message);
              }}
            />
          ))}
        </ul>
      )}
    </Dialog>
  );
}

/** A ticket in doubt, failed, or waiting for a printer that is not set up, with what a person can do about it. */
function AttentionJob({
  job,
  printers,
  onDone,
}: {
  job: PrintJobView;
  printers: string[];
  onDone: (status: PrintingStatus, message: string) => void;
}) {
  const client = useBridge();
  const place = useTimePlace();
  // Discarding a ticket is a manager's: a cashier's discard carries a manager's PIN.
  const approval = useApproval('sync.resolve');
  const managerPinNeeded = approval.needed;
  const [mode, setMode] = useState<'send' | 'discard' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [pin, setPin] = useState('');
  const [pinError, setPinError] = useState<string | null>(null);
  const pinErrorId = useId();
  const titleId = useId();
  const firstTarget = useRef<HTMLButtonElement>(null);
  const pinRef = useRef<HTMLInputElement>(null);
  const configured = printers.includes(job.printer);
  const targets = printers.filter((name) => name !== job.printer);
  const title = jobTitle(job);

  useEffect(() => {
    if (mode === 'send') firstTarget.current?.focus();
  }, [mode]);
  useEffect(() => {
    if (pinError !== null) pinRef.current?.select();
  }, [pinError]);

  const run = async (action: () => Promise<PrintingStatus>, message: string) => {
    setBusy(true);
    setError(null);
    try {
      const next = await action();
      // Usually the ticket leaves the list with this row; if it is listed still, the row is usable again.
      setMode(null);
      onDone(next, message);
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  const discard = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setPinError(null);
    try {
      const next = await client.call('printing.discardJob', { id: job.id, ...(managerPinNeeded && pin ? { managerPin: pin } : {}) });
      setMode(null);
      onDone(next, `${title} discarded: it will not print.`);
    } catch (caught) {
      // The core's own words next to the PIN field: missing, or not right.
      if (caught instanceof BridgeCallError && caught.code === 'needs_manager' && managerPinNeeded) setPinError(caught.message);
      else setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <li data-testid="print-job" data-job-state={job.state} aria-labelledby={titleId}>
      <div className="print-job-text">
        <strong id={titleId}>{title}</strong>
        <p>{jobExplanation(job, configured)}</p>
        <p className="muted">
          For the {configured ? printerTitle(job.printer).toLowerCase() : `printer "${job.printer}"`} · queued at {formatTime(job.createdAt, place)}
        </p>
      </div>
      <div className="row-actions">
        {configured && job.state !== 'pending' ? (
          <button type="button" className="secondary" disabled={busy} onClick={() => void run(() => client.call('printing.retryJob', { id: job.id }), `${title}: sent to the ${printerTitle(job.printer).toLowerCase()} again.`)}>
            Print again
          </button>
        ) : null}
        {targets.length > 0 ? (
          <button type="button" className="secondary" disabled={busy} aria-expanded={mode === 'send'} onClick={() => setMode(mode === 'send' ? null : 'send')}>
            Send to…
          </button>
        ) : null}
        {job.state === 'sending' ? (
          <button type="button" className="secondary" disabled={busy} onClick={() => void run(() => client.call('printing.confirmPrinted', { id: job.id }), `${title}: marked as printed.`)}>
            It printed
          </button>
        ) : null}
        <button type="button" className="danger" disabled={busy} aria-expanded={mode === 'discard'} onClick={() => setMode(mode === 'discard' ? null : 'discard')}>
          Discard
        </button>
      </div>
      {mode === 'send' ? (
        <div className="print-job-more" role="group" aria-label={`Send ${title} to`}>
          <p className="print-job-ask">Send it to:</p>
          {targets.map((name, index) => (
            <button
              key={name}
              ref={index === 0 ? firstTarget : undefined}
              type="button"
              className="primary"
              disabled={busy}
              onClick={() => void run(() => client.call('printing.redirectJob', { id: job.id, printer: name }), `${title}: sent to the ${printerTitle(name).toLowerCase()}.`)}
            >
              {printerTitle(name)}
            </button>
          ))}
          <button type="button" className="ghost" onClick={() => setMode(null)}>
            Cancel
          </button>
        </div>
      ) : null}
      {mode === 'discard' ? (
        <form className="print-job-more discard-job" onSubmit={(event) => void discard(event)} aria-label={`Discard ${title}`}>
          <p className="print-job-ask">Discard it? It will not print.{managerPinNeeded ? ' A manager approves it with their PIN.' : ''}</p>
          {managerPinNeeded ? (
            <ManagerPinField permission="sync.resolve" inputRef={pinRef} autoFocus value={pin} onChange={setPin} errorId={pinErrorId} error={pinError} />
          ) : null}
          <div className="row-actions">
            <button type="button" className="secondary" onClick={() => setMode(null)}>
              Keep it
            </button>
            <button type="submit" className="danger" disabled={busy}>
              Discard ticket
            </button>
          </div>
          {/* Under the PIN and its buttons, tied to the field (aria-describedby). */}
          <FieldError id={pinErrorId} message={pinError} />
        </form>
      ) : null}
      <ErrorNote message={error} />
    </li>
  );
}
