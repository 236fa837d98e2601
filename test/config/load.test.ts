import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, hashManagerPin, loadConfig, machineConfigFile, userConfigFile, pinMatches } from '../../main/config';

function files(machine?: unknown, user?: unknown) {
  const dir = mkdtempSync(join(tmpdir(), 'pos-config-'));
  const machineConfigFile = join(dir, 'machine.json');
  const userConfigFile = join(dir, 'user.json');
  if (machine !== undefined) writeFileSync(machineConfigFile, typeof machine === 'string' ? machine : JSON.stringify(machine));
  if (user !== undefined) writeFileSync(userConfigFile, typeof user === 'string' ? user : JSON.stringify(user));
  return { dir, machineConfigFile, userConfigFile };
}

describe('loadConfig', () => {
  it('gives a working default with no configuration: embedded sandbox, per-OS data dir', () => {
    const { machineConfigFile, userConfigFile } = files();
    const { config, origins } = loadConfig({ argv: [], env: {}, platform: 'linux', home: '/home/ada', machineConfigFile, userConfigFile });
    expect(config.api.baseUrl).toBe('');
    expect(config.dataDir).toBe('/home/ada/.local/share/pos-terminal');
    expect(config.offlinePayments).toEqual({ perTransaction: 10_000, total: 100_000, managerPinHash: '' });
    expect(origins).toEqual({});
  });

  it('applies flags over environment over user file over machine file', () => {
    const paths = files(
      { api: { baseUrl: 'https://machine.example/v1' }, locationId: 'loc_machine', kioskMode: true, offlinePayments: { total: 5 } },
      { api: { baseUrl: 'https://user.example/v1' }, locationId: 'loc_user' },
    );
    const { config, origins } = loadConfig({
      ...paths,
      argv: ['--location-id', 'loc_flag', '--offline-per-transaction=2500', '--webhook'],
      env: { POS_LOCATION_ID: 'loc_env', POS_API_BASE_URL: 'https://env.example/v1' },
      platform: 'linux',
      home: '/h',
    });
    expect(config.locationId).toBe('loc_flag');
    expect(config.api.baseUrl).toBe('https://env.example/v1');
    expect(config.api.apiHost).toBe('https://env.example');
    expect(config.api.authUrl).toBe('https://env.example');
    expect(config.kioskMode).toBe(true);
    expect(config.offlinePayments).toMatchObject({ perTransaction: 2500, total: 5 });
    expect(config.webhook.enabled).toBe(true);
    expect(origins['locationId']).toBe('command line');
    expect(origins['kioskMode']).toBe(`machine config ${paths.machineConfigFile}`);
  });

  it.each([
    [{ argv: ['--port', 'eighty'] }, /command line: --port: /],
    [{ argv: ['--colour', 'red'] }, /command line: --colour: is not a known flag/],
    [{ env: { POS_OFFLINE_TOTAL: '-3' } }, /environment: POS_OFFLINE_TOTAL: cannot be negative/],
    [{ env: { POS_API_BASE_URL: 'https://x.example/api' } }, /environment: POS_API_BASE_URL: must end with \/v1/],
    [{ env: { POS_MANAGER_PIN_HASH: '1234' } }, /POS_MANAGER_PIN_HASH: must be scrypt/],
  ])('names the source and field of a bad value %#', (environment, message) => {
    const paths = files();
    expect(() => loadConfig({ ...paths, argv: [], env: {}, platform: 'linux', home: '/h', ...environment })).toThrow(message);
  });

  it('reads the large-charge confirmation amount (default $1,000.00) and names the field of a bad one', () => {
    const at = (environment: { argv?: string[]; env?: Record<string, string> }, user?: unknown) =>
      loadConfig({ ...files(undefined, user), argv: [], env: {}, platform: 'linux', home: '/h', ...environment });
    expect(at({}).config.payments.confirmAbove).toBe(100_000);
    expect(at({}, { payments: { confirmAbove: 250_000 } }).config.payments.confirmAbove).toBe(250_000);
    expect(at({ env: { POS_CONFIRM_CHARGE_ABOVE: '0' } }).config.payments.confirmAbove).toBe(0);
    expect(() => at({ env: { POS_CONFIRM_CHARGE_ABOVE: '-5' } })).toThrow(/environment: POS_CONFIRM_CHARGE_ABOVE: cannot be negative/);
    expect(() => at({ argv: ['--confirm-charge-above', '12.50'] })).toThrow(/command line: --confirm-charge-above: must be whole minor units/);
  });

  it('names the file and field of a bad config file', () => {
    const paths = files({ webhook: { port: 70000 } }, { kioskMode: 'yes please' });
    expect(() => loadConfig({ ...paths, argv: [], env: {}, platform: 'linux', home: '/h' })).toThrow(/machine config .*machine\.json: webhook\.port: must be 0\.\.65535/);
    const unknown = files(undefined, { locaton: 'typo' });
    expect(() => loadConfig({ ...unknown, argv: [], env: {}, platform: 'linux', home: '/h' })).toThrow(/user config .*user\.json: locaton: is not a known setting/);
    const broken = files('{ not json');
    expect(() => loadConfig({ ...broken, argv: [], env: {}, platform: 'linux', home: '/h' })).toThrow(ConfigError);
  });

  it('reads the per-user file named by --config', () => {
    const paths = files(undefined, { locationId: 'loc_user' });
    const { config } = loadConfig({ machineConfigFile: paths.machineConfigFile, argv: ['--config', paths.userConfigFile], env: {}, platform: 'linux', home: '/h' });
    expect(config.locationId).toBe('loc_user');
  });

  it('knows the per-OS file locations', () => {
    expect(machineConfigFile('win32', { ProgramData: 'C:\\ProgramData' })).toMatch(/ProgramData.PosTerminal.config\.json$/);
    expect(machineConfigFile('darwin', {})).toBe('/Library/Application Support/PosTerminal/config.json');
    expect(machineConfigFile('linux', {})).toBe('/etc/pos-terminal/config.json');
    expect(userConfigFile('linux', { XDG_CONFIG_HOME: '/x' }, '/h')).toBe('/x/pos-terminal/config.json');
  });
});

