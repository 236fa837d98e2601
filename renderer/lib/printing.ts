// What the renderer knows of the printers: one status per bridge client, shared by every component
// that shows it (the top bar pill, the Orders receipt, the last order, the drawer), kept live by the
// `printing.status` event and by the status each printing command answers with.
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import type { PrinterView, PrintingStatus, PrintJobView } from '../../bridge/printing/contract';
import type { BridgeClient } from './bridge-client';
import { useBridge } from './hooks';

/** The receipt printer's name in the status (kitchen printers have the names IT gave them). */
export const RECEIPT_PRINTER = 'receipt';

class PrintingStatusStore {
  status: PrintingStatus | null = null;
  /** Bumped by every new status: a refresh that started before one must not overwrite it. */
  generation = 0;
  readonly listeners = new Set<() => void>();

  constructor(private readonly client: BridgeClient) {
    client.on('printing.status', (status) => this.publish(status));
  }

  publish(status: PrintingStatus): void {
    this.generation += 1;
    this.status = status;
    for (const listener of this.listeners) listener();
  }

  refresh(): void {
    const asked = this.generation;
    this.client.call('printing.status', {}).then(
      (status) => {
        if (this.generation === asked) this.publish(status);
      },
      () => undefined,
    );
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

const stores = new WeakMap<BridgeClient, PrintingStatusStore>();

function storeOf(client: BridgeClient): PrintingStatusStore {
  let store = stores.get(client);
  if (!store) stores.set(client, (store = new PrintingStatusStore(client)));
  return store;
}

/**
 * The printers' status, live. `publish` shares a status a printing command answered with (a
 * discard or "it printed" changes no printer, so no event follows it); `refresh` asks again.
 */
export function usePrintingStatus(): { status: PrintingStatus | null; refresh: () => void; publish: (status: PrintingStatus) => void } {
  const client = useBridge();
  const store = storeOf(client);
  const status = useSyncExternalStore(store.subscribe, () => store.status);
  useEffect(() => store.refresh(), [store]);
  const refresh = useCallback(() => store.refresh(), [store]);
  const publish = useCallback((next: PrintingStatus) => store.publish(next), [store]);
  return { status, refresh, publish };
}

/** The receipt printer, when one is set up on this terminal. */
export function receiptPrinter(status: PrintingStatus | null): PrinterView | null {
  return status?.printers.find((p) => p.name === RECEIPT_PRINTER && p.configured) ?? null;
}

/** "Receipt printer", "Kitchen printer", "Grill printer". */
export function printerTitle(name: string): string {
  if (name === RECEIPT_PRINTER) return 'Receipt printer';
  return `${name.charAt(0).toUpperCase()}${name.slice(1)} printer`;
}

export const PRINTER_STATE_LABEL: Record<PrinterView['state'], string> = {
  ready: 'Ready',
  printing: 'Printing',
  offline: 'Offline',
  paper_out: 'Out of paper',
  cover_open: 'Cover open',
  error: 'Error',
};

/** What a printer needs, in a few words for the top bar; null when it needs nothing. */
export function printerHeadline(printer: PrinterView): string | null {
  if (!printer.configured) return `No printer "${printer.name}" set up`;
  const title = printerTitle(printer.name);
  switch (printer.state) {
    case 'offline':
      return `${title} offline`;
    case 'paper_out':
      return `${title} out of paper`;
    case 'cover_open':
      return `${title} cover open`;
    case 'error':
      return `${title} error`;
    default:
      if (printer.inDoubt > 0) return `${title}: check the last ticket`;
      if (printer.failed > 0) return `${title}: a ticket failed`;
      return printer.paperLow ? `${title} paper low` : null;
  }
}

/**
 * The tickets a person must decide on. The core's `attention` also lists the ticket a printer is
 * sending right now (state "sending", like a ticket in doubt); its printer's `inDoubt` count leaves
 * that one out. So a printing printer keeps only its oldest `inDoubt` sending tickets (the one being
 * sent is the newest: in-doubt tickets are never picked up again on their own).
 */
export function jobsNeedingAttention(status: PrintingStatus): PrintJobView[] {
  const byPrinter = new Map(status.printers.map((p) => [p.name, p]));
  const kept = new Map<string, number>();
  return status.attention.filter((job) => {
    const printer = byPrinter.get(job.printer);
    if (job.state !== 'sending' || !printer || printer.state !== 'printing') return true;
    const shown = kept.get(job.printer) ?? 0;
    if (shown >= printer.inDoubt) return false;
    kept.set(job.printer, shown + 1);
    return true;
  });
}

/** The pill's words: quiet when every printer can print and no ticket waits for a person. */
export function printingHeadline(status: PrintingStatus): { tone: 'ok' | 'warn'; text: string } {
  const problems = status.printers.map(printerHeadline).filter((text): text is string => text !== null);
  if (problems.length > 0) return { tone: 'warn', text: problems.length === 1 ? problems[0]! : `${problems[0]!} +${problems.length - 1} more` };
  const jobs = jobsNeedingAttention(status).length;
  if (jobs > 0) return { tone: 'warn', text: `${jobs} ${jobs === 1 ? 'ticket needs' : 'tickets need'} you` };
  return { tone: 'ok', text: 'Printers ready' };
}

/** "3 tickets waiting · 1 may have printed · paper low". */
export function printerFacts(printer: PrinterView): string {
  const facts = [`${printer.pending} ${printer.pending === 1 ? 'ticket' : 'tickets'} waiting`];
  if (printer.inDoubt > 0) facts.push(`${printer.inDoubt} may have printed`);
  if (printer.failed > 0) facts.push(`${printer.failed} failed`);
  if (printer.paperLow && printer.state !== 'paper_out') facts.push('paper low');
  return facts.join(' · ');
}

const KIND_LABEL: Record<PrintJobView['kind'], string> = {
  receipt: 'Receipt',
  refund_receipt: 'Refund receipt',
  kitchen: 'Kitchen ticket',
  kitchen_add: 'Kitchen ticket (items added)',
  kitchen_void: 'Kitchen ticket (VOID)',
  drawer: 'Cash drawer opening',
  report: 'Report',
};

/** "Kitchen ticket · Order A17". */
export function jobTitle(job: PrintJobView): string {
  return `${KIND_LABEL[job.kind]}${job.orderLabel ? ` · Order ${job.orderLabel}` : ''}`;
}

/** Why a ticket waits for a person, and what to do, in the cashier's words. */
export function jobExplanation(job: PrintJobView, configured: boolean): string {
  if (job.state === 'sending') {
    return 'It may have printed: the printer stopped in the middle. Look at the printer. If it came out, press “It printed”; if not, “Print again” prints it marked REPRINT.';
  }
  if (job.state === 'failed') return `It could not be printed${job.lastError ? ` (${job.lastError})` : ''}. Print it again, send it to another printer, or discard it.`;
  if (!configured) return `It waits for the printer "${job.printer}", which is not set up on this terminal. Send it to another printer, or discard it.`;
  return job.lastError ? `It waits: ${job.lastError}.` : 'It waits for its turn.';
}
