// The printers' flags, kitchen routing, line diffs (ADD/VOID) and the DLE EOT status bits: pure functions.
import { describe, expect, it } from 'vitest';
import {
  blockingCondition,
  defaultKitchenPrinter,
  diffKitchenLines,
  encodeStatus,
  extractPrintingFlags,
  kitchenJobs,
  parsePrinterUrl,
  parsePrintingConfig,
  parseStatus,
  routeKitchenLines,
} from '../../printing';
import { sampleTicket } from './fixtures';

describe('printer configuration', () => {
  it('parses a receipt printer, kitchen printers and routing into a typed configuration', () => {
    const result = parsePrintingConfig({
      receiptPrinter: 'tcp://10.0.0.20',
      kitchenPrinters: ['grill=tcp://10.0.0.21:9101?cpl=42', 'bar=/dev/usb/lp0', 'test=file:/tmp/kitchen.bin?cpl=32&encoding=cp858&commands=generic'],
      printRouting: 'cat_mains=grill, Drinks=bar ,desserts=receipt',
    });
    expect(result).toEqual({
      ok: true,
      config: {
        receipt: { name: 'receipt', url: 'tcp://10.0.0.20', target: { kind: 'tcp', host: '10.0.0.20', port: 9100 }, cpl: 48, encoding: 'multilingual', commandSet: 'escpos', statusQuery: true },
        kitchen: [
          { name: 'grill', url: 'tcp://10.0.0.21:9101?cpl=42', target: { kind: 'tcp', host: '10.0.0.21', port: 9101 }, cpl: 42, encoding: 'multilingual', commandSet: 'escpos', statusQuery: true },
          { name: 'bar', url: '/dev/usb/lp0', target: { kind: 'device', path: '/dev/usb/lp0', create: false }, cpl: 48, encoding: 'multilingual', commandSet: 'escpos', statusQuery: false },
          { name: 'test', url: 'file:/tmp/kitchen.bin?cpl=32&encoding=cp858&commands=generic', target: { kind: 'device', path: '/tmp/kitchen.bin', create: true }, cpl: 32, encoding: 'cp858', commandSet: 'generic', statusQuery: false },
        ],
        routing: { cat_mains: 'grill', Drinks: 'bar', desserts: 'receipt' },
      },
    });
    if (result.ok) expect(defaultKitchenPrinter(result.config)).toBe('grill');
  });

  it('is empty with no flags: no printers, everything to the receipt printer', () => {
    const result = parsePrintingConfig({});
    expect(result).toEqual({ ok: true, config: { receipt: null, kitchen: [], routing: {} } });
    if (result.ok) expect(defaultKitchenPrinter(result.config)).toBe('receipt');
  });

  it('takes the kitchen printers as one comma-separated value (an environment variable)', () => {
    const result = parsePrintingConfig({ kitchenPrinters: 'grill=tcp://[::1]:9100, bar=tcp://bar.local' });
    expect(result.ok && result.config.kitchen.map((p) => [p.name, p.target])).toEqual([
      ['grill', { kind: 'tcp', host: '::1', port: 9100 }],
      ['bar', { kind: 'tcp', host: 'bar.local', port: 9100 }],
    ]);
  });

  it.each([
    [{ receiptPrinter: 'ftp://x' }, '--receipt-printer', 'is not a printer address'],
    [{ receiptPrinter: 'tcp:///' }, '--receipt-printer', 'names no host'],
    [{ receiptPrinter: 'tcp://:9100' }, '--receipt-printer', 'is not a valid tcp://host:port address'],
    [{ receiptPrinter: 'tcp://printer:70000' }, '--receipt-printer', 'is not a valid tcp://host:port address'],
    [{ receiptPrinter: 'tcp://printer?cpl=80' }, '--receipt-printer', 'cpl must be'],
    [{ receiptPrinter: 'tcp://printer?colour=red' }, '--receipt-printer', 'unknown setting "colour"'],
    [{ receiptPrinter: '/dev/usb/lp0?status=on' }, '--receipt-printer', 'status queries need a tcp:// printer'],
    [{ kitchenPrinters: ['tcp://10.0.0.21'] }, '--kitchen-printer', 'must be NAME=URL'],
    [{ kitchenPrinters: ['grill=tcp://a', 'Grill=tcp://b'] }, '--kitchen-printer', '"Grill" is given twice'],
    [{ kitchenPrinters: ['receipt=tcp://a'] }, '--kitchen-printer', "is the receipt printer's name"],
    [{ kitchenPrinters: ['the grill=tcp://a'] }, '--kitchen-printer', 'is not a printer name'],
    [{ kitchenPrinters: ['grill=lpt1'] }, '--kitchen-printer', 'grill: "lpt1" is not a printer address'],
    [{ kitchenPrinters: ['grill=tcp://a'], printRouting: 'drinks=bar' }, '--print-routing', 'no printer is named "bar" (configured: grill)'],
    [{ kitchenPrinters: ['grill=tcp://a'], printRouting: 'drinks' }, '--print-routing', 'must be CATEGORY=PRINTER'],
    [{ kitchenPrinters: ['grill=tcp://a'], printRouting: 'drinks=grill,Drinks=grill' }, '--print-routing', 'routed twice'],
    [{ printRouting: 'drinks=receipt' }, '--print-routing', 'no printer is configured'],
  ])('refuses %j naming the field', (flags, field, message) => {
    const result = parsePrintingConfig(flags);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.field).toBe(field);
      expect(result.error.message).toContain(message);
    }
  });

  it('takes the printing flags out of a command line, leaving the rest in order', () => {
    expect(
      extractPrintingFlags(['--port', '4000', '--receipt-printer', 'tcp://r', '--kitchen-printer=grill=tcp://g', '--verbose', '--kitchen-printer', 'bar=tcp://b', '--print-routing', 'drinks=bar']),
    ).toEqual({
      ok: true,
      flags: { receiptPrinter: 'tcp://r', kitchenPrinters: ['grill=tcp://g', 'bar=tcp://b'], printRouting: 'drinks=bar' },
      rest: ['--port', '4000', '--verbose'],
    });
    expect(extractPrintingFlags(['--receipt-printer'])).toEqual({ ok: false, error: { field: '--receipt-printer', message: 'needs a value' } });
    expect(extractPrintingFlags(['--receipt-printer=a', '--receipt-printer=b'])).toEqual({ ok: false, error: { field: '--receipt-printer', message: 'is given twice' } });
  });

  it('parses Windows paths as device paths', () => {
    expect(parsePrinterUrl('\\\\localhost\\EpsonRaw')).toMatchObject({ ok: true, printer: { target: { kind: 'device', path: '\\\\localhost\\EpsonRaw', create: false } } });
    expect(parsePrinterUrl('file:///C:/spool/out.bin')).toMatchObject({ ok: true, printer: { target: { kind: 'device', path: 'C:/spool/out.bin', create: true } } });
  });
});

