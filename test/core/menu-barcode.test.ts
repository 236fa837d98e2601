// Barcode / PLU of a menu item through the bridge: what the menu manager may type, that a code
// names one item only, that a refusal changes nothing, and that the scanner's search matches the
// code (never the item id).
import { afterEach, describe, expect, it } from 'vitest';
import { ITEMS, reopenStore, startTestCore, type TestCore } from './fixtures';

let t: TestCore;
afterEach(async () => {
  await t?.core.shutdown();
});

/** The refusal of a command: its code, message and the field its issues point at. */
async function refusal(command: string, payload: unknown) {
  const response = await t.raw(command, payload);
  if (response.ok) throw new Error(`${command} was accepted`);
  return { code: response.error.code, message: response.error.message, paths: (response.error.issues ?? []).map((i) => i.path) };
}

function unfinished(): number {
  const store = reopenStore(t.dataDir);
  try {
    return store.outbox.unfinishedCount();
  } finally {
    store.close();
  }
}

describe('menu item barcode / PLU', () => {
  it('keeps a barcode or a PLU (letters upper-cased) given on create or edit, and clears it with null', async () => {
    t = await startTestCore();
    const tea = await t.call('menu.createItem', { name: 'Tea', price: 300, categoryId: 'cat_drinks', barcode: ' 4006381333931 ' });
    expect(tea.barcode).toBe('4006381333931');
    expect((await t.call('menu.updateItem', { id: tea.id, changes: { barcode: 'b12' } })).barcode).toBe('B12');
    expect((await t.call('menu.updateItem', { id: ITEMS.fries, changes: { barcode: '4011' } })).barcode).toBe('4011');
    // An edit that does not name the code (or the description, or availability) leaves it as it is.
    await t.call('menu.updateItem', { id: ITEMS.fries, changes: { description: 'Skin on' } });
    await t.call('menu.setAvailable', { id: ITEMS.fries, available: false });
    const fries = await t.call('menu.updateItem', { id: ITEMS.fries, changes: { price: 500 } });
    expect(fries).toMatchObject({ price: 500, barcode: '4011', description: 'Skin on', available: false });
    expect((await t.call('menu.updateItem', { id: tea.id, changes: { barcode: null } })).barcode).toBeNull();
    expect((await t.call('menu.snapshot', {})).items.find((i) => i.id === ITEMS.fries)?.barcode).toBe('4011');
  });

  it('refuses a code that is neither digits nor a short PLU, next to the field, and changes nothing', async () => {
    t = await startTestCore();
    const before = unfinished();
    for (const bad of ['12345678901234567', 'ABC-123', 'SOUP', 'AB12345', '']) {
      const update = await refusal('menu.updateItem', { id: ITEMS.soup, changes: { barcode: bad } });
      expect(update, bad).toMatchObject({ code: 'invalid_command', paths: ['changes.barcode'] });
      expect(update.message).toMatch(/barcode is digits only.*PLU is up to 6 letters and digits/);
    }
    expect(await refusal('menu.createItem', { name: 'Tea', price: 300, categoryId: 'cat_drinks', barcode: '12ab34cd' })).toMatchObject({
      code: 'invalid_command',
      paths: ['barcode'],
    });
    expect(unfinished()).toBe(before);
    expect((await t.call('menu.snapshot', {})).items.find((i) => i.id === ITEMS.soup)?.barcode).toBeNull();
  });

  it('refuses a code another item has, naming that item, next to the field; an item keeps its own code on edit', async () => {
    t = await startTestCore();
    await t.call('menu.updateItem', { id: ITEMS.burger, changes: { barcode: '0012345678905' } });
    const before = unfinished();
    const onUpdate = await refusal('menu.updateItem', { id: ITEMS.fries, changes: { price: 999, barcode: '0012345678905' } });
    expect(onUpdate).toMatchObject({ code: 'conflict', paths: ['changes.barcode'] });
    expect(onUpdate.message).toBe('Burger already has barcode / PLU 0012345678905. Give this item another code, or clear it on Burger first.');
    // PLUs compare without regard to case: "b12" is "B12". (A change of the code alone queues nothing for the cloud.)
    await t.call('menu.updateItem', { id: ITEMS.latte, changes: { barcode: 'B12' } });
    expect(await refusal('menu.createItem', { name: 'Tea', price: 300, categoryId: 'cat_drinks', barcode: 'b12' })).toMatchObject({
      code: 'conflict',
      paths: ['barcode'],
      message: expect.stringMatching(/^Café latte already has barcode \/ PLU B12\./),
    });
    expect(unfinished()).toBe(before);
    const menu = await t.call('menu.snapshot', {});
    expect(menu.items.find((i) => i.id === ITEMS.fries)).toMatchObject({ price: 450, barcode: null });
    expect(menu.items.some((i) => i.name === 'Tea')).toBe(false);
    expect((await t.call('menu.updateItem', { id: ITEMS.burger, changes: { name: 'Cheeseburger', barcode: '0012345678905' } })).barcode).toBe('0012345678905');
  });

  it("the scanner's search matches the code exactly; an item id is not a barcode", async () => {
    t = await startTestCore();
    await t.call('menu.updateItem', { id: ITEMS.soup, changes: { barcode: '4006381333931' } });
    await t.call('menu.updateItem', { id: ITEMS.latte, changes: { barcode: 'B12' } });
    expect((await t.call('menu.search', { query: '4006381333931' })).map((i) => i.id)).toEqual([ITEMS.soup]);
    expect((await t.call('menu.search', { query: 'b12' })).map((i) => i.id)).toEqual([ITEMS.latte]);
    expect(await t.call('menu.search', { query: '400638133393' })).toEqual([]);
    expect(await t.call('menu.search', { query: ITEMS.fries })).toEqual([]);
  });
});
