// The sandbox's bootstrap (API keys of every kind and an OAuth app, always) and the demo data set:
// a believable three-location restaurant with a 100+ item menu, modifiers and two weeks of orders.
import { z } from 'zod';
import type { ApiKeyKind, ApiKeyMode, OrderChannel, Permission } from '../api/enums';
import type { Category, Location, MenuItem, ModifierGroup, Order, Payment, TaxRate } from '../api/records';
import type { Clock } from '../common/clock';
import { newId } from '../common/ids';
import { createApiKey, listApiKeys } from './auth';
import { iso } from './context';
import { findOAuthApp, registerOAuthApp } from './oauth';
import { readSetting, writeSetting, type Db, type Tx } from './storage';

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
  await upgradeStoredDocs(db);
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

/** Bumped when stored records gain fields; upgradeStoredDocs brings older databases up to it. */
const DOCS_VERSION = 'checkout-1';

function insertAfter(doc: Record<string, unknown>, after: string, fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc)) {
    out[key] = value;
    if (key === after) Object.assign(out, fields);
  }
  return out;
}

const UPGRADES: { table: 'locations' | 'menu_items' | 'orders' | 'payments'; has: string; upgrade: (doc: Record<string, unknown>) => Record<string, unknown> }[] = [
  { table: 'locations', has: 'tax_rates', upgrade: (doc) => insertAfter(doc, 'status', { tax_rates: [], prices_include_tax: false, tax_rounding: 'per_line' }) },
  { table: 'menu_items', has: 'tax_class', upgrade: (doc) => insertAfter(doc, 'modifiers', { modifier_groups: [], tax_class: 'standard' }) },
  { table: 'payments', has: 'tip_amount', upgrade: (doc) => insertAfter(doc, 'amount', { tip_amount: 0 }) },
  {
    table: 'orders',
    has: 'subtotal',
    upgrade: (doc) => {
      const seededChannel = (doc.metadata as Record<string, string> | undefined)?.channel;
      const channel: OrderChannel = seededChannel === 'online' || seededChannel === 'delivery' ? seededChannel : 'pos';
      const items = (doc.items as Record<string, unknown>[]).map((line) => ({ ...line, note: '' }));
      const checkout = { order_number: null, order_type: null, table: null, guests: null, channel, subtotal: doc.total, discounts: [], discount_total: 0, tax_total: 0, tax_included: false };
      return insertAfter({ ...doc, items }, 'customer', checkout);
    },
  },
];

/**
 * Gives the records of a database written before the checkout fields existed their defaults
 * (docs/sandbox.md, "Checkout fields"), once: the replies then keep their exact shape.
 */
