// The print worker against real fake printers (TCP on 127.0.0.1) and a real store: each ticket
// prints once, through outages, paper out and restarts; a job that may have printed is never
// printed again without a person.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../store';
import { drawerJob, kitchenJobs, parsePrintingConfig, PrintWorker, queryStatus, receiptJob, REPRINT_TEXT, sendBytes, type PrinterState } from '../../printing';
import { normalizedText, decodeEscPos } from './escpos-decode';
import { FakePrinter } from './fake-printer';
import { sampleReceipt, sampleTicket } from './fixtures';
import { tempDir } from './helpers';
import { FAST, sleep, startRig, until, type Rig } from './rig';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

function enqueueReceipt(r: Rig, marker: string) {
  const result = r.store.printQueue.enqueue([receiptJob({ orderId: `ord_${marker}`, key: 'paid', doc: sampleReceipt(marker) })]);
  r.worker.notify();
  return result.added[0]!;
}

function statesSeen(r: Rig, name = 'receipt'): PrinterState[] {
  const states = r.changes.map((views) => views.find((v) => v.name === name)?.state).filter((s): s is PrinterState => s !== undefined);
  return states.filter((s, i) => s !== states[i - 1]);
}

describe('printing', () => {
  it('prints each pending job once, oldest first, and marks it done', async () => {
    rig = await startRig();
    const r = rig;
    const jobs = ['R-1001', 'R-1002', 'R-1003'].map((m) => enqueueReceipt(r, m));
    await r.receipt.waitFor(() => r.receipt.jobs().length >= 3, 'three receipts');
    await until(() => r.store.printQueue.list({ state: 'done' }).length === 3, 'three jobs done');
    expect(['R-1001', 'R-1002', 'R-1003'].map((m) => r.receipt.count(m))).toEqual([1, 1, 1]);
    expect(r.receipt.decodedJobs().map((d) => /Order (R-\d+)/.exec(d.text)?.[1])).toEqual(['R-1001', 'R-1002', 'R-1003']);
    expect(r.receipt.cuts()).toBe(3);
    for (const job of jobs) expect(r.store.printQueue.get(job.id)).toMatchObject({ state: 'done', attempts: 1, lastError: null });
    // Each job: one connection, the status asked before the job (DLE EOT 1..4), closed cleanly.
    for (const connection of r.receipt.jobs()) {
      expect(connection.statusQueries).toBe(4);
      expect(connection.endedCleanly).toBe(true);
    }
    // The same tickets queued again (a retried write) and a restart print nothing more.
    expect(r.store.printQueue.enqueue(['R-1001', 'R-1002'].map((m) => receiptJob({ orderId: `ord_${m}`, key: 'paid', doc: sampleReceipt(m) }))).added).toEqual([]);
    await r.restart();
    await sleep(150);
    expect(r.receipt.jobs()).toHaveLength(3);
    expect(r.view()).toMatchObject({ state: 'ready', pending: 0, inDoubt: 0, failed: 0, lastError: null, configured: true });
  });

  it('prints jobs committed before it started (a restart) once', async () => {
    rig = await startRig({ start: false });
    const r = rig;
    r.store.printQueue.enqueue(['S-1', 'S-2'].map((m) => receiptJob({ orderId: m, key: 'paid', doc: sampleReceipt(m) })));
    r.worker.start();
    await r.receipt.waitFor(() => r.receipt.jobs().length >= 2, 'two receipts');
    await sleep(100);
    expect([r.receipt.count('S-1'), r.receipt.count('S-2')]).toEqual([1, 1]);
  });

  it('keeps jobs pending while the printer is off, reports it, and prints them once when it is back', async () => {
    rig = await startRig();
    const r = rig;
    await r.receipt.setMode('refuse');
    const job = enqueueReceipt(r, 'OFF-1');
    enqueueReceipt(r, 'OFF-2');
    await until(() => r.view().state === 'offline', 'the printer reported offline');
    const waiting = r.store.printQueue.get(job.id)!;
    expect(waiting.state).toBe('pending');
    expect(waiting.lastError).toMatch(/cannot reach the printer at 127\.0\.0\.1:\d+: ECONNREFUSED/);
    expect(waiting.nextAttemptAt).toBeGreaterThan(waiting.createdAt);
    expect(r.view()).toMatchObject({ state: 'offline', pending: 2 });
    expect(r.view().lastError).toContain('ECONNREFUSED');
    await sleep(250); // several retries while it is off
    expect(r.receipt.jobs()).toHaveLength(0);

    await r.receipt.setMode('up');
    await r.receipt.waitFor(() => r.receipt.jobs().length >= 2, 'both receipts after the printer came back', 3_000);
    await until(() => r.view().state === 'ready', 'ready again');
    await sleep(200);
    expect([r.receipt.count('OFF-1'), r.receipt.count('OFF-2')]).toEqual([1, 1]);
    expect(r.store.printQueue.get(job.id)).toMatchObject({ state: 'done', lastError: null });
    expect(statesSeen(r)).toEqual(expect.arrayContaining(['offline', 'printing', 'ready']));
  });

  it('waits while the printer is out of paper or open, says so, and prints when the status clears', async () => {
    rig = await startRig();
    const r = rig;
    r.receipt.setStatus({ paperOut: true });
    const job = enqueueReceipt(r, 'PAPER-1');
    await until(() => r.view().state === 'paper_out', 'paper out reported');
    expect(r.view()).toMatchObject({ pending: 1, lastError: 'the printer is out of paper' });
    expect(r.store.printQueue.get(job.id)).toMatchObject({ state: 'pending', attempts: 0, lastError: 'the printer is out of paper' });

    r.receipt.setStatus({ coverOpen: true }); // paper put in, cover still open
    await until(() => r.view().state === 'cover_open', 'cover open reported');
    expect(r.receipt.jobs()).toHaveLength(0); // status queries only

    r.receipt.setStatus({ paperNearEnd: true }); // closed: prints, with little paper left
    await r.receipt.waitFor(() => r.receipt.count('PAPER-1') === 1, 'the receipt');
    await until(() => r.view().state === 'ready', 'ready');
    await sleep(100);
    expect(r.receipt.count('PAPER-1')).toBe(1);
    expect(r.view()).toMatchObject({ paperLow: true, pending: 0 });
    expect(statesSeen(r)).toEqual(expect.arrayContaining(['paper_out', 'cover_open', 'ready']));
  });

  it('waits for a printer that does not answer its status, naming the way out', async () => {
    rig = await startRig();
    const r = rig;
    await r.receipt.setMode('silent');
    enqueueReceipt(r, 'MUTE-1');
    await until(() => r.view().state === 'offline', 'offline');
    expect(r.view().lastError).toContain('did not answer its status (DLE EOT) within 300 ms; if it cannot, add ?status=off to its URL');
    expect(r.receipt.jobs()).toHaveLength(0);
  });
});

