// A kitchen display joining the store by a code (docs/kitchen-display.md, "Joining the store by a
// code"): Bar is a register in the store, a separate process (test/store-mode/fixtures/core-till.ts: a
// real core on its own SQLite file, its owner signed in); the display is a real core with the kitchen
// role in this process, store mode on with only a secret-store entry named and nothing in it. It starts
// unpaired, with no one signed in. A wrong code is refused next to its field, counted on Bar, and
// changes nothing on the display; the code Bar shows joins it: the store secret lands in its secret
// store, store mode starts at once and an order rung up on Bar is listed as a ticket. Payments stay
// refused by the display's role gate throughout, and neither audit log holds the code. Started again,
// the display is in the store from its secret store.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KitchenTickets } from '../../bridge/kitchen/contract';
import type { BridgeResponse } from '../../bridge/protocol';
import type { StoreModePairingCode, StoreModeStatus } from '../../bridge/store-mode/contract';
import { silentLogger } from '../../common/log';
import { TerminalConfig } from '../../main/config/schema';
import { startCore, type Core } from '../../main/core/index';
import { FileSecretStore } from '../../sync/secret-store';
import { ITEMS, LOCATION, seedDataDir, testStaffConfig } from '../core/fixtures';
import { count, snapshot } from '../core/staff-fixtures';
import { freePortPair } from '../store-mode/fixtures/ports';
import { startCoreTill, type TillProcess } from '../store-mode/till-process';
import { ROUTING, SECRET } from './fixtures';

const SECRET_REF = 'storeMode.storeSecret';
const KITCHEN_REFUSAL = /^This is a kitchen display: it shows and bumps tickets only\./;

async function call<T>(till: TillProcess, command: string, payload: unknown = {}): Promise<T> {
  till.send({ type: 'call', command, payload });
  const { response } = (await till.next('answer')) as unknown as { response: BridgeResponse };
  if (!response.ok) throw new Error(`${command}: ${response.error.message}`);
  return response.value as T;
}

async function invoke<T>(core: Core, command: string, payload: unknown = {}): Promise<T> {
  const response = await core.invoke({ command, payload });
  if (!response.ok) throw new Error(`${command}: ${response.error.message}`);
  return response.value as T;
}

/** The same 8 digits with the last one changed: a code of the right shape that is not Bar's. */
function wrongCodeFor(code: string): string {
  const last = Number(code.at(-1));
  return `${code.slice(0, -1)}${(last + 1) % 10}`;
}

let bar: TillProcess;
let display: Core;
let displayDir: string;
/** The display's configuration: store mode on, a secret-store entry named, no secret. */
let displayConfig: () => TerminalConfig;
const storedSecret = () => new FileSecretStore(join(displayDir, 'secrets.json')).get(SECRET_REF);

beforeAll(async () => {
  // Each till's pairing listener takes its store address's next port.
  const [barPort, displayPort] = [await freePortPair(), await freePortPair()];
  bar = await startCoreTill({ dataDir: seedDataDir(), tillName: 'Bar', tillLetter: 'B', storeMode: 'on', port: barPort, peers: [`127.0.0.1:${displayPort}`], deadlineMs: 100_000 }, SECRET);
  displayDir = seedDataDir();
  displayConfig = () =>
    TerminalConfig.parse({
      dataDir: displayDir,
      locationId: LOCATION,
      staff: testStaffConfig(),
      role: 'kitchen',
      printing: ROUTING,
      storeMode: { mode: 'on', listen: `127.0.0.1:${displayPort}`, peers: `127.0.0.1:${barPort}`, tillName: 'Pass', secret: '', secretRef: SECRET_REF },
    });
  display = await startCore(displayConfig(), { logger: silentLogger, secretStore: new FileSecretStore(join(displayDir, 'secrets.json')) });
}, 60_000);

afterAll(async () => {
  await bar?.stop();
  await display?.shutdown();
});