describe('kitchen routing', () => {
  const lines = sampleTicket().lines;

  it('sends each line to its category\'s printer (by id, else by name in any case), the rest to the default', () => {
    const routes = routeKitchenLines(lines, { cat_mains: 'grill', drinks: 'bar' }, 'kitchen');
    expect(routes.map((r) => [r.printer, r.lines.map((l) => l.name)])).toEqual([
      ['grill', ['Cheeseburger']],
      ['bar', ['Mojito']],
      ['kitchen', ['Fries']],
    ]);
    expect(routeKitchenLines(lines, {}, 'receipt')).toEqual([{ printer: 'receipt', lines }]);
    expect(routeKitchenLines([], { cat_mains: 'grill' }, 'receipt')).toEqual([]);
  });

  it('makes one job per printer with a dedupe key per order version and printer', () => {
    const jobs = kitchenJobs({ orderId: 'ord_1', version: 1, doc: sampleTicket('A5'), routing: { cat_mains: 'grill', cat_sides: 'grill', drinks: 'bar' }, defaultPrinter: 'grill' });
    expect(jobs.map((j) => [j.printer, j.kind, j.dedupeKey, (j.payload as { station: string; lines: { name: string }[] }).lines.map((l) => l.name)])).toEqual([
      ['grill', 'kitchen', 'kitchen:ord_1:1:grill', ['Cheeseburger', 'Fries']],
      ['bar', 'kitchen', 'kitchen:ord_1:1:bar', ['Mojito']],
    ]);
    expect((jobs[0]?.payload as { station: string }).station).toBe('grill');
    const add = kitchenJobs({ orderId: 'ord_1', version: 'op_2', doc: { ...sampleTicket('A5'), variant: 'add' }, routing: {}, defaultPrinter: 'grill' });
    expect(add.map((j) => [j.kind, j.dedupeKey])).toEqual([['kitchen_add', 'kitchen_add:ord_1:op_2:grill']]);
    const voidAll = kitchenJobs({ orderId: 'ord_1', version: 'cancel', doc: { ...sampleTicket('A5'), variant: 'void', lines: [] }, routing: {}, defaultPrinter: 'grill', voidPrinters: ['grill', 'bar'] });
    expect(voidAll.map((j) => j.dedupeKey)).toEqual(['kitchen_void:ord_1:cancel:grill', 'kitchen_void:ord_1:cancel:bar']);
  });

  it('tells the units added (ADD) and taken off (VOID) between two versions of the lines', () => {
    const before = [
      { name: 'Burger', quantity: 2, modifiers: ['cheese', 'bacon'] },
      { name: 'Fries', quantity: 1 },
      { name: 'Cola', quantity: 2 },
    ];
    const after = [
      { name: 'Burger', quantity: 3, modifiers: ['bacon', 'cheese'] },
      { name: 'Cola', quantity: 1 },
      { name: 'Burger', quantity: 1, modifiers: [], note: 'plain' },
    ];
    expect(diffKitchenLines(before, after)).toEqual({
      added: [
        { name: 'Burger', quantity: 1, modifiers: ['bacon', 'cheese'] },
        { name: 'Burger', quantity: 1, modifiers: [], note: 'plain' },
      ],
      voided: [
        { name: 'Fries', quantity: 1 },
        { name: 'Cola', quantity: 1 },
      ],
    });
    expect(diffKitchenLines(before, before)).toEqual({ added: [], voided: [] });
  });
});