describe('jobs in doubt', () => {
  it('does not reprint a job left sending by a crash; a person reprints it marked REPRINT', async () => {
    const dir = tempDir();
    const file = join(dir, 'store.db');
    const crashed = openStore(file);
    const [inDoubt] = crashed.printQueue.enqueue([receiptJob({ orderId: 'o1', key: 'paid', doc: sampleReceipt('DOUBT-1') })]).added;
    crashed.printQueue.enqueue([receiptJob({ orderId: 'o2', key: 'paid', doc: sampleReceipt('FINE-2') })]);
    crashed.printQueue.markSending(inDoubt!.id); // then the app died before (or while) sending it
    crashed.close();

    rig = await startRig({ file });
    const r = rig;
    await r.receipt.waitFor(() => r.receipt.count('FINE-2') === 1, 'the pending receipt');
    await sleep(150);
    expect(r.receipt.count('DOUBT-1')).toBe(0);
    expect(r.store.printQueue.jobsInDoubt().map((j) => j.id)).toEqual([inDoubt!.id]);
    expect(r.view()).toMatchObject({ inDoubt: 1, pending: 0 });

    r.store.printQueue.retry(inDoubt!.id);
    r.worker.notify();
    await r.receipt.waitFor(() => r.receipt.count('DOUBT-1') === 1, 'the reprint');
    expect(normalizedText(r.receipt.decodedJobs().find((d) => d.text.includes('DOUBT-1'))!)).toContain(REPRINT_TEXT);
    await until(() => r.store.printQueue.get(inDoubt!.id)?.state === 'done', 'the reprint marked done');
    expect(r.view().inDoubt).toBe(0);
    expect(r.store.printQueue.get(inDoubt!.id)).toMatchObject({ state: 'done', attempts: 2, reprint: true });
  });

  it('leaves a job whose connection broke off mid-job in doubt, and goes on with the next', async () => {
    rig = await startRig();
    const r = rig;
    await r.receipt.setMode('break_mid_job');
    const broken = enqueueReceipt(r, 'BROKE-1');
    await until(() => r.store.printQueue.get(broken.id)?.lastError != null, 'the job in doubt');
    expect(r.store.printQueue.get(broken.id)).toMatchObject({ state: 'sending', attempts: 1 });
    expect(r.store.printQueue.get(broken.id)?.lastError).toMatch(/may have printed: reprint or discard it/);
    await until(() => r.view().inDoubt === 1, 'reported in doubt');
    expect(r.view().state).toBe('error');

    await r.receipt.setMode('up');
    enqueueReceipt(r, 'NEXT-2');
    await r.receipt.waitFor(() => r.receipt.count('NEXT-2') === 1, 'the next receipt');
    await sleep(150);
    expect(r.store.printQueue.get(broken.id)?.state).toBe('sending');
    expect(r.receipt.jobs().filter((c) => c.endedCleanly && decodeEscPos(c.jobBytes).text.includes('BROKE-1'))).toHaveLength(0);
    expect(r.view()).toMatchObject({ state: 'ready', inDoubt: 1 });
    r.store.printQueue.discard(broken.id);
    r.worker.notify();
    await until(() => r.view().inDoubt === 0, 'discarded');
  });
});

