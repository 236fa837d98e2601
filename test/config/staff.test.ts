// The `staff` block IT provisions (docs/config.md, "Staff"; docs/it.md, "Provisioning staff"): members
// as --staff (repeatable), POS_STAFF (comma-separated) or a config file list; the auto-lock and the
// drawer mode; every bad value named by the flag, variable or file field that gave it, never echoed.
// And `npm run hash-pin`, which makes the hashes and refuses an obvious PIN.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, MANAGER_PIN_HASH, SETTINGS, pinMatches } from '../../main/config';
import { HASH_PIN_USAGE, hashPinCommand } from '../../main/config/hash-pin';

const ROOT = join(import.meta.dirname, '..', '..');
// Fixed, well-formed hashes: the config only checks the shape (hashing is slow on purpose).
const ANA = 'scrypt:YW5hc2FsdGFuYXNhbHRhbmE=:YW5haGFzaGFuYWhhc2hhbmFoYXNoYW5haGFzaGFuYWg=';
const BEN = 'scrypt:YmVuc2FsdGJlbnNhbHRiZW4=:YmVuaGFzaGJlbmhhc2hiZW5oYXNoYmVuaGFzaGJlbmg=';
const CARL = 'scrypt:Y2FybHNhbHRjYXJsc2FsdGM=:Y2FybGhhc2hjYXJsaGFzaGNhcmxoYXNoY2FybGhhc2g=';

function load(environment: { argv?: string[]; env?: Record<string, string>; machine?: unknown; user?: unknown } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'pos-staff-config-'));
  const machineConfigFile = join(dir, 'machine.json');
  const userConfigFile = join(dir, 'user.json');
  if (environment.machine !== undefined) writeFileSync(machineConfigFile, JSON.stringify(environment.machine));
  if (environment.user !== undefined) writeFileSync(userConfigFile, JSON.stringify(environment.user));
  return loadConfig({ argv: environment.argv ?? [], env: environment.env ?? {}, platform: 'linux', home: '/h', machineConfigFile, userConfigFile });
}

