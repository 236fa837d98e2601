// The printers pill's words and the tickets the panel lists, from a status as the core sends it.
import { describe, expect, it } from 'vitest';
import type { PrinterView, PrintingStatus, PrintJobView } from '../../bridge/printing/contract';
import { jobsNeedingAttention, printerHeadline, printingHeadline, printerTitle } from '../../renderer/lib/printing';

const printer = (name: string, changes: Partial<PrinterView> = {}): PrinterView => ({
  name,
  url: 'tcp://10.0.0.20:9100',
  state: 'ready',
  pending: 0,
  inDoubt: 0,
  failed: 0,
  paperLow: false,
  message: null,
  configured: true,
  ...changes,
});
const job = (id: string, printerName: string, state: PrintJobView['state']): PrintJobView => ({
  id,
  printer: printerName,
  kind: 'kitchen',
  orderLabel: 'A1',
  state,
  lastError: null,
  createdAt: '2025-03-14T11:41:00.000Z',
});
const status = (printers: PrinterView[], attention: PrintJobView[] = []): PrintingStatus => ({ enabled: true, printers, attention });

describe('the printers pill', () => {
  it('is quiet when every printer can print, even while one prints', () => {
    expect(printingHeadline(status([printer('receipt'), printer('kitchen', { state: 'printing', pending: 2 })]))).toEqual({ tone: 'ok', text: 'Printers ready' });
  });

  it('names the printer and what it needs, and how many more need something', () => {
    expect(printingHeadline(status([printer('receipt'), printer('kitchen', { state: 'paper_out' })]))).toEqual({ tone: 'warn', text: 'Kitchen printer out of paper' });
    expect(printingHeadline(status([printer('receipt', { state: 'offline' }), printer('bar', { state: 'cover_open' })]))).toEqual({ tone: 'warn', text: 'Receipt printer offline +1 more' });
    expect(printerHeadline(printer('grill', { inDoubt: 1 }))).toBe('Grill printer: check the last ticket');
    expect(printerHeadline(printer('receipt', { paperLow: true }))).toBe('Receipt printer paper low');
    expect(printerHeadline(printer('bar', { configured: false, state: 'error', url: '' }))).toBe('No printer "bar" set up');
    expect(printerTitle('receipt')).toBe('Receipt printer');
  });

  it('does not count the ticket a printer is sending right now as one in doubt', () => {
    // The core lists every "sending" ticket; the printer's inDoubt count leaves out the one being sent.
    const printing = status([printer('kitchen', { state: 'printing', inDoubt: 0 })], [job('pj_1', 'kitchen', 'sending')]);
    expect(jobsNeedingAttention(printing)).toEqual([]);
    expect(printingHeadline(printing).text).toBe('Printers ready');
    const oneInDoubt = status([printer('kitchen', { state: 'printing', inDoubt: 1 })], [job('pj_old', 'kitchen', 'sending'), job('pj_now', 'kitchen', 'sending'), job('pj_f', 'kitchen', 'failed')]);
    expect(jobsNeedingAttention(oneInDoubt).map((j) => j.id)).toEqual(['pj_old', 'pj_f']);
    // Not printing: every sending ticket is in doubt.
    const stopped = status([printer('kitchen', { state: 'error', inDoubt: 1 })], [job('pj_1', 'kitchen', 'sending')]);
    expect(jobsNeedingAttention(stopped).map((j) => j.id)).toEqual(['pj_1']);
    expect(printingHeadline(status([printer('kitchen')], [job('pj_f', 'kitchen', 'failed')]))).toEqual({ tone: 'warn', text: '1 ticket needs you' });
  });
});