export async function upgradeStoredDocs(db: Db): Promise<void> {
  if ((await readSetting(db, 'docs_version')) === DOCS_VERSION) return;
  await db.transaction().execute(async (tx) => {
    for (const { table, has, upgrade } of UPGRADES) {
      for (const row of await tx.selectFrom(table).select(['id', 'doc']).execute()) {
        const doc = JSON.parse(row.doc) as Record<string, unknown>;
        if (!(has in doc)) await tx.updateTable(table).set({ doc: JSON.stringify(upgrade(doc)) }).where('id', '=', row.id).execute();
      }
    }
    await writeSetting(tx, 'docs_version', DOCS_VERSION);
  });
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

// ---- Checkout data (docs/sandbox.md, "Checkout fields") ----

/** The demo's tax rates: 'demo' gives each location rates, 'none' (the default of startSandbox) none. */
export const taxesOptionSchema = z.enum(['demo', 'none']);
export type TaxesOption = z.infer<typeof taxesOptionSchema>;

type TaxSetup = Pick<Location, 'prices_include_tax' | 'tax_rounding'> & { rates: Omit<TaxRate, 'id'>[] };

const NO_TAXES: TaxSetup = { prices_include_tax: false, tax_rounding: 'per_line', rates: [] };

const salesTax = (rateBps: number): Omit<TaxRate, 'id'>[] =>
  ['food', 'standard', 'alcohol'].map((taxClass) => ({ name: 'Sales tax', tax_class: taxClass, rate_bps: rateBps }));

/**
 * With taxes 'demo': US sales tax on top at Downtown (rounded per line) and Mission (rounded once
 * per order), and a VAT-style Oakland whose menu prices already include tax, so a till meets all
 * three. Alcohol also carries a liquor tax; the 'standard' class (items created without a class) is taxed as food.
 */
const DEMO_TAXES: TaxSetup[] = [
  { prices_include_tax: false, tax_rounding: 'per_line', rates: [...salesTax(875), { name: 'Liquor tax', tax_class: 'alcohol', rate_bps: 500 }] },
  { prices_include_tax: false, tax_rounding: 'per_order', rates: [...salesTax(875), { name: 'Liquor tax', tax_class: 'alcohol', rate_bps: 500 }] },
  { prices_include_tax: true, tax_rounding: 'per_line', rates: [...salesTax(1025), { name: 'Liquor tax', tax_class: 'alcohol', rate_bps: 500 }] },
];

/** round(a / b) for a, b > 0, halves up: the till's rounding for these non-negative amounts. */
function divRound(a: number, b: number): number {
  return Math.floor((2 * a + b) / (2 * b));
}

/**
 * The tax of a seeded order as a till computes it from the location's rates: per rate on top of the
 * price, or for prices that include tax the part of the price that is tax at the class's combined
 * rate; rounded per line, or once per class over the order.
 */
export function demoTax(location: Pick<Location, 'tax_rates' | 'prices_include_tax' | 'tax_rounding'>, lines: readonly { net: number; taxClass: string }[]): number {
  let tax = 0;
  for (const taxClass of new Set(location.tax_rates.map((r) => r.tax_class))) {
    const bps = location.tax_rates.filter((r) => r.tax_class === taxClass).map((r) => r.rate_bps);
    const nets = lines.filter((l) => l.taxClass === taxClass).map((l) => l.net);
    const groups = location.tax_rounding === 'per_line' ? nets : [nets.reduce((a, b) => a + b, 0)];
    for (const net of groups) {
      if (location.prices_include_tax) {
        const combined = bps.reduce((a, b) => a + b, 0);
        tax += net - divRound(net * 10_000, 10_000 + combined);
      } else {
        for (const rate of bps) tax += divRound(net * rate, 10_000);
      }
    }
  }
  return tax;
}

/**
 * Items added for checkout: modifier groups and alcohol, inserted after the orders are generated
 * (the seeded orders stay as they were), in categories after Desserts.
 */
interface ExtraItem {
  category: string;
  name: string;
  price: number;
  taxClass: string;
  /**
   * Items with a required group track stock: suites that order every untracked item without
   * choosing modifiers (test/sync/harness.ts) must not meet one, and the first tracked item
   * (stock suites take it) stays a dessert.
   */
  stock: number | null;
  groups: { name: string; min: number; max: number | null; modifiers: ModifierSpec[] }[];
}

/** New categories, after the original ones. */
const EXTRA_CATEGORIES = [
  { name: 'Specials', description: 'A few each night' },
  { name: 'Beer & Wine', description: '21+ with ID' },
];

const EXTRA_ITEMS: ExtraItem[] = [
  {
    category: 'Coffee & Tea',
    name: 'Iced flat white',
    price: 575,
    taxClass: 'food',
    stock: 80,
    groups: [
      { name: 'Size', min: 1, max: 1, modifiers: [['Small', 0], ['Regular', 50], ['Large', 100]] },
      { name: 'Extras', min: 0, max: 3, modifiers: [['Oat milk', 70], ['Extra shot', 90], ['Vanilla syrup', 60], ['Caramel', 60]] },
    ],
  },
  {
    category: 'Specials',
    name: 'Ribeye steak',
    price: 3600,
    taxClass: 'food',
    stock: 24,
    groups: [
      { name: 'Temperature', min: 1, max: 1, modifiers: [['Rare', 0], ['Medium rare', 0], ['Medium', 0], ['Well done', 0]] },
      { name: 'Sides', min: 0, max: 3, modifiers: [['French fries', 0], ['Side salad', 0], ['Mashed potatoes', 0], ['Roasted broccolini', 200], ['Onion rings', 150]] },
    ],
  },
  { category: 'Beer & Wine', name: 'House red wine', price: 1200, taxClass: 'alcohol', stock: null, groups: [] },
  { category: 'Beer & Wine', name: 'House white wine', price: 1100, taxClass: 'alcohol', stock: null, groups: [] },
  { category: 'Beer & Wine', name: 'Lager', price: 800, taxClass: 'alcohol', stock: null, groups: [] },
];

const LINE_NOTES = ['No onions', 'Allergy: tree nuts', 'Sauce on the side', 'Extra crispy', 'Well done', 'No ice'];

/** Inserts the demo data set once (idempotent across restarts). No events: history is not news. */
export async function seedDemo(db: Db, clock: Clock, options: { taxes?: TaxesOption } = {}): Promise<void> {
  if ((await readSetting(db, 'seeded_demo')) === 'yes') return;
  const random = mulberry32(20261121);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  // The checkout fields draw from their own sequence: the original draws, and so every seeded
  // order's lines and totals, stay what they were before checkout existed.
  const checkoutRandom = mulberry32(20261225);
  const pickCheckout = <T>(items: readonly T[]): T => items[Math.floor(checkoutRandom() * items.length)] as T;
  const taxSetups = options.taxes === 'demo' ? DEMO_TAXES : LOCATIONS.map(() => NO_TAXES);
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
      tax_rates: (taxSetups[i] ?? NO_TAXES).rates.map((rate) => ({ id: newId('tax_', start + i), ...rate })),
      prices_include_tax: (taxSetups[i] ?? NO_TAXES).prices_include_tax,
      tax_rounding: (taxSetups[i] ?? NO_TAXES).tax_rounding,
      created_at: iso(start + i),
      updated_at: iso(start + i),
    }));
    for (const l of locations) await tx.insertInto('locations').values({ id: l.id, created_at: Date.parse(l.created_at), doc: JSON.stringify(l) }).execute();

    const items: MenuItem[] = [];
    const categoryIds = new Map<string, { id: string; position: number; description: string }>();
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
      categoryIds.set(section.category, { id: category.id, position, description: section.description });
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
          // The original items' modifiers stay free extras: the groups are on the items added below.
          modifier_groups: [],
          tax_class: 'food',
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

    const taxClassOf = new Map(items.map((i) => [i.id, i.tax_class]));
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
          note: checkoutRandom() < 0.06 ? pickCheckout(LINE_NOTES) : '',
        });
      }
      const subtotal = lines.reduce((s, l) => s + l.price * l.quantity, 0);
      const tax = demoTax(location, lines.map((l) => ({ net: l.price * l.quantity, taxClass: taxClassOf.get(l.menu_item_id) ?? 'food' })));
      const total = subtotal + (location.prices_include_tax ? 0 : tax);
      const recent = createdAt > nowMs - 2 * 3600 * 1000;
      const roll = random();
      const status: Order['status'] = recent ? 'open' : roll < 0.92 ? 'fulfilled' : 'cancelled';
      const closedAt = createdAt + 20 * 60 * 1000;
      let customer: Order['customer'] = random() < 0.4 ? { name: pick(names), phone: random() < 0.5 ? `+1 415 555 ${String(1000 + n).slice(-4)}` : null } : null;
      const channel = pick(['pos', 'pos', 'online', 'delivery'] as const satisfies readonly OrderChannel[]);
      // Online and delivery orders always name their customer; dine-in ones sit at a table.
      if (channel !== 'pos' && customer === null) customer = { name: pickCheckout(names), phone: `+1 510 555 ${String(2000 + n).slice(-4)}` };
      const orderType: Order['order_type'] = channel === 'delivery' ? 'delivery' : channel === 'online' ? 'takeout' : checkoutRandom() < 0.7 ? 'dine_in' : 'takeout';
      const order: Order = {
        id: newId('ord_', createdAt),
        object: 'order',
        location_id: location.id,
        status,
        items: lines,
        customer,
        order_number: orderNumber(channel, 'ABC'.charAt(locations.indexOf(location)), n, checkoutRandom),
        order_type: orderType,
        table: orderType === 'dine_in' ? String(1 + Math.floor(checkoutRandom() * 24)) : null,
        guests: orderType === 'dine_in' ? 1 + Math.floor(checkoutRandom() * 6) : null,
        channel,
        subtotal,
        discounts: [],
        discount_total: 0,
        tax_total: tax,
        tax_included: location.prices_include_tax,
        total,
        currency: 'usd',
        amount_paid: status === 'fulfilled' ? total : 0,
        metadata: { channel },
        created_at: iso(createdAt),
        updated_at: iso(status === 'open' ? createdAt : closedAt),
        fulfilled_at: status === 'fulfilled' ? iso(closedAt) : null,
        cancelled_at: status === 'cancelled' ? iso(closedAt) : null,
      };
      await insertOrder(tx, order, createdAt, status === 'fulfilled');
    }
    const extraItems = await insertExtraItems(tx, start, categoryIds);
    if (options.taxes === 'demo') await insertLiveOrders(tx, nowMs, locations, [...items, ...extraItems]);
    await writeSetting(tx, 'seeded_demo', 'yes');
  });
}