describe('staff configuration', () => {
  it('has defaults: no provisioned staff, auto-lock after 5 minutes, one shared drawer', () => {
    const { config, origins } = load();
    expect(config.staff).toEqual({ members: [], autoLockMinutes: 5, drawer: 'shared' });
    expect(origins).toEqual({});
  });

  it('is three settings with a flag and an environment variable each, members repeatable', () => {
    const staff = SETTINGS.filter((s) => s.path[0] === 'staff');
    expect(staff).toEqual([
      { path: ['staff', 'members'], flag: 'staff', env: 'POS_STAFF', repeatable: true },
      { path: ['staff', 'autoLockMinutes'], flag: 'auto-lock-minutes', env: 'POS_AUTO_LOCK_MINUTES' },
      { path: ['staff', 'drawer'], flag: 'cash-drawer', env: 'POS_CASH_DRAWER' },
    ]);
  });

  it('reads a repeated --staff, one member each, in order', () => {
    const { config, origins } = load({ argv: ['--staff', `Ana:owner:${ANA}`, `--staff=Ben:cashier:${BEN}`, '--staff', ` Carl : manager : ${CARL} `] });
    expect(config.staff.members).toEqual([
      { name: 'Ana', role: 'owner', pinHash: ANA },
      { name: 'Ben', role: 'cashier', pinHash: BEN },
      { name: 'Carl', role: 'manager', pinHash: CARL },
    ]);
    expect(origins['staff.members']).toBe('command line');
  });

  it('reads several members from POS_STAFF, comma-separated, ignoring empty parts', () => {
    const { config, origins } = load({ env: { POS_STAFF: `Ana:owner:${ANA}, Ben:cashier:${BEN},,Carl:cashier:${CARL},` } });
    expect(config.staff.members.map((m) => [m.name, m.role])).toEqual([
      ['Ana', 'owner'],
      ['Ben', 'cashier'],
      ['Carl', 'cashier'],
    ]);
    expect(config.staff.members[2]?.pinHash).toBe(CARL);
    expect(origins['staff.members']).toBe('environment');
  });

  it('reads a config file list of { name, role, pinHash }, and the member text form there too', () => {
    const machine = {
      staff: {
        members: [
          { name: "Ana O'Neil: owner", role: 'owner', pinHash: ANA },
          { name: 'Ben', role: 'cashier', pinHash: BEN },
          `Carl:cashier:${CARL}`,
        ],
        autoLockMinutes: 10,
        drawer: 'per-cashier',
      },
    };
    const { config, origins } = load({ machine });
    expect(config.staff).toEqual({
      members: [
        // The object form takes any name (a colon or a comma in it is the flag form's limit only).
        { name: "Ana O'Neil: owner", role: 'owner', pinHash: ANA },
        { name: 'Ben', role: 'cashier', pinHash: BEN },
        { name: 'Carl', role: 'cashier', pinHash: CARL },
      ],
      autoLockMinutes: 10,
      drawer: 'per_cashier',
    });
    expect(origins['staff.members']).toMatch(/^machine config .*machine\.json$/);
  });

  it('takes the whole list from the highest source that gives one (lists are not merged)', () => {
    const machine = { staff: { members: [{ name: 'Ana', role: 'owner', pinHash: ANA }, { name: 'Ben', role: 'cashier', pinHash: BEN }], autoLockMinutes: 3 } };
    expect(load({ machine, env: { POS_STAFF: `Carl:manager:${CARL}` } }).config.staff).toEqual({
      members: [{ name: 'Carl', role: 'manager', pinHash: CARL }],
      autoLockMinutes: 3,
      drawer: 'shared',
    });
    expect(load({ machine, env: { POS_STAFF: `Carl:manager:${CARL}` }, argv: ['--staff', `Ben:cashier:${BEN}`] }).config.staff.members.map((m) => m.name)).toEqual(['Ben']);
    // A user file that sets only the auto-lock keeps IT's list.
    expect(load({ machine, user: { staff: { autoLockMinutes: 0 } } }).config.staff).toMatchObject({ members: [{ name: 'Ana' }, { name: 'Ben' }], autoLockMinutes: 0 });
  });

  it.each([
    ['a bad role', { argv: ['--staff', `Ana:boss:${ANA}`] }, /command line: --staff: the role is cashier, manager or owner/],
    ['a bad role', { env: { POS_STAFF: `Ana:owner:${ANA},Ben:chef:${BEN}` } }, /environment: POS_STAFF: the role is cashier, manager or owner/],
    ['a bad role', { machine: { staff: { members: [{ name: 'Ana', role: 'Owner', pinHash: ANA }] } } }, /machine config .*: staff\.members\.0\.role: the role is cashier, manager or owner/],
    ['a PIN instead of its hash', { argv: ['--staff', 'Ana:owner:4821'] }, /command line: --staff: the PIN must be given as scrypt:<salt>:<hash> \(npm run hash-pin\)/],
    ['a bad hash', { env: { POS_STAFF: 'Ana:owner:scrypt:short:short' } }, /environment: POS_STAFF: the PIN must be given as scrypt/],
    ['no hash', { env: { POS_STAFF: 'Ana:owner' } }, /environment: POS_STAFF: the PIN must be given as scrypt/],
    ['a bad hash', { user: { staff: { members: [{ name: 'Ana', role: 'owner', pinHash: '4821' }] } } }, /user config .*: staff\.members\.0\.pinHash: the PIN must be given as scrypt/],
    ['a missing name', { argv: ['--staff', `:owner:${ANA}`] }, /command line: --staff: needs a name \(Name:role:hash\)/],
    ['a missing name', { env: { POS_STAFF: `  :cashier:${BEN}` } }, /environment: POS_STAFF: needs a name/],
    ['a missing name', { machine: { staff: { members: [{ name: '', role: 'owner', pinHash: ANA }] } } }, /machine config .*: staff\.members\.0\.name: needs a name/],
    ['a missing field', { machine: { staff: { members: [{ name: 'Ana', role: 'owner' }] } } }, /machine config .*: staff\.members\.0\.pinHash: /],
    ['an unknown field', { machine: { staff: { members: [{ name: 'Ana', role: 'owner', pinHash: ANA, pin: '4821' }] } } }, /machine config .*: staff\.members\.0\.pin: is not a known setting/],
    ['a duplicate name', { argv: ['--staff', `Ana:owner:${ANA}`, '--staff', `ana:cashier:${BEN}`] }, /command line: --staff: ana is listed twice/],
    ['a duplicate name', { env: { POS_STAFF: `Ben:cashier:${BEN},Ben:manager:${CARL}` } }, /environment: POS_STAFF: Ben is listed twice/],
    ['names differing only in punctuation', { env: { POS_STAFF: `Dana Okafor:cashier:${BEN},dana-okafor:manager:${CARL}` } }, /environment: POS_STAFF: dana-okafor is listed twice/],
    ['a duplicate name', { user: { staff: { members: [{ name: 'Ana', role: 'owner', pinHash: ANA }, { name: 'ANA', role: 'cashier', pinHash: BEN }] } } }, /user config .*: staff\.members\.1\.name: ANA is listed twice/],
  ])('refuses %s, naming the flag, variable or field %#', (_what, environment, message) => {
    expect(() => load(environment)).toThrow(message);
  });

  it('never repeats a hash or a PIN in its error', () => {
    for (const environment of [{ argv: ['--staff', `Ana:boss:${ANA}`] }, { env: { POS_STAFF: `Ana:owner:${ANA},Ana:cashier:${BEN}` } }, { argv: ['--staff', 'Ana:owner:482193'] }]) {
      let message = '';
      try {
        load(environment);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^configuration error in /);
      for (const secret of [ANA, BEN, 'YW5h', '482193']) expect(message).not.toContain(secret);
    }
  });

  it('reads the auto-lock in whole minutes from 0 (never) to 240', () => {
    expect(load({ argv: ['--auto-lock-minutes', '0'] }).config.staff.autoLockMinutes).toBe(0);
    expect(load({ env: { POS_AUTO_LOCK_MINUTES: '240' } }).config.staff.autoLockMinutes).toBe(240);
    expect(load({ user: { staff: { autoLockMinutes: 15 } } }).config.staff.autoLockMinutes).toBe(15);
    expect(() => load({ argv: ['--auto-lock-minutes', '-1'] })).toThrow(/command line: --auto-lock-minutes: cannot be negative/);
    expect(() => load({ env: { POS_AUTO_LOCK_MINUTES: '241' } })).toThrow(/environment: POS_AUTO_LOCK_MINUTES: at most 240 minutes/);
    expect(() => load({ env: { POS_AUTO_LOCK_MINUTES: '2.5' } })).toThrow(/environment: POS_AUTO_LOCK_MINUTES: must be a whole number of minutes/);
    expect(() => load({ machine: { staff: { autoLockMinutes: 'soon' } } })).toThrow(/machine config .*: staff\.autoLockMinutes: /);
  });

  it('reads the drawer mode: shared, or per-cashier as per_cashier', () => {
    expect(load({ argv: ['--cash-drawer', 'per-cashier'] }).config.staff.drawer).toBe('per_cashier');
    expect(load({ env: { POS_CASH_DRAWER: 'per-cashier' } }).config.staff.drawer).toBe('per_cashier');
    expect(load({ env: { POS_CASH_DRAWER: 'per_cashier' } }).config.staff.drawer).toBe('per_cashier');
    expect(load({ argv: ['--cash-drawer=shared'], env: { POS_CASH_DRAWER: 'per-cashier' } }).config.staff.drawer).toBe('shared');
    expect(() => load({ env: { POS_CASH_DRAWER: 'personal' } })).toThrow(/environment: POS_CASH_DRAWER: must be shared or per-cashier/);
    expect(() => load({ argv: ['--cash-drawer', 'Shared'] })).toThrow(/command line: --cash-drawer: must be shared or per-cashier/);
  });

  it('still reads the deprecated manager PIN hash beside the staff list', () => {
    const { config } = load({ argv: ['--manager-pin-hash', CARL, '--staff', `Ana:owner:${ANA}`] });
    expect(config.offlinePayments.managerPinHash).toBe(CARL);
    expect(config.staff.members).toEqual([{ name: 'Ana', role: 'owner', pinHash: ANA }]);
  });
});