describe('manager PIN hash', () => {
  it('verifies the right PIN and refuses others', async () => {
    const hash = hashManagerPin('4321');
    expect(await pinMatches('4321', hash)).toBe(true);
    expect(await pinMatches('1234', hash)).toBe(false);
    expect(await pinMatches('4321', 'garbage')).toBe(false);
    expect(() => hashManagerPin('12')).toThrow(RangeError);
  });
});

describe('checkout settings', () => {
  const none = join(mkdtempSync(join(tmpdir(), 'cfg-checkout-')), 'none.json');
  const load = (argv: string[], env: Record<string, string> = {}) => loadConfig({ argv, env, platform: 'linux', home: '/h', machineConfigFile: none, userConfigFile: none }).config;

  it('reads tax rates in percent with up to four decimals, tips in percent, and the till letter', () => {
    const config = load(['--till-letter', 'B', '--tip-percents', '10,12.5', '--tax-rates', 'standard:Sales tax:8.875,alcohol:Liquor tax:5'], { POS_TAX_ROUNDING: 'per_order' });
    expect(config.checkout).toMatchObject({ tillLetter: 'B', tipPercents: [1000, 1250], discountApproval: { percentBps: 2000, amount: 2000 } });
    expect(config.tax).toEqual({
      taxIncluded: false,
      rounding: 'per_order',
      rates: [
        { taxClass: 'standard', name: 'Sales tax', ratePpm: 88_750 },
        { taxClass: 'alcohol', name: 'Liquor tax', ratePpm: 50_000 },
      ],
    });
  });

  it('stops on a bad value, naming the flag or variable', () => {
    expect(() => load(['--till-letter', 'b'])).toThrow(/--till-letter: must be one capital letter/);
    expect(() => load([], { POS_TAX_RATES: 'standard:Sales tax:-5' })).toThrow(/POS_TAX_RATES/);
    expect(() => load(['--tip-percents', '15,abc'])).toThrow(/--tip-percents/);
    expect(() => load(['--tax-rates', 'standard:Sales tax:8.87501'])).toThrow(/at most four decimals/);
  });

  it('has no automatic gratuity unless IT sets one, and reads one from flags or variables', () => {
    expect(load([]).checkout.autoGratuity).toBeNull();
    expect(load(['--auto-gratuity-guests', '8', '--auto-gratuity-percent', '18']).checkout.autoGratuity).toEqual({ name: 'Gratuity', percentBps: 1800, minGuests: 8, taxClass: null });
    expect(load([], { POS_AUTO_GRATUITY_GUESTS: '6', POS_AUTO_GRATUITY_PERCENT: '20', POS_AUTO_GRATUITY_NAME: 'Service charge', POS_AUTO_GRATUITY_TAX_CLASS: 'standard' }).checkout.autoGratuity).toEqual({
      name: 'Service charge',
      percentBps: 2000,
      minGuests: 6,
      taxClass: 'standard',
    });
  });

  it('stops on a gratuity half set or out of bounds, naming the flag', () => {
    expect(() => load(['--auto-gratuity-guests', '8'])).toThrow(/--auto-gratuity-percent: must be set/);
    expect(() => load(['--auto-gratuity-percent', '18'])).toThrow(/--auto-gratuity-guests: must be set/);
    expect(() => load(['--auto-gratuity-guests', '1', '--auto-gratuity-percent', '18'])).toThrow(/--auto-gratuity-guests: must be 0 \(no gratuity\) or 2 to 99/);
    expect(() => load(['--auto-gratuity-guests', '8', '--auto-gratuity-percent', '35'])).toThrow(/--auto-gratuity-percent: must be at most 30%/);
    expect(() => load(['--auto-gratuity-guests', '8', '--auto-gratuity-percent', '-5'])).toThrow(/--auto-gratuity-percent/);
  });
});

