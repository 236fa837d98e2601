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
