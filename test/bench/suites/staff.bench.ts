// Staff and the end of the day as the register sees them, on a real core (startTestCore: a seeded
// SQLite data dir) with 20 provisioned staff:
// - PIN sign-in of someone who signed in before since launch (the usual switch), next to the same
//   bridge round trip without a PIN (staff.session);
// - the first sign-in after launch (hashes checked in core-sized batches until the owner's), next
//   to one scrypt check of one PIN (the raw cost of a hash);
// - a wrong PIN one digit off a real one, next to a wrong PIN near no one's: every hash is checked
//   for both, so they take as long (no timing tell);
// - the Z report and the shift's close on a day of 1,000 paid orders, next to the day summary
//   (shift.summary) of the same orders.
import { performance } from 'node:perf_hooks';
import { ManualClock } from '../../../common/clock';
import { hashManagerPin, pinMatches } from '../../../main/config/manager-pin';
import { PIN_LIMITS } from '../../../store/staff';
import { ITEMS, startTestCore, type TestCore } from '../../core/fixtures';
import { percentile, row, type BenchRow, type BenchSuite } from '../harness';

const STAFF = 20;
const SIGN_INS = 200;
const COLD = 15;
const ORDERS = 1_000;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function ok(t: TestCore, command: string, payload: unknown): Promise<void> {
  const response = await t.raw(command, payload);
  if (!response.ok) throw new Error(`${command}: ${response.error.message}`);
}

const p95 = (samples: number[]) => percentile([...samples].sort((a, b) => a - b), 95);

const suite: BenchSuite = {
  name: 'staff',
  async run(): Promise<BenchRow[]> {
    const pins = Array.from({ length: STAFF }, (_, i) => String(204_861 + i * 7_919).slice(0, 6));
    const members = pins.map((pin, i) => ({ name: `Staff ${i + 1}`, role: i === 0 ? 'owner' : 'cashier', pinHash: hashManagerPin(pin) }));
    // The till's budget of wrong PINs refills with time only: the clock moves between rounds.
    const clock = new ManualClock();
    const t = await startTestCore({ staff: { members: members as never } }, { clock }, undefined, { signIn: null });
    try {
      // Someone who signed in before: the in-memory directory finds them without hashing.
      await ok(t, 'staff.signIn', { pin: pins[1] });
      const warm: number[] = [];
      const session: number[] = [];
      for (let i = 0; i < SIGN_INS; i++) {
        warm.push(await timed(() => ok(t, 'staff.signIn', { pin: pins[1] })));
        session.push(await timed(() => ok(t, 'staff.session', {})));
      }

      // First sign-ins after launch (each a different person) and wrong PINs, against one raw scrypt check.
      const cold: number[] = [];
      const wrong: number[] = [];
      const nearMiss: number[] = [];
      const raw: number[] = [];
      for (let i = 0; i < COLD; i++) {
        clock.advance(2 * PIN_LIMITS.budgets.guess.refillMs);
        cold.push(await timed(() => ok(t, 'staff.signIn', { pin: pins[2 + i] })));
        wrong.push(await timed(() => t.raw('staff.signIn', { pin: '13579' + String(i % 10) })));
        // A real PIN with its last digit changed: no faster or slower than any other wrong one.
        const real = pins[2 + i]!;
        nearMiss.push(await timed(() => t.raw('staff.signIn', { pin: real.slice(0, -1) + String((Number(real.at(-1)) + 1) % 10) })));
        // Wrong PINs in a row would make entry wait: a right one in between resets the count.
        await ok(t, 'staff.signIn', { pin: pins[1] });
        raw.push(await timed(() => pinMatches(pins[0]!, members[0]!.pinHash)));
      }

      // A busy day: 1,000 orders paid in cash and card in one shift.
      await ok(t, 'staff.signIn', { pin: pins[0] });
      await ok(t, 'shift.open', { count: [] });
      for (let i = 0; i < ORDERS; i++) {
        const order = await t.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 + (i % 3) }] });
        await t.call('payments.take', { orderId: order.id, method: i % 2 === 0 ? 'cash' : 'card', amount: order.total });
      }
      const report: number[] = [];
      const summary: number[] = [];
      for (let i = 0; i < 10; i++) {
        report.push(await timed(() => ok(t, 'reports.z', {})));
        summary.push(await timed(() => ok(t, 'shift.summary', {})));
      }
      const current = await t.call('shift.current', {});
      const close = await timed(() => ok(t, 'shift.close', { count: [{ value: 100, count: 1 }] }));
      if (!current) throw new Error('no shift open');

      const rawP95 = p95(raw);
      return [
        row({ name: 'sign in by PIN, signed in before (200 times)', value: p95(warm), unit: 'ms p95', baselineName: 'staff.session round trip', baseline: p95(session), better: 'lower', target: '< 50 ms', ok: p95(warm) < 50 }),
        row({ name: `first sign-in after launch, ${STAFF} staff`, value: p95(cold), unit: 'ms p95', baselineName: 'one scrypt check of one PIN', baseline: rawP95, better: 'lower', target: '< 1,000 ms', ok: p95(cold) < 1_000 }),
        row({ name: `wrong PIN one digit off a real one, ${STAFF} staff`, value: p95(nearMiss), unit: 'ms p95', baselineName: 'a wrong PIN near no one’s', baseline: p95(wrong), better: 'lower', target: '0.8×–1.25×: no timing tell', ok: p95(nearMiss) / p95(wrong) > 0.8 && p95(nearMiss) / p95(wrong) < 1.25 }),
        row({ name: `Z report, ${ORDERS} paid orders`, value: p95(report), unit: 'ms p95', baselineName: 'shift.summary of the same day', baseline: p95(summary), better: 'lower', target: '< 1,000 ms', ok: p95(report) < 1_000 }),
        row({ name: `close a shift of ${ORDERS} payments`, value: close, unit: 'ms', baselineName: 'shift.summary of the same day', baseline: p95(summary), better: 'lower', target: '< 1,000 ms', ok: close < 1_000 }),
      ];
    } finally {
      await t.core.shutdown();
    }
  },
};

export default suite;