describe('DLE EOT status', () => {
  it('reads an online printer with paper', () => {
    const status = parseStatus([0x16, 0x12, 0x12, 0x12]);
    expect(status).toMatchObject({ online: true, coverOpen: false, paperOut: false, paperNearEnd: false, error: false, drawerSignal: true });
    expect(blockingCondition(status)).toBeNull();
  });

  it('reads paper near end (still prints), paper out, cover open and errors per the Epson bits', () => {
    const nearEnd = parseStatus([0x12, 0x12, 0x12, 0x1e]);
    expect(nearEnd).toMatchObject({ online: true, paperNearEnd: true, paperOut: false });
    expect(blockingCondition(nearEnd)).toBeNull();

    const out = parseStatus([0x1a, 0x32, 0x12, 0x7e]); // offline; paper-end stop; near end + end sensors
    expect(out).toMatchObject({ online: false, paperOut: true, paperNearEnd: true, coverOpen: false });
    expect(blockingCondition(out)).toEqual({ state: 'paper_out', reason: 'the printer is out of paper' });

    const cover = parseStatus([0x1a, 0x16, 0x12, 0x12]);
    expect(cover).toMatchObject({ online: false, coverOpen: true, paperOut: false });
    expect(blockingCondition(cover)?.state).toBe('cover_open');

    const cutter = parseStatus([0x1a, 0x52, 0x1a, 0x12]);
    expect(cutter).toMatchObject({ error: true, errors: { autocutter: true, mechanical: false, unrecoverable: false, autoRecoverable: false } });
    expect(blockingCondition(cutter)).toEqual({ state: 'error', reason: 'the printer reports an error (autocutter)' });

    expect(blockingCondition(parseStatus([0x1a, 0x12, 0x12, 0x12]))?.state).toBe('offline');
  });

  it('encodes what a printer in a condition answers, and refuses bytes that are not status answers', () => {
    for (const condition of [{}, { paperOut: true }, { coverOpen: true }, { paperNearEnd: true }, { error: 'unrecoverable' as const }]) {
      const status = parseStatus(encodeStatus(condition));
      expect(status.paperOut).toBe(Boolean((condition as { paperOut?: boolean }).paperOut));
      expect(status.coverOpen).toBe(Boolean((condition as { coverOpen?: boolean }).coverOpen));
    }
    expect(() => parseStatus([0x00, 0x12, 0x12, 0x12])).toThrow('not a DLE EOT status byte');
    expect(() => parseStatus(new Uint8Array([0x12]))).toThrow('4 bytes');
  });
});
