// A kitchen display's core for the kitchen tests: a real core (startCore) on a seeded folder with the
// kitchen role, store mode on (no peers: the tests hand it the other tills' logs as pages, as its feed
// would) and two stations, grill (Mains) and bar (Drinks). A register is a store with its own log,
// whose entries are applied to the display's replicas through a second connection to its file.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../common/clock';
import type { TerminalConfigInput } from '../../main/config/schema';
import { openStore, type NewOrderInput, type Store } from '../../store/index';
import { ITEMS, LOCATION, MODIFIERS, reopenStore, startTestCore, type TestCore } from '../core/fixtures';
import { freePort } from '../store-mode/fixtures/ports';

export const SECRET = Buffer.alloc(32, 0x5c).toString('base64');
export const T0 = 1_800_000_000_000;
/** Mains go to the grill, drinks to the bar (the first kitchen printer also takes what is not routed). */
export const ROUTING = { kitchenPrinters: ['grill=file:/dev/null', 'bar=file:/dev/null'], printRouting: 'Mains=grill,Drinks=bar' };

export interface KitchenCore extends TestCore {
  clock: ManualClock;
  tillId: string;
}

export async function startKitchenCore(kitchen: Partial<NonNullable<TerminalConfigInput['kitchen']>> = {}): Promise<KitchenCore> {
  const clock = new ManualClock(T0);
  const port = await freePort();
  const t = await startTestCore(
    { role: 'kitchen', kitchen, printing: ROUTING, storeMode: { mode: 'on', listen: `127.0.0.1:${port}`, tillName: 'Pass', secret: SECRET } },
    { clock },
    undefined,
    { signIn: null },
  );
  const status = await t.call('storeMode.status', {});
  return { ...t, clock, tillId: status.till!.id };
}

/** A till of the store as its log: orders written through its store, entries handed to the display. */
export class RegisterLog {
  readonly store: Store;
  #sent = 0;

  constructor(
    readonly origin: string,
    readonly name: string,
    readonly clock: ManualClock,
  ) {
    this.store = openStore(join(mkdtempSync(join(tmpdir(), 'pos-kitchen-till-')), 'terminal.db'), { clock, storeMode: true });
  }

  place(input: Partial<NewOrderInput> & Pick<NewOrderInput, 'lines'>, number: string) {
    return this.store.cashier.createOrder(
      { locationId: LOCATION, currency: 'usd', numbering: { tillLetter: number[0]!, businessDay: '2027-01-15', dayStartedAt: T0 - 60_000 }, ...input },
      { actor: 'stf_cashier' },
    );
  }

  /** Paid in cash at this till, as its cashier takes a payment: the check has nothing due. */
  pay(order: { id: string; total: number }): void {
    this.store.cashier.recordCashPayment(order.id, order.total, 'usd', { actor: 'stf_cashier' });
  }

  /**
   * Pulls the display's log (its bumps, forwarded here) and answers each forward waiting, as the
   * till's inbox does once its cashier has applied or refused the change (main/core/store-mode/forward-inbox.ts).
   */
  answerForwards(display: KitchenCore, outcome: { outcome: 'applied'; reason: null } | { outcome: 'refused'; reason: string }): void {
    const file = reopenStore(display.dataDir);
    try {
      const entries = file.log.read(0, 1_000);
      if (entries.length > 0) this.store.replicas.apply(display.tillId, file.log.logId(), entries, this.clock.now(), this.origin);
    } finally {
      file.close();
    }
    this.store.transaction(() => {
      for (const forward of this.store.log.forwards.waiting(100)) this.store.log.forwards.answer(forward, { ...outcome, seq: null }, this.clock.now());
    });
  }

  /** Applies what the display has not had of this till's log, as one page (the feed's sink does the same). */
  feed(display: KitchenCore): void {
    const entries = this.store.log.read(this.#sent, 1_000);
    if (entries.length === 0) return;
    const replica = reopenStore(display.dataDir);
    try {
      replica.replicas.nameTill(this.origin, this.name);
      replica.replicas.apply(this.origin, this.store.log.logId(), entries, this.clock.now(), display.tillId);
    } finally {
      replica.close();
    }
    this.#sent = entries.at(-1)!.seq;
  }
}

/** Order lines of the seeded menu: burgers and soup are Mains (grill), lattes Drinks (bar). */
export const line = {
  burger: (quantity: number, extras: { cheese?: boolean; note?: string; seat?: number; course?: string } = {}) => ({
    menu_item_id: ITEMS.burger,
    name: 'Burger',
    quantity,
    unit_price: 1200,
    modifiers: extras.cheese ? [{ modifier_id: MODIFIERS.cheese, name: 'Extra cheese', price: 150 }] : [],
    note: extras.note ?? '',
    seat: extras.seat ?? null,
    course: extras.course ?? null,
  }),
  soup: (quantity: number, course: string | null = null) => ({ menu_item_id: ITEMS.soup, name: 'Soup of the day', quantity, unit_price: 700, modifiers: [], course }),
  latte: (quantity: number) => ({ menu_item_id: ITEMS.latte, name: 'Café latte', quantity, unit_price: 400, modifiers: [] }),
};

/** Waits until `check` answers true, asking every 100 ms (beforeAll has no expect.poll); the error says what was awaited. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
