// @vitest-environment happy-dom
// Store mode on the till's screens, against real cores: a second core in this process ("Bar", its
// own SQLite file) serves its log over mutual TLS on 127.0.0.1, and the rendered till ("Front") pulls
// it into its replicas. The Orders screen lists Bar's open orders under "At other tills", refreshed
// while shown and filtered by the search box (each row: Take payment, Add items, and the rest under
// "More…"); the sync panel's Store part asks for the status once as it opens, and names a till gone
// quiet holding orders the cloud does not have, and the connections it refused. Store mode off:
// neither, and no polling.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BridgeRequest } from '../../bridge/protocol';
import { SyncIndicator } from '../../renderer/components/SyncIndicator';
import { createBridgeClient, type BridgeClient } from '../../renderer/lib/bridge-client';
import { StoreSyncPart } from '../../renderer/store-mode/StoreSyncPart';
import { ITEMS, STAFF, startTestCore, type TestCore } from '../core/fixtures';
import { renderOrders } from './checkout-fixtures';
import { coreForEachTest, renderWith } from './with-core';
import { freePort, freePortPair } from '../store-mode/fixtures/ports';

const SECRET = Buffer.alloc(32, 0x5c).toString('base64');
const OTHER_STORE_SECRET = Buffer.alloc(32, 0x3a).toString('base64');

const tillUnderTest = coreForEachTest();
const otherTills: TestCore[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(otherTills.splice(0).map((till) => till.core.shutdown()));
});

function storeModeConfig(name: string, letter: string, port: number, peers: number[], secret = SECRET) {
  return {
    checkout: { tillLetter: letter },
    storeMode: { mode: 'on' as const, listen: `127.0.0.1:${port}`, peers: peers.map((peer) => `127.0.0.1:${peer}`).join(','), tillName: name, secret },
  };
}

/** Another till of the store, in this process, serving its log on `port`. */
async function startOtherTill(config: ReturnType<typeof storeModeConfig>): Promise<TestCore> {
  const till = await startTestCore(config);
  otherTills.push(till);
  return till;
}

/** The rendered till's client, noting each command it sends. */
async function startRenderedTill(config?: Parameters<typeof tillUnderTest.start>[0]): Promise<{ client: BridgeClient; sent: string[] }> {
  await tillUnderTest.start(config);
  const { core } = tillUnderTest.core();
  const sent: string[] = [];
  const client = createBridgeClient({
    invoke: (request: BridgeRequest) => {
      sent.push(request.command);
      return core.invoke(request);
    },
    onEvent: (listener) => core.subscribe(listener),
  });
  return { client, sent };
}

/**
 * Two tills of one store: Bar (the other) and Front (rendered), Front pulling Bar's log once Bar has
 * answered, and the `alsoPulled` addresses' too.
 */
async function barAndFront(alsoPulled: number[] = []): Promise<{ bar: TestCore; front: BridgeClient; sent: string[] }> {
  const [barPort, frontPort] = [await freePort(), await freePort()];
  const bar = await startOtherTill(storeModeConfig('Bar', 'B', barPort, []));
  const { client: front, sent } = await startRenderedTill(storeModeConfig('Front', 'F', frontPort, [barPort, ...alsoPulled]));
  await expect.poll(async () => (await front.call('storeMode.status', {})).peers[0]?.tillId ?? null, { timeout: 10_000 }).not.toBeNull();
  return { bar, front, sent };
}

const dineIn = (bar: TestCore, table: string, quantity = 1) => bar.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity }], service: { type: 'dine_in', table, guests: 2 } });
const otherRows = () => [...document.querySelectorAll<HTMLElement>('tbody[data-other-order-id]')];
const otherRow = (id: string) => document.querySelector<HTMLElement>(`tbody[data-other-order-id="${id}"]`);