/** Inserts a seeded order and, when paid, one captured card payment of its total a minute later. */
async function insertOrder(tx: Tx, order: Order, createdAt: number, paid: boolean): Promise<void> {
  await tx.insertInto('orders').values({ id: order.id, location_id: order.location_id, status: order.status, created_at: createdAt, doc: JSON.stringify(order) }).execute();
  if (!paid) return;
  const payment: Payment = {
    id: newId('pay_', createdAt),
    object: 'payment',
    order_id: order.id,
    amount: order.total,
    tip_amount: 0,
    currency: order.currency,
    status: 'captured',
    amount_captured: order.total,
    amount_refunded: 0,
    refunds: [],
    created_at: iso(createdAt + 60_000),
    updated_at: iso(createdAt + 61_000),
    captured_at: iso(createdAt + 61_000),
  };
  await tx.insertInto('payments').values({ id: payment.id, order_id: order.id, created_at: createdAt + 60_000, doc: JSON.stringify(payment) }).execute();
}

interface LiveOrder {
  location: number;
  channel: Exclude<OrderChannel, 'pos'>;
  number: string;
  customer: { name: string; phone: string };
  paid: boolean;
  lines: { item: string; quantity: number; modifiers?: string[]; note?: string; discount?: { reason: string; amount: number } }[];
}

