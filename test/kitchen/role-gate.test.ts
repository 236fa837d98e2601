// What a device answers by its role: a kitchen display refuses every command of the contract outside
// its own and the status reads, before anything runs (its file unchanged), and answers those with no one
// signed in; a register refuses the display's commands, signed in or not, and says what it is to anyone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands, type CommandName } from '../../bridge/contract';
import { KITCHEN_ALLOWED } from '../../main/core/kitchen/role-gate';
import { startTestCore, type TestCore } from '../core/fixtures';
import { snapshot } from '../core/staff-fixtures';
import { line, RegisterLog, startKitchenCore, type KitchenCore } from './fixtures';

const ALL = Object.keys(commands) as CommandName[];

describe('a kitchen display', () => {
  let t: KitchenCore;
  let bar: RegisterLog;
  beforeAll(async () => {
    t = await startKitchenCore();
    bar = new RegisterLog('b'.repeat(64), 'Bar', t.clock);
    bar.place({ lines: [line.burger(1)] }, 'B1');
    bar.feed(t);
    await t.call('kitchen.tickets', {});
  });
  afterAll(async () => {
    bar?.store.close();
    await t?.core.shutdown();
  });

  const refused = ALL.filter((name) => !KITCHEN_ALLOWED.has(name));
  it('has commands to refuse and a small allow-list', () => {
    expect(refused.length).toBeGreaterThan(60);
    expect([...KITCHEN_ALLOWED].sort()).toEqual(['kitchen.bump', 'kitchen.display', 'kitchen.recall', 'kitchen.tickets', 'storeMode.join', 'storeMode.status', 'sync.status']);
  });

  it.each(refused)('refuses %s, whatever its payload, and changes nothing', async (name) => {
    const before = snapshot(t.dataDir, { guard: true, audit: true });
    for (const payload of [{}, { id: 'ord_x', orderId: 'ord_x', managerPin: '1234' }, null]) {
      const response = await t.raw(name, payload);
      expect(response, name).toEqual({ ok: false, error: { code: 'invalid_command', message: expect.stringMatching(/^This is a kitchen display: it shows and bumps tickets only\./) } });
    }
    expect(snapshot(t.dataDir, { guard: true, audit: true })).toEqual(before);
  });

  it('answers its own commands and the status reads with no one signed in', async () => {
    expect(await t.call('kitchen.display', {})).toMatchObject({ role: 'kitchen', station: null });
    expect((await t.call('kitchen.tickets', {})).tickets.map((ticket) => ticket.label)).toEqual(['B1']);
    expect(await t.call('storeMode.status', {})).toMatchObject({ mode: 'on', till: { name: 'Pass' } });
    expect(await t.raw('sync.status', {})).toMatchObject({ ok: true });
    // Joining passes the gate (test/kitchen/pairing-process.test.ts joins an unpaired display); this one is in the store.
    expect(await t.raw('storeMode.join', { address: '127.0.0.1:9', code: '1234 5678' })).toMatchObject({ ok: false, error: { code: 'conflict', message: 'This till is already in the store.' } });
    const [ticket] = (await t.call('kitchen.tickets', {})).tickets;
    expect(await t.call('kitchen.bump', { orderId: ticket!.orderId })).toMatchObject({ label: 'B1' });
    expect(await t.call('kitchen.recall', { orderId: ticket!.orderId })).toEqual({ orderId: ticket!.orderId, label: 'B1', recalled: true });
  });
});

describe('a register', () => {
  let t: TestCore;
  beforeAll(async () => {
    t = await startTestCore({}, {}, undefined, { signIn: 'owner', openShift: false });
  });
  afterAll(() => t?.core.shutdown());

  it('refuses the display’s commands, signed in or locked, and changes nothing; tells anyone it is a register', async () => {
    const kitchenOnly = ['kitchen.tickets', 'kitchen.bump', 'kitchen.recall'] as const;
    for (const locked of [false, true]) {
      if (locked) await t.call('staff.lock', {});
      const before = snapshot(t.dataDir, { guard: true, audit: true });
      for (const name of kitchenOnly) {
        expect(await t.raw(name, { orderId: 'ord_x' }), name).toEqual({ ok: false, error: { code: 'invalid_command', message: expect.stringMatching(/^This till is a register/) } });
      }
      expect(snapshot(t.dataDir, { guard: true, audit: true })).toEqual(before);
      expect(await t.call('kitchen.display', {})).toEqual({ role: 'register', station: null, stations: [], amberMinutes: 8, redMinutes: 15 });
    }
    // Locked, the rest still asks for a PIN, as before.
    expect(await t.raw('orders.list', {})).toMatchObject({ ok: false, error: { code: 'needs_sign_in' } });
  });
});