describe('what prints where', () => {
  it('kicks the drawer on the receipt printer (ESC p) and cuts receipts (GS V)', async () => {
    rig = await startRig();
    const r = rig;
    r.store.printQueue.enqueue([receiptJob({ orderId: 'o', key: 'cash', doc: sampleReceipt('CASH-1') }), drawerJob({ key: 'pay_1', orderId: 'o' }), drawerJob({ key: 'pay_1' })]);
    r.worker.notify();
    await r.receipt.waitFor(() => r.receipt.jobs().length >= 2, 'receipt and kick');
    await sleep(100);
    expect(r.receipt.drawerKicks()).toEqual([{ pin: 2, onMs: 100, offMs: 200 }]);
    expect(r.receipt.cuts()).toBe(1);
  });

  it('routes a kitchen ticket\'s lines by category to their printers, each printing only its lines', async () => {
    rig = await startRig({ kitchen: ['grill', 'bar'], routing: 'cat_mains=grill,drinks=bar' });
    const r = rig;
    r.store.printQueue.enqueue(kitchenJobs({ orderId: 'ord_9', version: 1, doc: sampleTicket('K-9'), routing: r.config.routing, defaultPrinter: 'grill' }));
    r.worker.notify();
    await r.kitchen.grill!.waitFor(() => r.kitchen.grill!.jobs().length === 1, 'the grill ticket');
    await r.kitchen.bar!.waitFor(() => r.kitchen.bar!.jobs().length === 1, 'the bar ticket');
    const grill = r.kitchen.grill!.text();
    const bar = r.kitchen.bar!.text();
    expect(grill).toContain('K-9');
    expect(grill).toContain('2 x Cheeseburger');
    expect(grill).toContain('1 x Fries');
    expect(grill).toContain('GRILL');
    expect(grill).not.toContain('Mojito');
    expect(bar).toContain('1 x Mojito');
    expect(bar).toContain('BAR');
    expect(bar).not.toContain('Cheeseburger');
    expect(r.receipt.jobs()).toHaveLength(0);
  });

  it('fails a job whose document cannot print without holding up the next', async () => {
    rig = await startRig();
    const r = rig;
    const [bad] = r.store.printQueue.enqueue([{ printer: 'receipt', kind: 'receipt', payload: { nonsense: true }, dedupeKey: 'bad' }]).added;
    enqueueReceipt(r, 'AFTER-1');
    await r.receipt.waitFor(() => r.receipt.count('AFTER-1') === 1, 'the next receipt');
    expect(r.store.printQueue.get(bad!.id)).toMatchObject({ state: 'failed', attempts: 0 });
    expect(r.store.printQueue.get(bad!.id)?.lastError).toMatch(/^its receipt document cannot be printed/);
    await until(() => r.view().failed === 1, 'reported failed');
  });

  it('shows jobs for a printer that is not configured, until they are redirected', async () => {
    rig = await startRig();
    const r = rig;
    const [orphan] = r.store.printQueue.enqueue(kitchenJobs({ orderId: 'o', version: 1, doc: sampleTicket('LOST-1'), routing: {}, defaultPrinter: 'pizza' })).added;
    r.worker.notify();
    await until(() => r.changes.some((views) => views.some((v) => v.name === 'pizza')), 'the unknown printer reported');
    expect(r.worker.status().find((v) => v.name === 'pizza')).toMatchObject({ configured: false, state: 'error', pending: 1 });
    r.store.printQueue.redirect(orphan!.id, 'receipt');
    r.worker.notify();
    await r.receipt.waitFor(() => r.receipt.count('LOST-1') === 1, 'the redirected ticket');
  });

  it('writes to a device path (file: here) and appends job after job', async () => {
    const dir = tempDir();
    const out = join(dir, 'lp0.bin');
    const parsed = parsePrintingConfig({ receiptPrinter: `file:${out}` });
    if (!parsed.ok) throw new Error(parsed.error.message);
    rig = await startRig();
    const r = rig;
    await r.worker.stop();
    const worker = new PrintWorker({ queue: r.store.printQueue, printers: parsed.config, ...FAST });
    worker.start();
    try {
      r.store.printQueue.enqueue(['DEV-1', 'DEV-2'].map((m) => receiptJob({ orderId: m, key: 'p', doc: sampleReceipt(m) })));
      worker.notify();
      await until(() => r.store.printQueue.list({ state: 'done' }).length === 2, 'both written');
      const paper = decodeEscPos(readFileSync(out));
      expect(paper.text.split('DEV-1').length - 1).toBe(1);
      expect(paper.text.split('DEV-2').length - 1).toBe(1);
      expect(paper.cuts).toBe(2);
    } finally {
      await worker.stop();
    }
  });
});