describe('npm run hash-pin', () => {
  it('prints a hash the configuration takes and the till verifies', async () => {
    const result = hashPinCommand(['4821']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const hash = result.stdout.trim();
    expect(result.stdout).toBe(`${hash}\n`);
    expect(hash).toMatch(MANAGER_PIN_HASH);
    expect(await pinMatches('4821', hash)).toBe(true);
    expect(load({ argv: ['--staff', `Ana:owner:${hash}`] }).config.staff.members[0]?.pinHash).toBe(hash);
    // Salted: the same PIN twice gives two different hashes.
    expect(hashPinCommand(['4821']).stdout).not.toBe(result.stdout);
  });

  it.each(['1234', '1111', '9876', '0000', '45678', '87654321'])('refuses the obvious PIN %s with exit code 2 and says why', (pin) => {
    const result = hashPinCommand([pin], () => 'never');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/refused: That PIN is too easy to guess/);
    expect(result.stderr).toContain('--allow-weak');
  });

  it('hashes an obvious PIN with --allow-weak, before or after it', () => {
    expect(hashPinCommand(['--allow-weak', '1111'], (pin) => `h(${pin})`)).toEqual({ code: 0, stdout: 'h(1111)\n', stderr: '' });
    expect(hashPinCommand(['1234', '--allow-weak'], (pin) => `h(${pin})`)).toEqual({ code: 0, stdout: 'h(1234)\n', stderr: '' });
  });

  it.each([[[]], [['12']], [['123456789']], [['12a4']], [['4821', '5930']], [['--weak', '4821']]])('refuses %j with the usage and exit code 2', (args) => {
    const result = hashPinCommand(args, () => 'never');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(HASH_PIN_USAGE);
  });

  it('says in its usage how the hash is given as --staff', () => {
    expect(HASH_PIN_USAGE).toContain('--staff "Name:role:<hash>"');
    expect(HASH_PIN_USAGE).toContain('POS_STAFF');
    expect(hashPinCommand(['--help'])).toEqual({ code: 0, stdout: `${HASH_PIN_USAGE}\n`, stderr: '' });
  });

  it('runs as the package script: a weak PIN exits 2 with the reason, a good one prints the hash alone', async () => {
    const tsx = join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'tsx.cmd' : 'tsx');
    const weak = spawnSync(tsx, ['main/config/hash-pin.ts', '1234'], { cwd: ROOT, encoding: 'utf8', shell: process.platform === 'win32' });
    expect(weak.status).toBe(2);
    expect(weak.stdout).toBe('');
    expect(weak.stderr).toMatch(/refused: That PIN is too easy to guess/);
    const good = spawnSync(tsx, ['main/config/hash-pin.ts', '4821'], { cwd: ROOT, encoding: 'utf8', shell: process.platform === 'win32' });
    expect(good.status).toBe(0);
    expect(good.stdout).toMatch(new RegExp(`^${MANAGER_PIN_HASH.source.slice(1, -1)}\\n$`));
    expect(await pinMatches('4821', good.stdout.trim())).toBe(true);
  }, 30_000);
});
