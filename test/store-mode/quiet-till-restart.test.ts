// A till that went quiet holding orders the cloud does not have stays in sight across a restart of
// the till that replicated them: its sync panel lists it from the replicated log (no address, not
// heard since the start), with what it still owes the cloud.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/log';
import { TerminalConfig } from '../../main/config/schema';
import { FileSecretStore } from '../../sync/secret-store';
import { startCore, type Core } from '../../main/core/index';
import { ITEMS, LOCATION, signIn, startTestCore, testStaffConfig, type TestCore } from '../core/fixtures';
import { freePort } from './fixtures/ports';

const SECRET = Buffer.alloc(32, 0x6d).toString('base64');
const running: { core: Core }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((till) => till.core.shutdown()));
});

const storeMode = (name: string, letter: string, port: number, peers: number[]) => ({
  checkout: { tillLetter: letter },
  storeMode: { mode: 'on' as const, listen: `127.0.0.1:${port}`, peers: peers.map((peer) => `127.0.0.1:${peer}`).join(','), tillName: name, secret: SECRET },
});

describe('a quiet till across a restart', () => {
  it('is still listed with the orders it holds that the cloud does not have', async () => {
    const [barPort, frontPort] = [await freePort(), await freePort()];
    const bar: TestCore = await startTestCore(storeMode('Bar', 'B', barPort, []));
    running.push(bar);
    const front: TestCore = await startTestCore(storeMode('Front', 'F', frontPort, [barPort]));
    running.push(front);
    for (const table of ['4', '9']) await bar.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }], service: { type: 'dine_in', table, guests: 2 } });
    await expect.poll(async () => (await front.call('storeMode.status', {})).peers[0]?.ordersNotInCloud, { timeout: 10_000 }).toBe(2);

    // Bar dies; then Front restarts on its own file.
    await bar.core.shutdown();
    await front.core.shutdown();
    running.splice(0);
    const config = TerminalConfig.parse({ dataDir: front.dataDir, locationId: LOCATION, staff: { members: testStaffConfig().members }, ...storeMode('Front', 'F', frontPort, [barPort]) } as never);
    const restarted = await startCore(config, { logger: silentLogger, secretStore: new FileSecretStore(join(front.dataDir, 'secrets.json')) });
    running.push({ core: restarted });
    await signIn(restarted, 'owner');
    const status = await restarted.invoke({ command: 'storeMode.status', payload: {} });
    if (!status.ok) throw new Error(status.error.message);
    const { peers } = status.value as { peers: { address: string | null; tillId: string | null; name: string | null; ordersNotInCloud: number; lastHeardAt: string | null }[] };
    // The configured address has not answered (Bar is gone); Bar itself is known from its log.
    expect(peers.find((peer) => peer.address === `127.0.0.1:${barPort}`)).toMatchObject({ tillId: null });
    expect(peers.find((peer) => peer.address === null)).toMatchObject({ name: 'Bar', ordersNotInCloud: 2, lastHeardAt: expect.any(String) });
  });
});