describe('store mode on the screens', () => {
  it('off: no "At other tills", no Store part in the sync panel, and the other tills’ orders are never asked for', async () => {
    const { client, sent } = await startRenderedTill();
    const own = await client.call('orders.place', { lines: [{ menuItemId: ITEMS.fries, quantity: 1 }], customer: { name: 'Ada', phone: '' } });
    await renderOrders(client);
    renderWith(client, <SyncIndicator />);
    await waitFor(() => expect(document.querySelector(`tr[data-order-id="${own.id}"]`)).toBeTruthy());
    fireEvent.click(await screen.findByTestId('sync-indicator'));
    await screen.findByRole('dialog');
    // Longer than a refresh: a poll would have asked by now.
    await act(() => new Promise((resolve) => setTimeout(resolve, 2_500)));
    expect(sent.filter((command) => command === 'storeMode.status')).toHaveLength(2);
    expect(sent).not.toContain('storeMode.orders');
    expect(screen.queryByRole('heading', { name: 'At other tills' })).toBeNull();
    expect(screen.queryByTestId('store-sync')).toBeNull();
  });

  it('on: the sync panel’s Store part asks for the status once when it opens, then again every 2 s', async () => {
    // No peer: no page of another till's log is applied here, so nothing but the part's poll asks.
    const { client, sent } = await startRenderedTill(storeModeConfig('Front', 'F', await freePort(), []));
    renderWith(client, <StoreSyncPart />);
    await screen.findByTestId('store-sync');
    expect(sent.filter((command) => command === 'storeMode.status')).toHaveLength(1);
    await waitFor(() => expect(sent.filter((command) => command === 'storeMode.status')).toHaveLength(2), { timeout: 5_000 });
  });

  it('on: lists the other till’s open orders with what can be done to them, refreshes them while shown, and the search box filters them', async () => {
    const { bar, front } = await barAndFront();
    const table4 = await dineIn(bar, '4');
    const table9 = await dineIn(bar, '9', 2);
    await bar.call('payments.take', { orderId: table9.id, method: 'cash', amount: table9.total });
    await renderOrders(front);
    await waitFor(() => expect(otherRows()).toHaveLength(2), { timeout: 5_000 });
    const section = screen.getByRole('region', { name: 'At other tills' });
    expect(section.textContent).toContain('A change made here is sent to the till that owns the order and made there.');
    const cells = (id: string) => [...otherRow(id)!.querySelectorAll('td')].map((cell) => cell.textContent);
    const money = (minor: number) => `$${(minor / 100).toFixed(2)}`;
    expect(cells(table4.id)).toEqual([table4.label, 'Table 4', money(table4.total), 'Unpaid', 'BarNot in the cloud yet', 'Take paymentAdd itemsMore…']);
    expect(cells(table9.id)).toEqual([table9.label, 'Table 9', money(table9.total), 'Paid', 'BarNot in the cloud yet', 'Take paymentAdd itemsMore…']);
    // Bar sold again: the page of Bar's log applied here is an event, and the section asks at once (well before its 2 s poll).
    let replicated = 0;
    const off = front.on('storeMode.replicated', () => replicated++);
    for (const table of ['12', '14', '15']) {
      const placed = await dineIn(bar, table);
      const at = performance.now();
      await waitFor(() => expect(otherRow(placed.id)).toBeTruthy(), { timeout: 5_000, interval: 10 });
      expect(performance.now() - at).toBeLessThan(1_500);
    }
    off();
    expect(replicated).toBeGreaterThanOrEqual(3);
    const table12 = { id: otherRows().find((row) => row.textContent?.includes('Table 12'))!.dataset.otherOrderId! };

    const search = screen.getByLabelText('Search');
    fireEvent.change(search, { target: { value: '12' } });
    expect(otherRows().map((row) => row.dataset.otherOrderId)).toEqual([table12.id]);
    fireEvent.change(search, { target: { value: table4.label } });
    expect(otherRows().map((row) => row.dataset.otherOrderId)).toEqual([table4.id]);
    fireEvent.change(search, { target: { value: 'bar' } });
    expect(otherRows()).toHaveLength(5);
    fireEvent.change(search, { target: { value: 'Patio' } });
    expect(otherRows()).toHaveLength(0);
    expect(within(section).getByText('No order of the other tills matches the search.')).toBeTruthy();
  });

  it('on: the sync panel says which till went quiet holding orders the cloud does not have, and what was refused', async () => {
    // A till of another store (another secret) where Front expects one of its own: refused, counted.
    const strangerPort = await freePort();
    await startOtherTill(storeModeConfig('Stranger', 'S', strangerPort, [], OTHER_STORE_SECRET));
    const { bar, front } = await barAndFront([strangerPort]);
    await dineIn(bar, '4');
    await dineIn(bar, '9');
    await expect.poll(async () => (await front.call('storeMode.status', {})).peers[0]?.ordersNotInCloud, { timeout: 10_000 }).toBe(2);
    await expect.poll(async () => (await front.call('storeMode.status', {})).peers[1]?.refusals.untrustedCertificate, { timeout: 10_000 }).toBeGreaterThan(0);

    await bar.core.shutdown();
    otherTills.splice(otherTills.indexOf(bar), 1);
    // Six minutes pass without a word from Bar.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(Date.now() + 6 * 60_000);
    // The till locked itself meanwhile: the panel still says it (storeMode.status answers a locked till, as sync.status does).
    renderWith(front, <SyncIndicator />);
    fireEvent.click(await screen.findByTestId('sync-indicator'));
    const quiet = await screen.findByTestId('store-quiet-till', {}, { timeout: 5_000 });
    expect(quiet.textContent).toBe('Bar: not heard from for 6 min, holds 2 orders the cloud does not have. Adopt them on this till?');
    const peer = screen.getAllByTestId('store-peer')[0]!;
    expect(peer.textContent).toContain('last heard 6 min ago · 2 orders not in the cloud yet · in the peer list');
    const stranger = screen.getAllByTestId('store-peer')[1]!;
    expect(stranger.querySelector('strong')!.textContent).toBe(`127.0.0.1:${strangerPort}`);
    expect(within(stranger).getByTestId('store-refusal').textContent).toMatch(/^\d+ connections? refused: wrong store secret$/);

    // Signed in again, the owner adopts them from the panel: they are Front's from now on.
    await front.call('staff.signIn', { pin: STAFF.owner.pin });
    fireEvent.click(within(peer).getByRole('button', { name: 'Adopt Bar’s 2 orders' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adopt Bar’s orders?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Adopt them' }));
    const done = await within(peer).findByRole('status', {}, { timeout: 5_000 });
    expect(done.textContent).toMatch(/^Took over 2 orders from Bar \(B\d+, B\d+\): this till sends them to the cloud/);
    expect((await front.call('orders.list', {})).map((order) => order.service?.table)).toEqual(expect.arrayContaining(['4', '9']));
    expect((await front.call('storeMode.status', {})).peers[0]?.adoptableOrders).toBe(0);
  });
  it('pairing: the panel of a till not in a store takes the address and code another till shows, a wrong code said next to it; that till shows its code', async () => {
    const [barPort, frontPort] = [await freePortPair(), await freePortPair()];
    const bar = await startOtherTill(storeModeConfig('Bar', 'B', barPort, [frontPort]));
    const unpaired = storeModeConfig('Front', 'F', frontPort, [barPort], '');
    const { client: front } = await startRenderedTill({ ...unpaired, storeMode: { ...unpaired.storeMode, secretRef: 'storeMode.storeSecret' } });
    const barOrder = await dineIn(bar, '3');
    renderWith(front, <SyncIndicator />);
    fireEvent.click(await screen.findByTestId('sync-indicator'));
    const form = await screen.findByRole('form', { name: 'Join the store' });
    const shown = await bar.call('storeMode.pairingCode', {});

    fireEvent.change(within(form).getByLabelText('Address of that till'), { target: { value: shown.address } });
    const wrong = String((Number(shown.code.replace(' ', '')) + 1) % 100_000_000).padStart(8, '0');
    fireEvent.change(within(form).getByLabelText('Code'), { target: { value: wrong } });
    fireEvent.click(within(form).getByRole('button', { name: 'Join the store' }));
    const codeField = within(form).getByLabelText('Code');
    await waitFor(() => expect(codeField.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(codeField.getAttribute('aria-describedby')!)!.textContent).toMatch(/not accepted/i);
    expect((await front.call('storeMode.status', {})).mode).toBe('unpaired');

    fireEvent.change(codeField, { target: { value: shown.code } });
    fireEvent.click(within(form).getByRole('button', { name: 'Join the store' }));
    expect((await screen.findByTestId('store-joined', {}, { timeout: 10_000 })).textContent).toMatch(/^This till is in the store now \(paired with Bar\)/);
    // The panel follows: the store as Front sees it now, Bar's order listed.
    await screen.findByText('This till: Front, at 127.0.0.1:' + frontPort + '.', {}, { timeout: 10_000 });
    await expect.poll(async () => (await front.call('storeMode.orders', {})).orders.map((order) => order.id), { timeout: 10_000 }).toEqual([barOrder.id]);

    // Front shows a code of its own: the address, the code, the countdown.
    fireEvent.click(screen.getByRole('button', { name: 'Pair a new till' }));
    const asking = await screen.findByRole('dialog', { name: 'Pair a new till?' });
    fireEvent.click(within(asking).getByRole('button', { name: 'Show a code' }));
    const codeDialog = await screen.findByRole('dialog', { name: 'Pair a new till' });
    expect(within(codeDialog).getByTestId('pairing-code').textContent).toMatch(/^\d{4} \d{4}$/);
    expect(within(codeDialog).getByTestId('pairing-address').textContent).toBe(`127.0.0.1:${frontPort + 1}`);
    expect(within(codeDialog).getByRole('timer').textContent).toMatch(/^Works once, for [45]:\d\d more\.$/);
    fireEvent.click(within(codeDialog).getByRole('button', { name: 'Take the code back' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Pair a new till' })).toBeNull());
    expect((await front.call('storeMode.status', {})).pairing).toMatchObject({ open: null, last: { outcome: 'cancelled' } });
  });
});
