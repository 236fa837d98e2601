// The orders the drain benchmark and `profile:sync drain` queue: three lines from the bench
// sandbox's menu (untracked stock, the first modifier where there is one), placed as a cashier would.
import { request } from 'undici';
import type { Store } from '../../store/index';

/** What the bench sandbox (test/sync/fixtures/bench-sandbox.ts) prints on its first line. */
export interface BenchSandboxInfo {
  baseUrl: string;
  /** The dashboard's JSON controls (faults such as latency_ms). */
  dashboardApiUrl: string;
  apiKey: string;
  locationId: string;
  /** The location of the extra orders the bench sandbox seeds. */
  ordersLocationId: string;
  orders: number;
}

type MenuItem = { id: string; name: string; price: number; available: boolean; stock: number | null; modifiers: { id: string; name: string; price: number }[] };

/** Places `count` orders of the same three lines in one transaction; their outbox rows wait for a drain. */
export async function queueBenchOrders(store: Store, info: BenchSandboxInfo, count: number, actor: string): Promise<void> {
  const res = await request(`${info.baseUrl}/menu/items?location_id=${info.locationId}&per_page=100`, { headers: { authorization: `Bearer ${info.apiKey}` } });
  const items = ((await res.body.json()) as { data: MenuItem[] }).data.filter((i) => i.available && i.stock === null).slice(0, 3);
  const lines = items.map((item, n) => ({
    menu_item_id: item.id,
    name: item.name,
    quantity: n + 1,
    unit_price: item.price, // the modifier's price is its own (store/documents.ts)
    modifiers: item.modifiers.slice(0, 1).map((m) => ({ modifier_id: m.id, name: m.name, price: m.price })),
  }));
  store.transaction(() => {
    for (let n = 0; n < count; n++) store.cashier.createOrder({ locationId: info.locationId, currency: 'usd', lines, customer: { name: 'Bench', phone: '' } }, { actor });
  });
}