describe('printer settings', () => {
  const none = join(mkdtempSync(join(tmpdir(), 'cfg-print-')), 'none.json');
  const load = (argv: string[], env: Record<string, string> = {}) => loadConfig({ argv, env, platform: 'linux', home: '/h', machineConfigFile: none, userConfigFile: none }).config;

  it('takes a receipt printer, repeated kitchen printers and routing', () => {
    const config = load(['--receipt-printer', 'tcp://10.0.0.5:9100', '--kitchen-printer', 'grill=tcp://10.0.0.6', '--kitchen-printer', 'bar=/dev/usb/lp0', '--print-routing', 'drinks=bar']);
    expect(config.printing.receipt?.url).toBe('tcp://10.0.0.5:9100');
    expect(config.printing.kitchen.map((p) => p.name)).toEqual(['grill', 'bar']);
    expect(config.printing.routing).toEqual({ drinks: 'bar' });
    expect(load([], { POS_KITCHEN_PRINTERS: 'grill=tcp://10.0.0.6,bar=tcp://10.0.0.7' }).printing.kitchen).toHaveLength(2);
  });

  it('stops on a bad printer value, naming the flag', () => {
    expect(() => load(['--receipt-printer', 'http://printer'])).toThrow(/--receipt-printer/);
    expect(() => load(['--kitchen-printer', 'grill'])).toThrow(/--kitchen-printer/);
    expect(() => load(['--kitchen-printer', 'grill=tcp://10.0.0.6', '--print-routing', 'drinks=bar'])).toThrow(/--print-routing/);
  });
});

