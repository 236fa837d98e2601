// Printing as the register sees it, on real cores (startTestCore: a seeded SQLite data dir) and real
// TCP printers on loopback (test/printing/fake-printer.ts):
// - a card payment committed (core.invoke('payments.take') has answered) → the receipt's last byte
//   received by the printer (its `endedAt`), next to a raw node:net connect + write + end of the
//   same receipt bytes until the same kind of server saw the end;
// - the register never waits for the printer: payments.take's own time with the receipt printer
//   up, and with a printer that takes connections but never answers, each next to the same call on
//   a core with no printer configured.
// The cores, the printers and the raw writes take turns, sale by sale, so all see the same load.
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { FakePrinter, type FakeConnection } from '../../printing/fake-printer';
import { decodeEscPos } from '../../printing/escpos-decode';
import { ITEMS, startTestCore, type TestCore } from '../../core/fixtures';
import { percentile, row, type BenchRow, type BenchSuite } from '../harness';

const PAYMENTS = 100;
const WARMUP = 10;
const TARGET_MS = 150;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(1);
  }
}

/** The receipt printer's loop is idle: nothing pending, nothing being sent, state ready. */
async function printerIdle(t: TestCore): Promise<boolean> {
  const receipt = (await t.call('printing.status', {})).printers.find((p) => p.name === 'receipt');
  return receipt !== undefined && receipt.state === 'ready' && receipt.pending === 0 && receipt.inDoubt === 0;
}

/** A one-line order, placed; its kitchen ticket (which the receipt printer prints too) is out of the way before the payment. */
async function place(t: TestCore, printer: FakePrinter | null): Promise<{ id: string; label: string; total: number }> {
  const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }] });
  if (printer) await until(() => printerIdle(t), `the kitchen ticket of ${order.label}`);
  return { id: order.id, label: order.label, total: order.total };
}

/** payments.take through the bridge, timed: ms of the call, and performance.now() when it answered. */
async function take(t: TestCore, order: { id: string; total: number }): Promise<{ callMs: number; answeredAt: number; calledAt: number }> {
  const calledAt = performance.now();
  const response = await t.core.invoke({ command: 'payments.take', payload: { orderId: order.id, method: 'card', amount: order.total } });
  const answeredAt = performance.now();
  if (!response.ok) throw new Error(`payments.take: ${response.error.message}`);
  return { callMs: answeredAt - calledAt, answeredAt, calledAt };
}

/** The connection after `from` that carried this order's receipt, once its last byte arrived. */
function receiptConnection(printer: FakePrinter, from: number, label: string): FakeConnection | undefined {
  return printer.connections.slice(from).find((c) => {
    if (c.endedAt === null || c.jobBytes.length === 0) return false;
    const text = decodeEscPos(c.jobBytes).text;
    return /\bTOTAL\b/.test(text) && new RegExp(`\\bOrder ${label}\\b`).test(text);
  });
}

/** Raw limit: connect, write the bytes, end, until the printer (the same server code) saw the end. */
async function rawWrite(printer: FakePrinter, bytes: Buffer): Promise<number> {
  const from = printer.connections.length;
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const socket = connect(printer.port, '127.0.0.1', () => {
      socket.end(bytes);
    });
    socket.on('error', reject);
    socket.on('close', () => resolve());
    socket.resume();
  });
  await until(() => printer.connections.slice(from).some((c) => c.endedAt !== null), 'the raw write');
  const seen = printer.connections.slice(from).find((c) => c.endedAt !== null) as FakeConnection;
  if (!seen.jobBytes.equals(bytes)) throw new Error('the raw write arrived altered');
  return (seen.endedAt as number) - started;
}

const sorted = (samples: number[]) => [...samples].sort((a, b) => a - b);
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