describe('printer status', () => {
  it('asks a printer its status (DLE EOT 1..4) or says why it cannot be reached', async () => {
    const printer = await FakePrinter.start({ paperNearEnd: true });
    try {
      const target = { kind: 'tcp' as const, host: '127.0.0.1', port: printer.port };
      expect(await queryStatus(target)).toMatchObject({ reachable: true, online: true, paperNearEnd: true, paperOut: false, coverOpen: false, error: false });
      printer.setStatus({ coverOpen: true });
      expect(await queryStatus(target)).toMatchObject({ reachable: true, online: false, coverOpen: true });
      printer.setStatus({ error: 'autocutter' });
      expect(await queryStatus(target)).toMatchObject({ reachable: true, error: true, errors: { autocutter: true } });
      await sendBytes(target, Buffer.from('hello\n'));
      expect(printer.text()).toContain('hello');
      await printer.setMode('refuse');
      const down = await queryStatus(target, { connectMs: 300 });
      expect(down).toEqual({ reachable: false, reason: expect.stringContaining('ECONNREFUSED') });
      await printer.setMode('reset');
      expect(await queryStatus(target)).toMatchObject({ reachable: false, reason: expect.stringMatching(/ECONNRESET|closed the connection before answering its status/) });
    } finally {
      await printer.stop();
    }
  });

  it('watches an idle printer, so the panel shows paper out before the next ticket', async () => {
    rig = await startRig({ worker: { statusPollMs: 30 } });
    const r = rig;
    await until(() => r.receipt.connections.length > 0, 'a first status check at start');
    r.receipt.setStatus({ paperOut: true });
    await until(() => r.view().state === 'paper_out', 'paper out while idle');
    expect(r.receipt.jobs()).toHaveLength(0);
    r.receipt.setStatus({});
    await until(() => r.view().state === 'ready', 'ready again');
  });

  it('tries again at once when a person asks, skipping the backoff', async () => {
    rig = await startRig({ worker: { backoff: { initialMs: 60_000, maxMs: 60_000 } } });
    const r = rig;
    await r.receipt.setMode('refuse');
    enqueueReceipt(r, 'NOW-1');
    await until(() => r.view().state === 'offline', 'offline');
    await r.receipt.setMode('up');
    r.worker.notify(); // a new commit does not cut the backoff short...
    await sleep(100);
    expect(r.receipt.count('NOW-1')).toBe(0);
    r.worker.retryNow('receipt'); // ...a person does
    await r.receipt.waitFor(() => r.receipt.count('NOW-1') === 1, 'the receipt');
  });
});