describe('store mode settings', () => {
  const SECRET = Buffer.alloc(32, 0x3e).toString('base64');
  const load = (argv: string[], env: Record<string, string> = {}, user?: unknown) =>
    loadConfig({ ...files(undefined, user), argv, env, platform: 'linux', home: '/h' }).config;

  it('is off by default, and nothing of it needs setting then', () => {
    expect(load([]).storeMode).toEqual({ mode: 'off', listen: '', peers: [], discovery: 'on', secretRef: '', secret: '', tillName: 'Till A' });
  });

  it('takes the listen address, the peers, the secret from the environment and the till name', () => {
    const config = load(
      ['--store-mode', 'on', '--store-listen', '192.168.1.20:7420', '--store-peers', '192.168.1.21:7420,[fd00::22]:7420,bar-till.local:7420', '--till-name', 'Bar'],
      { POS_STORE_SECRET: SECRET },
    );
    expect(config.storeMode).toEqual({
      mode: 'on',
      listen: { host: '192.168.1.20', port: 7420 },
      peers: [
        { host: '192.168.1.21', port: 7420 },
        { host: 'fd00::22', port: 7420 },
        { host: 'bar-till.local', port: 7420 },
      ],
      discovery: 'on',
      secretRef: '',
      secret: SECRET,
      tillName: 'Bar',
    });
    const fromEnv = load([], { POS_STORE_MODE: 'on', POS_STORE_LISTEN: '10.0.0.5:7420', POS_STORE_SECRET_REF: 'store_secret', POS_TILL_NAME: 'Front counter', POS_STORE_PEERS: '10.0.0.6:7420' });
    expect(fromEnv.storeMode).toMatchObject({ mode: 'on', secretRef: 'store_secret', secret: '', tillName: 'Front counter', peers: [{ host: '10.0.0.6', port: 7420 }] });
    expect(load(['--till-letter', 'C', '--store-mode', 'on', '--store-listen', '10.0.0.5:7420'], { POS_STORE_SECRET: SECRET }).storeMode.tillName).toBe('Till C');
  });

  it.each([
    [['--store-mode', 'maybe'], {}, /command line: --store-mode: must be on or off/],
    [['--store-listen', '192.168.1.20'], {}, /command line: --store-listen: must be host:port/],
    [['--store-listen', '192.168.1.20:70000'], {}, /command line: --store-listen: must be host:port/],
    [['--store-peers', '10.0.0.6:7420,10.0.0.7'], {}, /command line: --store-peers: must be host:port/],
    [['--till-name', 'Bar\nOU=Owner'], {}, /command line: --till-name: the till name must be 1 to 40 letters/],
    [[], { POS_STORE_SECRET: 'c2hvcnQ=' }, /environment: POS_STORE_SECRET: the store secret is too short: it holds 40 bits, at least 128/],
    [[], { POS_STORE_LISTEN: 'nowhere' }, /environment: POS_STORE_LISTEN: must be host:port/],
  ])('stops on a bad value, naming the flag %#', (argv, env, message) => {
    expect(() => load(argv, env)).toThrow(message);
  });

  it('never echoes a refused secret', () => {
    const short = 'AAAAAAAAAAAAAAAAAAAA';
    expect(() => load([], { POS_STORE_SECRET: short })).toThrow(/POS_STORE_SECRET: the store secret is too short/);
    try {
      load([], { POS_STORE_SECRET: short });
    } catch (error) {
      expect(String(error)).not.toContain(short);
    }
  });

  it('stops when store mode is on without a secret or without a listen address, naming what is missing', () => {
    expect(() => load(['--store-mode', 'on', '--store-listen', '10.0.0.5:7420'])).toThrow(/command line: --store-mode: is on, but there is no store secret: set POS_STORE_SECRET/);
    expect(() => load([], { POS_STORE_MODE: 'on', POS_STORE_SECRET: SECRET })).toThrow(/environment: POS_STORE_MODE: is on, but --store-listen \(POS_STORE_LISTEN, storeMode.listen\) is not set/);
    expect(() => load([], {}, { storeMode: { mode: 'on', secretRef: 'store_secret' } })).toThrow(/user config .*: storeMode\.mode: is on, but --store-listen/);
  });

  it('refuses the secret as a flag or in a config file, saying why and where it goes', () => {
    expect(() => load(['--store-secret', SECRET])).toThrow(/command line: --store-secret: is refused: a flag shows in the process list .*POS_STORE_SECRET/);
    expect(() => load([], {}, { storeMode: { secret: SECRET } })).toThrow(/user config .*: storeMode\.secret: is refused: the store secret is never kept in a config file.*POS_STORE_SECRET/);
    const paths = files({ storeMode: { mode: 'on', secret: SECRET } });
    expect(() => loadConfig({ ...paths, argv: [], env: {}, platform: 'linux', home: '/h' })).toThrow(/machine config .*: storeMode\.secret: is refused/);
  });
});
