// The sandbox's bootstrap (API keys of every kind and an OAuth app, always) and the demo data set:
// a believable three-location restaurant with a 100+ item menu, modifiers and two weeks of orders.
import type { ApiKeyKind, ApiKeyMode, Permission } from '../api/enums';
import type { Category, Location, MenuItem, Order, Payment } from '../api/records';
import type { Clock } from '../common/clock';
import { newId } from '../common/ids';
import { createApiKey, listApiKeys } from './auth';
import { iso } from './context';
import { findOAuthApp, registerOAuthApp } from './oauth';
import { readSetting, writeSetting, type Db } from './storage';

export interface SeededCredentials {
  apiKeys: {
    full: string;
    fullLive: string;
    readOnly: string;
    ordersOnly: string;
    menuOnly: string;
    /** A custom set: what a till needs (orders, payments, reading menu and locations). */
    custom: string;
  };
  /** The key record ids, for regeneration through the dashboard. */
  apiKeyIds: Record<keyof SeededCredentials['apiKeys'], string>;
  oauthClient: { clientId: string; clientSecret: string; redirectUris: string[] };
  locationIds: string[];
}

const TILL_PERMISSIONS: Permission[] = ['orders:read', 'orders:write', 'payments:read', 'payments:write', 'locations:read', 'menu:read'];

const SEED_KEYS: Record<keyof SeededCredentials['apiKeys'], { kind: ApiKeyKind; mode: ApiKeyMode; permissions?: Permission[] }> = {
  full: { kind: 'full', mode: 'test' },
  fullLive: { kind: 'full', mode: 'live' },
  readOnly: { kind: 'read_only', mode: 'test' },
  ordersOnly: { kind: 'orders_only', mode: 'test' },
  menuOnly: { kind: 'menu_only', mode: 'test' },
  custom: { kind: 'custom', mode: 'test', permissions: TILL_PERMISSIONS },
};

export const SEED_REDIRECT_URIS = ['http://127.0.0.1/callback', 'http://localhost/callback'];

/** Creates the seeded keys and OAuth app once; on a reopened database, reads them back. */
export async function bootstrap(db: Db, clock: Clock): Promise<Omit<SeededCredentials, 'locationIds'>> {
  if ((await readSetting(db, 'currency')) === undefined) await writeSetting(db, 'currency', 'usd');
  const existing = await listApiKeys(db);
  const apiKeys = {} as SeededCredentials['apiKeys'];
  const apiKeyIds = {} as SeededCredentials['apiKeyIds'];
  for (const [name, spec] of Object.entries(SEED_KEYS) as [keyof SeededCredentials['apiKeys'], (typeof SEED_KEYS)[keyof SeededCredentials['apiKeys']]][]) {
    const label = `seed:${name}`;
    const key = existing.find((k) => k.label === label) ?? (await createApiKey(db, clock, { ...spec, label }));
    apiKeys[name] = key.secret;
    apiKeyIds[name] = key.id;
  }
  const clientId = await readSetting(db, 'seed_oauth_client');
  let app = clientId ? await findOAuthApp(db, clientId) : undefined;
  if (!app) {
    app = await registerOAuthApp(db, clock, { name: 'POS Terminal (seeded)', redirect_uris: SEED_REDIRECT_URIS });
    await writeSetting(db, 'seed_oauth_client', app.client_id);
  }
  return { apiKeys, apiKeyIds, oauthClient: { clientId: app.client_id, clientSecret: app.client_secret as string, redirectUris: app.redirect_uris } };
}

