// Pairing a till into the store by a code, between two real cores in this process: Bar is in the store
// (its secret from the environment's config), Patio is in store mode with only a secret-store entry
// named and nothing in it. A manager on Bar shows a code; typed on Patio, the store secret reaches
// Patio's secret store and store mode starts there: each till lists the other's orders over mutual TLS.
// Wrong codes are refused next to the field and counted; the third closes the code; the code and the
// secret reach no log; a restart of Patio finds its secret and stays in the store.
import { createServer } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeResponse } from '../../bridge/protocol';
import { createLogger, type Logger } from '../../common/log';
import { TerminalConfig } from '../../main/config/schema';
import { startCore, type Core } from '../../main/core/index';
import { FileSecretStore } from '../../sync/secret-store';
import { ITEMS, LOCATION, signIn, startTestCore, testStaffConfig, type TestCore } from '../core/fixtures';
import { freePortPair } from './fixtures/ports';

const STORE_SECRET = Buffer.alloc(32, 0x5c).toString('base64');
const SECRET_REF = 'storeMode.storeSecret';

const running: Core[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((core) => core.shutdown()));
});

function recordingLogger(lines: string[]): Logger {
  return createLogger({ level: 'debug', destination: { write: (line: string) => void lines.push(line) } });
}

function storeModeConfig(name: string, letter: string, port: number, peer: number, secret: string) {
  return {
    checkout: { tillLetter: letter },
    storeMode: { mode: 'on' as const, listen: `127.0.0.1:${port}`, peers: `127.0.0.1:${peer}`, tillName: name, secret, secretRef: SECRET_REF },
  };
}

async function started(config: ReturnType<typeof storeModeConfig>, logs: string[]): Promise<TestCore> {
  const till = await startTestCore(config, { logger: recordingLogger(logs) });
  running.push(till.core);
  return till;
}

const refusal = (response: BridgeResponse) => (response.ok ? null : response.error);
const storedSecret = (till: TestCore) => new FileSecretStore(join(till.dataDir, 'secrets.json')).get(SECRET_REF);
const place = (till: TestCore, table: string) => till.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }], service: { type: 'dine_in', table, guests: 2 } });
const listedIds = async (till: TestCore) => (await till.call('storeMode.orders', {})).orders.map((order) => order.id).sort();