/**
 * With taxes 'demo' (the checkout demo of the CLI and `npm start`): orders from the online shop and
 * delivery partners placed in the last hour, still open, so a till opens on some to prepare. Tests
 * seed without them (startSandbox's default), so the 240 orders they rely on stay the only ones.
 */
const LIVE_ORDERS: LiveOrder[] = [
  {
    location: 0,
    channel: 'delivery',
    number: 'UE-7342',
    customer: { name: 'Jordan P.', phone: '+1 415 555 7342' },
    paid: true,
    lines: [
      { item: 'Classic burger', quantity: 2, modifiers: ['Add bacon'] },
      { item: 'French fries', quantity: 1, note: 'Extra crispy' },
      { item: 'Lemon-lime soda', quantity: 2 },
    ],
  },
  {
    location: 0,
    channel: 'online',
    number: 'W2001',
    customer: { name: 'Ava', phone: '+1 415 555 2001' },
    paid: true,
    lines: [
      { item: 'Ribeye steak', quantity: 1, modifiers: ['Medium rare', 'French fries', 'Side salad'], discount: { reason: 'Online promo', amount: 500 } },
      { item: 'Iced flat white', quantity: 1, modifiers: ['Regular', 'Oat milk'] },
      { item: 'Tiramisu', quantity: 1 },
    ],
  },
  {
    location: 0,
    channel: 'delivery',
    number: 'DD-1188',
    customer: { name: 'Samira K.', phone: '+1 415 555 1188' },
    paid: true,
    lines: [
      { item: 'Margherita', quantity: 1, modifiers: ['Large (16")'] },
      { item: 'Caesar salad', quantity: 1, modifiers: ['Add grilled chicken'], note: 'Dressing on the side, please' },
      { item: 'Lager', quantity: 2 },
    ],
  },
  {
    location: 1,
    channel: 'online',
    number: 'W2002',
    customer: { name: 'Noah', phone: '+1 415 555 2002' },
    paid: false,
    lines: [
      { item: 'Pepperoni', quantity: 1 },
      { item: 'Garlic knots', quantity: 1 },
    ],
  },
  {
    location: 2,
    channel: 'delivery',
    number: 'UE-5520',
    customer: { name: 'Priya', phone: '+1 510 555 5520' },
    paid: true,
    lines: [
      { item: 'Cheeseburger', quantity: 1, modifiers: ['No onions'] },
      { item: 'House red wine', quantity: 1 },
    ],
  },
];