export async function locationIds(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('locations').select('id').orderBy('created_at').orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** A small deterministic generator so the demo data is the same on every run. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LOCATIONS = [
  { name: 'Harbor & Vine — Downtown', line1: '118 Market Street', city: 'San Francisco', postal: '94105', phone: '+1 415 555 0118' },
  { name: 'Harbor & Vine — Mission', line1: '2290 Valencia Street', city: 'San Francisco', postal: '94110', phone: '+1 415 555 0290' },
  { name: 'Harbor & Vine — Oakland Uptown', line1: '1745 Telegraph Avenue', city: 'Oakland', postal: '94612', phone: '+1 510 555 0745' },
];

type ModifierSpec = [name: string, price: number];
const BURGER_MODS: ModifierSpec[] = [['Add bacon', 250], ['Extra cheese', 150], ['Gluten-free bun', 200], ['No onions', 0]];
const PIZZA_MODS: ModifierSpec[] = [['Large (16")', 500], ['Extra mozzarella', 200], ['Gluten-free crust', 300], ['Add chili oil', 50]];
const SALAD_MODS: ModifierSpec[] = [['Add grilled chicken', 450], ['Add salmon', 650], ['Dressing on the side', 0]];
const DRINK_MODS: ModifierSpec[] = [['Large', 100], ['No ice', 0]];
const COFFEE_MODS: ModifierSpec[] = [['Oat milk', 70], ['Extra shot', 90], ['Decaf', 0]];
const PASTA_MODS: ModifierSpec[] = [['Gluten-free pasta', 250], ['Add meatballs', 400], ['Extra parmesan', 100]];

const MENU: { category: string; description: string; modifiers: ModifierSpec[]; items: [string, number][] }[] = [
  { category: 'Starters', description: 'To share, or not', modifiers: [], items: [['Garlic knots', 650], ['Crispy calamari', 1250], ['Burrata & tomatoes', 1400], ['Chicken wings', 1150], ['Loaded nachos', 1200], ['Tomato soup', 750], ['Bruschetta trio', 950], ['Fried pickles', 800], ['Mozzarella sticks', 900], ['Edamame', 600], ['Shrimp cocktail', 1500]] },
  { category: 'Salads', description: 'Greens from Full Belly Farm', modifiers: SALAD_MODS, items: [['Caesar salad', 1150], ['Greek salad', 1200], ['Cobb salad', 1450], ['Kale & quinoa', 1300], ['Beet & goat cheese', 1250], ['Wedge salad', 1100], ['Caprese salad', 1200], ['Asian sesame salad', 1250], ['House green salad', 850]] },
  { category: 'Burgers', description: 'Grass-fed beef, brioche bun, fries', modifiers: BURGER_MODS, items: [['Classic burger', 1450], ['Cheeseburger', 1550], ['Bacon BBQ burger', 1750], ['Mushroom swiss burger', 1650], ['Veggie burger', 1450], ['Spicy jalapeño burger', 1650], ['Double smash burger', 1850], ['Turkey burger', 1500], ['Blue cheese burger', 1700], ['Impossible burger', 1650]] },
  { category: 'Pizzas', description: 'Wood-fired, 12 inch', modifiers: PIZZA_MODS, items: [['Margherita', 1500], ['Pepperoni', 1650], ['Quattro formaggi', 1750], ['Funghi', 1650], ['Diavola', 1750], ['Prosciutto & arugula', 1900], ['Hawaiian', 1650], ['Veggie supreme', 1700], ['BBQ chicken pizza', 1800], ['White clam pizza', 1950], ['Sausage & fennel', 1800]] },
  { category: 'Pasta', description: 'Made in house daily', modifiers: PASTA_MODS, items: [['Spaghetti pomodoro', 1500], ['Fettuccine alfredo', 1650], ['Penne arrabbiata', 1500], ['Lasagna bolognese', 1850], ['Cacio e pepe', 1600], ['Linguine vongole', 2100], ['Pesto gnocchi', 1750], ['Mushroom risotto', 1850], ['Carbonara', 1750]] },
  { category: 'Mains', description: 'Served with a seasonal side', modifiers: [], items: [['Roast half chicken', 2400], ['Grilled salmon', 2700], ['Steak frites', 3200], ['Fish & chips', 2100], ['Pork chop', 2600], ['Short rib', 2900], ['Vegetable curry', 1900], ['Fish tacos', 1800], ['Chicken parmesan', 2200], ['Lamb shank', 3100]] },
  { category: 'Sides', description: 'Add one to anything', modifiers: [], items: [['French fries', 550], ['Sweet potato fries', 650], ['Onion rings', 650], ['Mac & cheese', 750], ['Roasted broccolini', 700], ['Mashed potatoes', 600], ['Side salad', 550], ['Garlic bread', 500], ['Coleslaw', 450]] },
  { category: 'Desserts', description: 'Baked this morning', modifiers: [], items: [['Tiramisu', 950], ['Chocolate lava cake', 1050], ['New York cheesecake', 950], ['Crème brûlée', 900], ['Apple crumble', 850], ['Affogato', 750], ['Gelato (3 scoops)', 800], ['Key lime pie', 900], ['Brownie sundae', 950]] },
  { category: 'Drinks', description: 'Cold and fizzy', modifiers: DRINK_MODS, items: [['Cola', 350], ['Diet cola', 350], ['Lemon-lime soda', 350], ['Ginger ale', 375], ['Fresh lemonade', 500], ['Iced tea', 400], ['Sparkling water', 400], ['Still water', 300], ['Orange juice', 550], ['Arnold Palmer', 475], ['Root beer', 375]] },
  { category: 'Coffee & Tea', description: 'Counter Culture beans', modifiers: COFFEE_MODS, items: [['Espresso', 350], ['Americano', 400], ['Cappuccino', 500], ['Latte', 550], ['Flat white', 525], ['Mocha', 600], ['Cold brew', 525], ['Chai latte', 575], ['Matcha latte', 625], ['Earl Grey tea', 400], ['Peppermint tea', 400]] },
  { category: 'Kids', description: 'For 12 and under', modifiers: [], items: [['Kids cheeseburger', 900], ['Kids pasta butter', 800], ['Chicken tenders', 950], ['Kids pizza', 900], ['Grilled cheese', 800], ['Kids mac & cheese', 800]] },
];

/** Inserts the demo data set once (idempotent across restarts). No events: history is not news. */
export async function seedDemo(db: Db, clock: Clock): Promise<void> {
  if ((await readSetting(db, 'seeded_demo')) === 'yes') return;
  const random = mulberry32(20261121);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const nowMs = clock.now();
  const dayMs = 24 * 3600 * 1000;
  const start = nowMs - 15 * dayMs;

  await db.transaction().execute(async (tx) => {
    const locations: Location[] = LOCATIONS.map((l, i) => ({
      id: newId('loc_', start + i),
      object: 'location',
      name: l.name,
      address: { line1: l.line1, line2: null, city: l.city, region: 'CA', postal_code: l.postal, country: 'US' },
      phone: l.phone,
      timezone: 'America/Los_Angeles',
      currency: 'usd',
      status: 'active',
      created_at: iso(start + i),
      updated_at: iso(start + i),
    }));
    for (const l of locations) await tx.insertInto('locations').values({ id: l.id, created_at: Date.parse(l.created_at), doc: JSON.stringify(l) }).execute();

    const items: MenuItem[] = [];
    for (const [position, section] of MENU.entries()) {
      const category: Category = {
        id: newId('cat_', start),
        object: 'category',
        name: section.category,
        description: section.description,
        position,
        created_at: iso(start),
        updated_at: iso(start),
      };
      await tx.insertInto('categories').values({ id: category.id, position, doc: JSON.stringify(category) }).execute();
      for (const [index, [name, price]] of section.items.entries()) {
        // Oakland's last items of each section are exclusive to it; desserts track stock.
        const locationId = index === section.items.length - 1 ? (locations[2] as Location).id : null;
        const tracked = section.category === 'Desserts';
        const item: MenuItem = {
          id: newId('mi_', start),
          object: 'menu_item',
          location_id: locationId,
          category_id: category.id,
          name,
          description: section.description,
          price,
          currency: 'usd',
          available: !(section.category === 'Mains' && index === 4),
          modifiers: section.modifiers.map(([modName, modPrice]) => ({ id: newId('mod_', start), object: 'modifier', name: modName, price: modPrice })),
          stock: tracked ? 40 : null,
          low_stock_threshold: tracked ? 5 : null,
          created_at: iso(start),
          updated_at: iso(start),
        };
        items.push(item);
        await tx
          .insertInto('menu_items')
          .values({ id: item.id, location_id: item.location_id, category_id: item.category_id, sort_key: `${String(position).padStart(6, '0')}|${name.toLowerCase()}`, deleted: 0, doc: JSON.stringify(item) })
          .execute();
      }
    }

    const names = ['Ava', 'Liam', 'Maya', 'Noah', 'Sofia', 'Ethan', 'Chloe', 'Lucas', 'Zoe', 'Mateo', 'Priya', 'Kenji'];
    const orderCount = 240;
    for (let n = 0; n < orderCount; n++) {
      const createdAt = start + dayMs + Math.floor((n / orderCount) * 14 * dayMs) + Math.floor(random() * 3600 * 1000);
      const location = pick(locations);
      const sellable = items.filter((i) => i.available && (i.location_id === null || i.location_id === location.id));
      const lines: Order['items'] = [];
      const lineCount = 1 + Math.floor(random() * 4);
      for (let l = 0; l < lineCount; l++) {
        const item = pick(sellable);
        const modifiers = item.modifiers.filter(() => random() < 0.25).map((m) => ({ id: m.id, name: m.name, price: m.price }));
        lines.push({
          id: newId('li_', createdAt),
          menu_item_id: item.id,
          name: item.name,
          quantity: 1 + Math.floor(random() * 3),
          price: item.price + modifiers.reduce((s, m) => s + m.price, 0),
          modifiers,
        });
      }
      const total = lines.reduce((s, l) => s + l.price * l.quantity, 0);
      const recent = createdAt > nowMs - 2 * 3600 * 1000;
      const roll = random();
      const status: Order['status'] = recent ? 'open' : roll < 0.92 ? 'fulfilled' : 'cancelled';
      const closedAt = createdAt + 20 * 60 * 1000;
      const order: Order = {
        id: newId('ord_', createdAt),
        object: 'order',
        location_id: location.id,
        status,
        items: lines,
        customer: random() < 0.4 ? { name: pick(names), phone: random() < 0.5 ? `+1 415 555 ${String(1000 + n).slice(-4)}` : null } : null,
        total,
        currency: 'usd',
        amount_paid: status === 'fulfilled' ? total : 0,
        metadata: { channel: pick(['pos', 'pos', 'online', 'delivery']) },
        created_at: iso(createdAt),
        updated_at: iso(status === 'open' ? createdAt : closedAt),
        fulfilled_at: status === 'fulfilled' ? iso(closedAt) : null,
        cancelled_at: status === 'cancelled' ? iso(closedAt) : null,
      };
      await tx.insertInto('orders').values({ id: order.id, location_id: order.location_id, status, created_at: createdAt, doc: JSON.stringify(order) }).execute();
      if (status === 'fulfilled') {
        const payment: Payment = {
          id: newId('pay_', createdAt),
          object: 'payment',
          order_id: order.id,
          amount: total,
          currency: 'usd',
          status: 'captured',
          amount_captured: total,
          amount_refunded: 0,
          refunds: [],
          created_at: iso(createdAt + 60_000),
          updated_at: iso(createdAt + 61_000),
          captured_at: iso(createdAt + 61_000),
        };
        await tx.insertInto('payments').values({ id: payment.id, order_id: order.id, created_at: createdAt + 60_000, doc: JSON.stringify(payment) }).execute();
      }
    }
    await writeSetting(tx, 'seeded_demo', 'yes');
  });
}