describe('store mode: pairing a till by a code', () => {
  it('a manager types the code shown on Bar into Patio: Patio gets the store secret and both see each other’s orders; wrong codes are refused and counted', async () => {
    const [barPort, patioPort] = [await freePortPair(), await freePortPair()];
    const barLogs: string[] = [];
    const patioLogs: string[] = [];
    const bar = await started(storeModeConfig('Bar', 'B', barPort, patioPort, STORE_SECRET), barLogs);
    const patio = await started(storeModeConfig('Patio', 'P', patioPort, barPort, ''), patioLogs);

    // Patio sells alone meanwhile: store mode is on there, but it is in no store yet.
    const patioStatus = await patio.call('storeMode.status', {});
    expect(patioStatus.mode).toBe('unpaired');
    expect(patioStatus.till).toBeNull();
    const soldAlone = await place(patio, '7');
    const barOrders = [await place(bar, '1'), await place(bar, '2')];
    expect(refusal(await patio.raw('storeMode.pairingCode', {}))?.message).toMatch(/not in a store yet/);

    // A cashier on Bar may not show a code without a manager.
    await signIn(bar.core, 'cashier');
    expect(refusal(await bar.raw('storeMode.pairingCode', {}))?.code).toBe('needs_manager');
    await signIn(bar.core, 'owner');
    let shown = await bar.call('storeMode.pairingCode', {});
    expect(shown.code).toMatch(/^\d{4} \d{4}$/);
    expect(shown.address).toBe(`127.0.0.1:${barPort + 1}`);
    expect(shown.tillName).toBe('Bar');
    expect((await bar.call('storeMode.status', {})).pairing.open).toMatchObject({ address: shown.address, wrongCodes: 0 });

    // Bad input is refused next to its field and changes nothing.
    const badCode = refusal(await patio.raw('storeMode.join', { address: shown.address, code: '1234 567a' }));
    expect(badCode?.issues?.[0]?.path).toBe('code');
    const badAddress = refusal(await patio.raw('storeMode.join', { address: 'the bar', code: shown.code }));
    expect(badAddress?.issues?.[0]?.path).toBe('address');

    // Three wrong codes: each refused next to the code, counted on Bar; the third closes the code.
    const digits = shown.code.replace(' ', '');
    const wrong = (n: number) => String((Number(digits) + n) % 100_000_000).padStart(8, '0');
    for (const n of [1, 2]) {
      const answer = refusal(await patio.raw('storeMode.join', { address: shown.address, code: wrong(n) }));
      expect(answer?.issues?.[0]?.path).toBe('code');
      expect(answer?.message).toMatch(/not accepted|wrong|check/i);
    }
    expect((await bar.call('storeMode.status', {})).pairing.open?.wrongCodes).toBe(2);
    expect(refusal(await patio.raw('storeMode.join', { address: shown.address, code: wrong(3) }))).not.toBeNull();
    await expect.poll(async () => (await bar.call('storeMode.status', {})).pairing).toMatchObject({ open: null, last: { outcome: 'tooManyWrongCodes' } });
    // The right code no longer works once closed.
    expect(refusal(await patio.raw('storeMode.join', { address: shown.address, code: shown.code }))).not.toBeNull();
    expect(await storedSecret(patio)).toBeNull();
    expect((await patio.call('storeMode.status', {})).mode).toBe('unpaired');

    // Two codes asked at once: one listener, for the code opened last; the other no longer works, and
    // the one that works is typed right (with a dash): Patio joins.
    const both = await Promise.all([bar.call('storeMode.pairingCode', {}), bar.call('storeMode.pairingCode', {})]);
    expect(both[0].code).not.toBe(both[1].code);
    const first = await patio.raw('storeMode.join', { address: both[0].address, code: both[0].code.replace(' ', '-') });
    shown = first.ok ? both[0] : both[1];
    const joinedResponse = first.ok ? first : await patio.raw('storeMode.join', { address: both[1].address, code: both[1].code.replace(' ', '-') });
    expect(joinedResponse.ok).toBe(true);
    const joined = (joinedResponse as { value: { pairedWith: string } }).value;
    expect(joined.pairedWith).toBe('Bar');
    expect(Buffer.from((await storedSecret(patio)) ?? '', 'base64').equals(Buffer.from(STORE_SECRET, 'base64'))).toBe(true);
    await expect.poll(async () => (await bar.call('storeMode.status', {})).pairing).toMatchObject({ open: null, last: { outcome: 'paired', tillName: 'Patio' } });
    expect((await patio.call('storeMode.status', {})).mode).toBe('on');
    // A repeat changes nothing.
    expect(refusal(await patio.raw('storeMode.join', { address: shown.address, code: shown.code }))?.message).toMatch(/already in the store/);

    // Each lists the other's orders, including what Patio sold before it joined.
    await expect.poll(() => listedIds(patio), { timeout: 20_000 }).toEqual(barOrders.map((order) => order.id).sort());
    await expect.poll(() => listedIds(bar), { timeout: 20_000 }).toEqual([soldAlone.id]);
    // Patio, in the store now, may show a code itself.
    expect((await patio.call('storeMode.pairingCode', {})).tillName).toBe('Patio');
    await patio.call('storeMode.cancelPairing', {});

    // The code and the secret reached no log; the audit names what was done.
    const secretHex = Buffer.from(STORE_SECRET, 'base64').toString('hex');
    for (const line of [...barLogs, ...patioLogs]) {
      expect(line).not.toContain(digits);
      expect(line).not.toContain(shown.code);
      expect(line).not.toContain(STORE_SECRET);
      expect(line).not.toContain(secretHex);
    }
    const audit = (till: TestCore) => new Database(join(till.dataDir, 'terminal.db'), { readonly: true }).prepare('SELECT action FROM audit_log WHERE action LIKE ? ORDER BY id').all('store.%').map((row) => (row as { action: string }).action);
    expect(audit(bar)).toEqual(['store.pairing_code', 'store.pairing_code', 'store.pairing_code', 'store.paired']);
    expect(audit(patio)).toEqual(['store.joined', 'store.pairing_code']);

    // Restarted on its folder, Patio finds its secret and is still in the store.
    await patio.core.shutdown();
    running.splice(running.indexOf(patio.core), 1);
    const again = await startCore(
      TerminalConfig.parse({ dataDir: patio.dataDir, locationId: LOCATION, staff: testStaffConfig(), ...storeModeConfig('Patio', 'P', patioPort, barPort, '') }),
      { logger: recordingLogger(patioLogs), secretStore: new FileSecretStore(join(patio.dataDir, 'secrets.json')) },
    );
    running.push(again);
    const status = await again.invoke({ command: 'storeMode.status', payload: {} });
    expect(status.ok && (status.value as { mode: string }).mode).toBe('on');
  });
  it('a pairing port another program holds is said in words, and no code is shown', async () => {
    const [barPort, patioPort] = [await freePortPair(), await freePortPair()];
    const bar = await started(storeModeConfig('Bar', 'B', barPort, patioPort, STORE_SECRET), []);
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(barPort + 1, '127.0.0.1', resolve));
    try {
      const refused = refusal(await bar.raw('storeMode.pairingCode', {}));
      expect(refused?.code).toBe('unavailable');
      expect(refused?.message).toBe(`This till cannot listen for a new till on 127.0.0.1:${barPort + 1} (another program uses that port): IT frees that port, the store address's next one (docs/it.md).`);
      expect((await bar.call('storeMode.status', {})).pairing).toEqual({ open: null, last: null });
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
  it('the right code typed 10 times at once joins once: one answer, one secret, one pairing on each side', async () => {
    const [barPort, patioPort] = [await freePortPair(), await freePortPair()];
    const bar = await started(storeModeConfig('Bar', 'B', barPort, patioPort, STORE_SECRET), []);
    const patio = await started(storeModeConfig('Patio', 'P', patioPort, barPort, ''), []);
    const shown = await bar.call('storeMode.pairingCode', {});
    const answers = await Promise.all(Array.from({ length: 10 }, () => patio.raw('storeMode.join', { address: shown.address, code: shown.code })));
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
    for (const answer of answers.filter((one) => !one.ok)) expect(refusal(answer)?.message).toMatch(/already (joining|in) the store/);
    expect(Buffer.from((await storedSecret(patio)) ?? '', 'base64').equals(Buffer.from(STORE_SECRET, 'base64'))).toBe(true);
    expect((await patio.call('storeMode.status', {})).mode).toBe('on');
    const audit = (till: TestCore, action: string) => new Database(join(till.dataDir, 'terminal.db'), { readonly: true }).prepare('SELECT COUNT(*) FROM audit_log WHERE action = ?').pluck().get(action);
    await expect.poll(() => audit(bar, 'store.paired')).toBe(1);
    expect(audit(patio, 'store.joined')).toBe(1);
  });
  it('answers a join whose answer was lost again when the page repeats its request: joined, not "already in the store"', async () => {
    const [barPort, patioPort] = [await freePortPair(), await freePortPair()];
    const bar = await started(storeModeConfig('Bar', 'B', barPort, patioPort, STORE_SECRET), []);
    const patio = await started(storeModeConfig('Patio', 'P', patioPort, barPort, ''), []);
    const shown = await bar.call('storeMode.pairingCode', {});
    const request = { command: 'storeMode.join', payload: { address: shown.address, code: shown.code }, requestId: 'join-request-0001' };
    const first = await patio.core.invoke(request);
    expect(first).toMatchObject({ ok: true, value: { pairedWith: 'Bar' } });
    expect(await patio.core.invoke(request)).toEqual(first);
    // A new press (a new request) is refused as before.
    expect(refusal(await patio.raw('storeMode.join', { address: shown.address, code: shown.code }))?.message).toMatch(/already in the store/);
  });
});