async function insertLiveOrders(tx: Tx, nowMs: number, locations: readonly Location[], menu: readonly MenuItem[]): Promise<void> {
  for (const [k, live] of LIVE_ORDERS.entries()) {
    const createdAt = nowMs - (LIVE_ORDERS.length - k) * 9 * 60 * 1000;
    const location = locations[live.location] as Location;
    const lines = live.lines.map((line) => {
      const item = menu.find((i) => i.name === line.item && (i.location_id === null || i.location_id === location.id)) as MenuItem;
      const modifiers = (line.modifiers ?? []).map((name) => {
        const modifier = item.modifiers.find((m) => m.name === name) as MenuItem['modifiers'][number];
        return { id: modifier.id, name: modifier.name, price: modifier.price };
      });
      const price = item.price + modifiers.reduce((sum, m) => sum + m.price, 0);
      return { item, line: { id: newId('li_', createdAt), menu_item_id: item.id, name: item.name, quantity: line.quantity, price, modifiers, note: line.note ?? '' } };
    });
    const discounts = live.lines.flatMap((line, index) => (line.discount ? [{ ...line.discount, line: index }] : []));
    const subtotal = lines.reduce((sum, { line }) => sum + line.price * line.quantity, 0);
    const discountTotal = discounts.reduce((sum, d) => sum + d.amount, 0);
    const nets = lines.map(({ item, line }, index) => ({
      net: line.price * line.quantity - discounts.filter((d) => d.line === index).reduce((sum, d) => sum + d.amount, 0),
      taxClass: item.tax_class,
    }));
    const tax = demoTax(location, nets);
    const total = subtotal - discountTotal + (location.prices_include_tax ? 0 : tax);
    const order: Order = {
      id: newId('ord_', createdAt),
      object: 'order',
      location_id: location.id,
      status: 'open',
      items: lines.map(({ line }) => line),
      customer: live.customer,
      order_number: live.number,
      order_type: live.channel === 'delivery' ? 'delivery' : 'takeout',
      table: null,
      guests: null,
      channel: live.channel,
      subtotal,
      discounts,
      discount_total: discountTotal,
      tax_total: tax,
      tax_included: location.prices_include_tax,
      total,
      currency: location.currency,
      amount_paid: live.paid ? total : 0,
      metadata: { channel: live.channel },
      created_at: iso(createdAt),
      updated_at: iso(live.paid ? createdAt + 61_000 : createdAt),
      fulfilled_at: null,
      cancelled_at: null,
    };
    await insertOrder(tx, order, createdAt, live.paid);
  }
}

/** "A17" at the till (one letter per location), "W1042" from the online shop, "UE-4821" from a delivery partner. */
function orderNumber(channel: OrderChannel, letter: string, n: number, random: () => number): string {
  if (channel === 'pos') return `${letter}${1 + (n % 99)}`;
  if (channel === 'online') return `W${1000 + n}`;
  return `${random() < 0.5 ? 'UE' : 'DD'}-${String(1000 + Math.floor(random() * 9000))}`;
}

/** The checkout items: two with modifier groups, and the alcohol. */
async function insertExtraItems(tx: Tx, start: number, categoryIds: Map<string, { id: string; position: number; description: string }>): Promise<MenuItem[]> {
  const inserted: MenuItem[] = [];
  for (const { name, description } of EXTRA_CATEGORIES) {
    const category: Category = { id: newId('cat_', start), object: 'category', name, description, position: categoryIds.size, created_at: iso(start), updated_at: iso(start) };
    await tx.insertInto('categories').values({ id: category.id, position: category.position, doc: JSON.stringify(category) }).execute();
    categoryIds.set(name, { id: category.id, position: category.position, description });
  }
  for (const extra of EXTRA_ITEMS) {
    const category = categoryIds.get(extra.category) as { id: string; position: number; description: string };
    const modifiers: MenuItem['modifiers'] = [];
    const groups: ModifierGroup[] = extra.groups.map((group) => {
      const ids = group.modifiers.map(([name, price]) => {
        const id = newId('mod_', start);
        modifiers.push({ id, object: 'modifier', name, price });
        return id;
      });
      return { id: newId('mg_', start), name: group.name, min_choices: group.min, max_choices: group.max, modifier_ids: ids };
    });
    const item: MenuItem = {
      id: newId('mi_', start),
      object: 'menu_item',
      location_id: null,
      category_id: category.id,
      name: extra.name,
      description: category.description,
      price: extra.price,
      currency: 'usd',
      available: true,
      modifiers,
      modifier_groups: groups,
      tax_class: extra.taxClass,
      stock: extra.stock,
      low_stock_threshold: extra.stock === null ? null : Math.ceil(extra.stock / 6),
      created_at: iso(start),
      updated_at: iso(start),
    };
    await tx
      .insertInto('menu_items')
      .values({ id: item.id, location_id: null, category_id: item.category_id, sort_key: `${String(category.position).padStart(6, '0')}|${item.name.toLowerCase()}`, deleted: 0, doc: JSON.stringify(item) })
      .execute();
    inserted.push(item);
  }
  return inserted;
}
