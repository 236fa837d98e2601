// A menu item created here whose create reply was lost, pulled before the push looked for it.
// Menu items carry no metadata to recognise them by, so until the push finds its item the pulled
// copy shows as a second one; the push's look-up then folds it into the cashier's item.
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../common/clock';
import { silentLogger } from '../../common/log';
import { ApiClient } from '../../sync/api-client';
import { ApiKeyCredentials } from '../../sync/credentials';
import { DEFAULT_TUNING } from '../../sync/engine';
import { Puller } from '../../sync/pull';
import { OutboxPusher } from '../../sync/push';
import { cleanupAfterEach, menuFixture, sandboxAndStore } from './harness';

const defer = cleanupAfterEach();

describe('our own menu item, first seen through a pull', () => {
  it('ends as one item under the cashier\'s id, and one on the server', async () => {
    const { sandbox, store } = await sandboxAndStore(defer);
    const menu = await menuFixture(sandbox);
    const api = new ApiClient({ baseUrl: sandbox.baseUrl, credentials: new ApiKeyCredentials(async () => sandbox.credentials.apiKeys.full) });
    defer(() => api.close());
    const puller = new Puller({ api, store, clock: systemClock, logger: silentLogger, tuning: DEFAULT_TUNING.pull });
    await puller.reconcile({ locationId: menu.locationId, fullOrders: true });
    const category = store.cashier.listMenu(menu.locationId).categories[0]!;
    const item = store.cashier.createMenuItem({ locationId: menu.locationId, categoryId: category.id, name: 'Lost reply soup', price: 650, currency: menu.currency }, { actor: 'test' });
    const pusher = new OutboxPusher({ api, store, clock: systemClock, logger: silentLogger, tuning: DEFAULT_TUNING.push });
    await sandbox.faults.set({ drop_response_rate: 1, drop_response_methods: ['POST'] });
    await pusher.drain();
    await sandbox.faults.set({ drop_response_rate: 0 });
    await puller.reconcile({ locationId: menu.locationId, fullOrders: true });
    const named = () => store.cashier.listMenu(menu.locationId).items.filter((i) => i.name === 'Lost reply soup');
    expect(named()).toHaveLength(2);
    store.db.prepare(`UPDATE outbox SET next_attempt_at = 0 WHERE state = 'pending'`).run();
    await pusher.drain();
    expect(store.outbox.unfinishedCount()).toBe(0);
    expect(store.outbox.listDeadLetters()).toEqual([]);
    expect(named().map((i) => i.id)).toEqual([item.id]);
    expect(store.serverIdFor('menu_item', item.id)).toMatch(/^mi_/);
    // A second copy on the server would come back with the next pull as a second item.
    await puller.reconcile({ locationId: menu.locationId, fullOrders: true });
    expect(named().map((i) => i.id)).toEqual([item.id]);
  });
});