const suite: BenchSuite = {
  name: 'printing',
  async run(): Promise<BenchRow[]> {
    const printer = await FakePrinter.start();
    const silent = await FakePrinter.start();
    await silent.setMode('silent');
    const rawPrinter = await FakePrinter.start();
    const up = await startTestCore({ printing: { receiptPrinter: printer.url } });
    const mute = await startTestCore({ printing: { receiptPrinter: silent.url } });
    const none = await startTestCore();
    try {
      const printed: number[] = [];
      const printedFromCall: number[] = [];
      const takeUp: number[] = [];
      const takeMute: number[] = [];
      const takeNone: number[] = [];
      const raw: number[] = [];
      let receiptBytes: Buffer | undefined;
      const labels = new Set<string>();

      for (let i = 0; i < WARMUP + PAYMENTS; i++) {
        const measured = i >= WARMUP;

        // Receipt printer up: payment → receipt on paper.
        const order = await place(up, printer);
        labels.add(order.label);
        const from = printer.connections.length;
        const paid = await take(up, order);
        await until(() => receiptConnection(printer, from, order.label) !== undefined, `the receipt of ${order.label}`);
        const connection = receiptConnection(printer, from, order.label) as FakeConnection;
        receiptBytes ??= Buffer.from(connection.jobBytes);
        await until(() => printerIdle(up), `the printer idle after ${order.label}`);

        // A printer that never answers its status, and no printer at all.
        const muted = await take(mute, await place(mute, null));
        const bare = await take(none, await place(none, null));

        const rawMs = await rawWrite(rawPrinter, receiptBytes);
        if (!measured) continue;
        printed.push((connection.endedAt as number) - paid.answeredAt);
        printedFromCall.push((connection.endedAt as number) - paid.calledAt);
        takeUp.push(paid.callMs);
        takeMute.push(muted.callMs);
        takeNone.push(bare.callMs);
        raw.push(rawMs);
      }

      // Every receipt on paper exactly once (and its kitchen ticket): nothing doubled by the measuring.
      const receiptsPrinted = printer.decodedJobs().filter((d) => /\bTOTAL\b/.test(d.text)).length;
      const exactlyOnce = receiptsPrinted === labels.size && printer.jobs().length === 2 * labels.size && printer.jobs().every((c) => c.endedCleanly);
      const mutePending = (await mute.call('printing.status', {})).printers.find((p) => p.name === 'receipt');

      const p = (samples: number[], q: number) => percentile(sorted(samples), q);
      const latencyP95 = p(printed, 95);
      const rawP95 = p(raw, 95);
      process.stderr.write(
        `  payment answered → receipt received: p50 ${fmt(p(printed, 50))}, p95 ${fmt(latencyP95)}, min ${fmt(sorted(printed)[0] as number)}, max ${fmt(sorted(printed).at(-1) as number)}; ` +
          `from the call: p50 ${fmt(p(printedFromCall, 50))}, p95 ${fmt(p(printedFromCall, 95))}; raw TCP p50 ${fmt(p(raw, 50))}\n` +
          `  payments.take p50: printer up ${fmt(p(takeUp, 50))}, printer not answering ${fmt(p(takeMute, 50))}, no printer ${fmt(p(takeNone, 50))}; ` +
          `receipts printed ${receiptsPrinted} for ${labels.size} payments; ${mutePending?.pending ?? '?'} waiting at the printer that does not answer (${mutePending?.state ?? '?'})\n`,
      );

      const takeUpP95 = p(takeUp, 95);
      const takeMuteP95 = p(takeMute, 95);
      const takeNoneP95 = p(takeNone, 95);
      return [
        row({
          name: `card payment committed (payments.take answered) → receipt fully received by the printer, ${PAYMENTS} payments (p50 ${fmt(p(printed, 50))})${exactlyOnce ? '' : ' (receipts missing or doubled)'}`,
          value: latencyP95,
          unit: 'ms p95',
          baselineName: `raw node:net connect + write ${receiptBytes?.length ?? 0} B + end, until the server saw the end (p50 ${fmt(p(raw, 50))})`,
          baseline: rawP95,
          better: 'lower',
          target: `< ${TARGET_MS} ms, each receipt once`,
          ok: latencyP95 < TARGET_MS && exactlyOnce,
        }),
        row({
          name: `payments.take (card) with the receipt printer up, ${PAYMENTS} payments`,
          value: takeUpP95,
          unit: 'ms p95',
          baselineName: 'the same call on a core with no printer configured',
          baseline: takeNoneP95,
          better: 'lower',
          target: `ratio ≤ 1.5 (the register never waits for the printer)`,
          ok: takeUpP95 / takeNoneP95 <= 1.5,
        }),
        row({
          name: `payments.take (card) with a receipt printer that never answers its status (2 s timeout), ${PAYMENTS} payments`,
          value: takeMuteP95,
          unit: 'ms p95',
          baselineName: 'the same call on a core with no printer configured',
          baseline: takeNoneP95,
          better: 'lower',
          target: `ratio ≤ 1.5 (the register never waits for the printer)`,
          ok: takeMuteP95 / takeNoneP95 <= 1.5,
        }),
      ];
    } finally {
      for (const t of [up, mute, none]) {
        await t.core.shutdown();
        rmSync(t.dataDir, { recursive: true, force: true });
      }
      for (const fake of [printer, silent, rawPrinter]) await fake.stop();
    }
  },
};

export default suite;