describe('a kitchen display without its store secret, joining by a code', () => {
  it('starts unpaired; a wrong code is refused and counted and changes nothing; the right one joins, and an order rung up on Bar is listed as a ticket', async () => {
    const unpaired = await invoke<StoreModeStatus>(display, 'storeMode.status');
    expect(unpaired.mode).toBe('unpaired');
    expect(unpaired.till).toBeNull();
    expect((await invoke<KitchenTickets>(display, 'kitchen.tickets')).tickets).toEqual([]);

    const shown = await call<StoreModePairingCode>(bar, 'storeMode.pairingCode');
    expect(shown.code).toMatch(/^\d{4} \d{4}$/);

    // A wrong code: refused next to the field, counted on Bar, nothing written on the display.
    const before = snapshot(displayDir, { guard: true, audit: true });
    const wrong = await display.invoke({ command: 'storeMode.join', payload: { address: shown.address, code: wrongCodeFor(shown.code) } });
    expect(wrong.ok).toBe(false);
    expect(wrong.ok ? null : wrong.error.issues?.[0]?.path).toBe('code');
    expect((await call<StoreModeStatus>(bar, 'storeMode.status')).pairing.open).toMatchObject({ address: shown.address, wrongCodes: 1 });
    expect((await invoke<StoreModeStatus>(display, 'storeMode.status')).mode).toBe('unpaired');
    expect(await storedSecret()).toBeNull();
    expect(snapshot(displayDir, { guard: true, audit: true })).toEqual(before);

    // The right code, with no one signed in: the code is the manager's word.
    const joined = await invoke<{ pairedWith: string; sentence: string }>(display, 'storeMode.join', { address: shown.address, code: shown.code });
    expect(joined.pairedWith).toBe('Bar');
    expect(joined.sentence).toMatch(/^This display is in the store now \(paired with Bar\)/);
    expect(await storedSecret()).toBe(SECRET);
    const paired = await invoke<StoreModeStatus>(display, 'storeMode.status');
    expect(paired.mode).toBe('on');
    expect(paired.till?.name).toBe('Pass');

    // Recorded as on a register, on both sides, never the code.
    const digits = shown.code.replace(' ', '');
    expect(count(displayDir, 'audit_log', "action = 'store.joined' AND actor = 'kitchen-display' AND detail LIKE '%Bar%'")).toBe(1);
    expect(count(displayDir, 'audit_log', 'detail LIKE ? OR detail LIKE ?', `%${digits}%`, `%${shown.code}%`)).toBe(0);
    await expect.poll(() => count(bar.dataDir, 'audit_log', "action = 'store.paired' AND detail LIKE '%Pass%'"), { timeout: 5_000 }).toBe(1);
    expect(count(bar.dataDir, 'audit_log', 'detail LIKE ? OR detail LIKE ?', `%${digits}%`, `%${shown.code}%`)).toBe(0);

    // Store mode runs at once: an order rung up on Bar becomes a ticket on the display.
    const order = await call<{ id: string }>(bar, 'orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 2 }], service: { type: 'dine_in', table: '9', guests: 2 } });
    await expect.poll(async () => (await invoke<KitchenTickets>(display, 'kitchen.tickets')).tickets.map((ticket) => ticket.orderId), { timeout: 15_000 }).toContain(order.id);
    const ticket = (await invoke<KitchenTickets>(display, 'kitchen.tickets')).tickets.find((listed) => listed.orderId === order.id);
    expect(ticket?.tillName).toBe('Bar');

    // A second join is refused: the display is in the store.
    const again = await display.invoke({ command: 'storeMode.join', payload: { address: shown.address, code: shown.code } });
    expect(again.ok ? null : again.error.message).toMatch(/already in the store/);
  }, 60_000);

  it('still refuses a payment, a report and the settings, whatever the payload, and changes nothing', async () => {
    const before = snapshot(displayDir, { guard: true, audit: true });
    for (const command of ['payments.take', 'reports.z', 'settings.get', 'storeMode.pairingCode']) {
      const response = await display.invoke({ command, payload: { orderId: 'ord_x', method: 'cash', amount: 100, managerPin: '1234' } });
      expect(response, command).toEqual({ ok: false, error: { code: 'invalid_command', message: expect.stringMatching(KITCHEN_REFUSAL) } });
    }
    expect(snapshot(displayDir, { guard: true, audit: true })).toEqual(before);
  });

  it('started again on its folder, is in the store at once, from its secret store', async () => {
    await display.shutdown();
    display = await startCore(displayConfig(), { logger: silentLogger, secretStore: new FileSecretStore(join(displayDir, 'secrets.json')) });
    expect((await invoke<StoreModeStatus>(display, 'storeMode.status')).mode).toBe('on');
    await expect.poll(async () => (await invoke<KitchenTickets>(display, 'kitchen.tickets')).tickets.length, { timeout: 15_000 }).toBeGreaterThan(0);
  }, 30_000);
});
