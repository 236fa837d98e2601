// Reads the configuration from its sources, highest precedence first:
//   1. command-line flags (--api-base-url ...)
//   2. environment variables (POS_API_BASE_URL ...)
//   3. the per-user config file
//   4. the machine-wide config file IT provisions
//   5. defaults (schema.ts)
// Each source is validated on its own so an error names the source and the field; nothing starts
// on a bad configuration.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { z } from 'zod';
import { kitchenStations, TerminalConfig } from './schema';

/** Every setting, with its flag and environment variable: docs/config.md lists the same table. */
export const SETTINGS: readonly { path: readonly string[]; flag: string; env: string; repeatable?: true }[] = [
  { path: ['dataDir'], flag: 'data-dir', env: 'POS_DATA_DIR' },
  { path: ['api', 'baseUrl'], flag: 'api-base-url', env: 'POS_API_BASE_URL' },
  { path: ['api', 'apiHost'], flag: 'api-host', env: 'POS_API_HOST' },
  { path: ['api', 'authUrl'], flag: 'auth-url', env: 'POS_AUTH_URL' },
  { path: ['credentials', 'method'], flag: 'credentials', env: 'POS_CREDENTIALS' },
  { path: ['credentials', 'apiKeyRef'], flag: 'api-key-ref', env: 'POS_API_KEY_REF' },
  { path: ['credentials', 'oauthClientId'], flag: 'oauth-client-id', env: 'POS_OAUTH_CLIENT_ID' },
  { path: ['credentials', 'oauthClientSecretRef'], flag: 'oauth-client-secret-ref', env: 'POS_OAUTH_CLIENT_SECRET_REF' },
  { path: ['locationId'], flag: 'location-id', env: 'POS_LOCATION_ID' },
  { path: ['currency'], flag: 'currency', env: 'POS_CURRENCY' },
  { path: ['locale'], flag: 'locale', env: 'POS_LOCALE' },
  { path: ['webhook', 'enabled'], flag: 'webhook', env: 'POS_WEBHOOK_ENABLED' },
  { path: ['webhook', 'host'], flag: 'webhook-host', env: 'POS_WEBHOOK_HOST' },
  { path: ['webhook', 'port'], flag: 'webhook-port', env: 'POS_WEBHOOK_PORT' },
  { path: ['webhook', 'signingSecretRef'], flag: 'webhook-secret-ref', env: 'POS_WEBHOOK_SECRET_REF' },
  { path: ['offlinePayments', 'perTransaction'], flag: 'offline-per-transaction', env: 'POS_OFFLINE_PER_TRANSACTION' },
  { path: ['offlinePayments', 'total'], flag: 'offline-total', env: 'POS_OFFLINE_TOTAL' },
  { path: ['offlinePayments', 'managerPinHash'], flag: 'manager-pin-hash', env: 'POS_MANAGER_PIN_HASH' },
  { path: ['payments', 'confirmAbove'], flag: 'confirm-charge-above', env: 'POS_CONFIRM_CHARGE_ABOVE' },
  { path: ['store', 'retentionDays'], flag: 'retention-days', env: 'POS_RETENTION_DAYS' },
  { path: ['checkout', 'tillLetter'], flag: 'till-letter', env: 'POS_TILL_LETTER' },
  { path: ['checkout', 'tipPercents'], flag: 'tip-percents', env: 'POS_TIP_PERCENTS' },
  { path: ['checkout', 'cashTips'], flag: 'cash-tips', env: 'POS_CASH_TIPS' },
  { path: ['checkout', 'tipBasis'], flag: 'tip-basis', env: 'POS_TIP_BASIS' },
  { path: ['checkout', 'discountApprovalPercent'], flag: 'discount-approval-percent', env: 'POS_DISCOUNT_APPROVAL_PERCENT' },
  { path: ['checkout', 'discountApprovalAmount'], flag: 'discount-approval-amount', env: 'POS_DISCOUNT_APPROVAL_AMOUNT' },
  { path: ['checkout', 'autoGratuityGuests'], flag: 'auto-gratuity-guests', env: 'POS_AUTO_GRATUITY_GUESTS' },
  { path: ['checkout', 'autoGratuityPercent'], flag: 'auto-gratuity-percent', env: 'POS_AUTO_GRATUITY_PERCENT' },
  { path: ['checkout', 'autoGratuityName'], flag: 'auto-gratuity-name', env: 'POS_AUTO_GRATUITY_NAME' },
  { path: ['checkout', 'autoGratuityTaxClass'], flag: 'auto-gratuity-tax-class', env: 'POS_AUTO_GRATUITY_TAX_CLASS' },
  { path: ['tax', 'taxIncluded'], flag: 'tax-included', env: 'POS_TAX_INCLUDED' },
  { path: ['tax', 'rounding'], flag: 'tax-rounding', env: 'POS_TAX_ROUNDING' },
  { path: ['tax', 'rates'], flag: 'tax-rates', env: 'POS_TAX_RATES' },
  { path: ['printing', 'receiptPrinter'], flag: 'receipt-printer', env: 'POS_RECEIPT_PRINTER' },
  { path: ['printing', 'kitchenPrinters'], flag: 'kitchen-printer', env: 'POS_KITCHEN_PRINTERS', repeatable: true },
  { path: ['printing', 'printRouting'], flag: 'print-routing', env: 'POS_PRINT_ROUTING' },
  { path: ['printing', 'autoReceipt'], flag: 'auto-receipt', env: 'POS_AUTO_RECEIPT' },
  { path: ['staff', 'members'], flag: 'staff', env: 'POS_STAFF', repeatable: true },
  { path: ['staff', 'autoLockMinutes'], flag: 'auto-lock-minutes', env: 'POS_AUTO_LOCK_MINUTES' },
  { path: ['staff', 'drawer'], flag: 'cash-drawer', env: 'POS_CASH_DRAWER' },
  { path: ['storeMode', 'mode'], flag: 'store-mode', env: 'POS_STORE_MODE' },
  { path: ['storeMode', 'listen'], flag: 'store-listen', env: 'POS_STORE_LISTEN' },
  { path: ['storeMode', 'peers'], flag: 'store-peers', env: 'POS_STORE_PEERS' },
  { path: ['storeMode', 'discovery'], flag: 'store-discovery', env: 'POS_STORE_DISCOVERY' },
  { path: ['storeMode', 'secretRef'], flag: 'store-secret-ref', env: 'POS_STORE_SECRET_REF' },
  { path: ['storeMode', 'tillName'], flag: 'till-name', env: 'POS_TILL_NAME' },
  { path: ['role'], flag: 'role', env: 'POS_ROLE' },
  { path: ['kitchen', 'station'], flag: 'kds-station', env: 'POS_KDS_STATION' },
  { path: ['kitchen', 'amberMinutes'], flag: 'kds-amber-minutes', env: 'POS_KDS_AMBER_MINUTES' },
  { path: ['kitchen', 'redMinutes'], flag: 'kds-red-minutes', env: 'POS_KDS_RED_MINUTES' },
  { path: ['kioskMode'], flag: 'kiosk', env: 'POS_KIOSK' },
  { path: ['browserMode', 'port'], flag: 'port', env: 'POS_PORT' },
  { path: ['browserMode', 'openBrowser'], flag: 'open', env: 'POS_OPEN_BROWSER' },
  { path: ['verbose'], flag: 'verbose', env: 'POS_VERBOSE' },
];

/**
 * The store secret is read from the environment only: a flag shows in every user's process list, and a
 * config file is copied, backed up and read by more people than the till's secrets should be.
 */
const STORE_SECRET = { path: ['storeMode', 'secret'], env: 'POS_STORE_SECRET' } as const;
const STORE_SECRET_ELSEWHERE = 'set POS_STORE_SECRET in the environment, or name its secret-store entry with --store-secret-ref (storeMode.secretRef)';

export class ConfigError extends Error {
  constructor(
    readonly source: string,
    readonly field: string,
    detail: string,
  ) {
    super(`configuration error in ${source}: ${field}: ${detail}`);
    this.name = 'ConfigError';
  }
}

export interface ConfigEnvironment {
  argv?: readonly string[];
  env?: Readonly<Record<string, string | undefined>>;
  platform?: NodeJS.Platform;
  home?: string;
  /** Override the file locations (tests, `--config <file>`). */
  userConfigFile?: string;
  machineConfigFile?: string;
}

export interface LoadedConfig {
  config: TerminalConfig;
  /** Where each setting that is not a default came from ("api.baseUrl" → "environment POS_API_BASE_URL"). */
  origins: Record<string, string>;
  files: { user: string; machine: string };
}

type Layer = Record<string, unknown>;

export function machineConfigFile(platform: NodeJS.Platform, env: Readonly<Record<string, string | undefined>>): string {
  if (platform === 'win32') return join(env.ProgramData ?? 'C:\\ProgramData', 'PosTerminal', 'config.json');
  if (platform === 'darwin') return '/Library/Application Support/PosTerminal/config.json';
  return '/etc/pos-terminal/config.json';
}

export function userConfigFile(platform: NodeJS.Platform, env: Readonly<Record<string, string | undefined>>, home: string): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'PosTerminal', 'config.json');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'PosTerminal', 'config.json');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'pos-terminal', 'config.json');
}

export function defaultDataDir(platform: NodeJS.Platform, env: Readonly<Record<string, string | undefined>>, home: string): string {
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'PosTerminal');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'PosTerminal', 'data');
  return join(env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'pos-terminal');
}

function setPath(target: Layer, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as Layer;
  }
  node[path[path.length - 1] as string] = value;
}

function getPath(source: Layer, path: readonly string[]): string[] | undefined {
  let node: unknown = source;
  for (const key of path) node = node !== null && typeof node === 'object' ? (node as Layer)[key] : undefined;
  return Array.isArray(node) ? (node as string[]) : undefined;
}

/** A config file naming the store secret itself is refused, before anything else in it is read. */
function refuseStoreSecretIn(layer: Layer, source: string): void {
  const storeMode = layer['storeMode'];
  if (isPlainObject(storeMode) && 'secret' in storeMode) {
    throw new ConfigError(source, STORE_SECRET.path.join('.'), `is refused: the store secret is never kept in a config file, where anyone who can read or copy the file could join the store; ${STORE_SECRET_ELSEWHERE}`);
  }
}

/** Store mode on needs what it cannot start without: a secret (or where to find it) and an address to listen on. */
function requireStoreModeEssentials(config: TerminalConfig, origins: Record<string, string>): void {
  const { storeMode } = config;
  if (storeMode.mode !== 'on') return;
  const source = origins['storeMode.mode'] ?? 'configuration';
  const field = fieldName(source, ['storeMode', 'mode']);
  if (storeMode.secret === '' && storeMode.secretRef === '') throw new ConfigError(source, field, `is on, but there is no store secret: ${STORE_SECRET_ELSEWHERE}`);
  if (storeMode.listen === '') throw new ConfigError(source, field, 'is on, but --store-listen (POS_STORE_LISTEN, storeMode.listen) is not set: give the LAN address and port this till serves its feed on, such as 192.168.1.20:7420');
}

/**
 * A kitchen display shows the store's orders over the LAN, so it needs store mode; its station must be
 * one the print routing sends to (the same stations as the kitchen printers), and only a display has one.
 */
function requireKitchenEssentials(config: TerminalConfig, origins: Record<string, string>): void {
  const roleSource = origins['role'] ?? 'configuration';
  if (config.role === 'kitchen' && config.storeMode.mode !== 'on') {
    throw new ConfigError(roleSource, fieldName(roleSource, ['role']), 'is kitchen, but store mode is off: a kitchen display shows the orders of the store\'s tills over the LAN. Turn store mode on (--store-mode on, with --store-listen, --store-peers and the store secret), or use --role register');
  }
  const { station } = config.kitchen;
  if (station === '') return;
  const source = origins['kitchen.station'] ?? 'configuration';
  const field = fieldName(source, ['kitchen', 'station']);
  if (config.role !== 'kitchen') throw new ConfigError(source, field, 'is set, but this device is a register: a station is shown by a kitchen display (--role kitchen)');
  const stations = kitchenStations(config.printing);
  if (!stations.some((name) => name.toLowerCase() === station.toLowerCase())) {
    const known = stations.length > 0 ? `the stations are ${stations.join(', ')}` : 'no station is configured: name them with --kitchen-printer and --print-routing, as on the registers';
    throw new ConfigError(source, field, `"${station}" is not a station of the print routing (${known})`);
  }
  // Written as the printer is named, so the display and the routing compare equal.
  config.kitchen.station = stations.find((name) => name.toLowerCase() === station.toLowerCase()) as string;
}

function readFileLayer(file: string, source: string): Layer | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new ConfigError(source, '(file)', `cannot be read: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(source, '(file)', `is not valid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(source, '(file)', 'must be a JSON object');
  return value as Layer;
}

/** Flags as `--name value`, `--name=value`, or a bare `--name` for true. Unknown flags are errors. */
function readFlagLayer(argv: readonly string[]): { layer: Layer; configFile: string | undefined } {
  const layer: Layer = {};
  let configFile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) throw new ConfigError('command line', arg, 'expected a --flag');
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    const next = argv[i + 1];
    const takeValue = (): string => {
      if (inline !== undefined) return inline;
      if (next === undefined || next.startsWith('--')) throw new ConfigError('command line', `--${name}`, 'needs a value');
      i++;
      return next;
    };
    if (name === 'config') {
      configFile = resolve(takeValue());
      continue;
    }
    if (name === 'store-secret') throw new ConfigError('command line', '--store-secret', `is refused: a flag shows in the process list of every user of this computer; ${STORE_SECRET_ELSEWHERE}`);
    const setting = SETTINGS.find((s) => s.flag === name);
    if (!setting) throw new ConfigError('command line', `--${name}`, 'is not a known flag (see docs/config.md)');
    const boolean = inline === undefined && (next === undefined || next.startsWith('--'));
    const value = boolean ? 'true' : takeValue();
    // A repeatable flag (--kitchen-printer grill=… --kitchen-printer bar=…) collects its values.
    setPath(layer, setting.path, setting.repeatable ? [...(getPath(layer, setting.path) ?? []), value] : value);
  }
  return { layer, configFile };
}

function readEnvLayer(env: Readonly<Record<string, string | undefined>>): Layer {
  const layer: Layer = {};
  for (const setting of SETTINGS) {
    const value = env[setting.env];
    if (value !== undefined && value !== '') setPath(layer, setting.path, value);
  }
  const secret = env[STORE_SECRET.env];
  if (secret !== undefined && secret !== '') setPath(layer, STORE_SECRET.path, secret);
  return layer;
}

function fieldName(source: string, path: readonly PropertyKey[]): string {
  const dotted = path.map(String).join('.');
  // A list setting's issue points inside it (tax.rates.0.percent): name the setting that holds it.
  const setting = SETTINGS.find((s) => dotted === s.path.join('.') || dotted.startsWith(`${s.path.join('.')}.`));
  if (source.startsWith('environment')) return setting?.env ?? (dotted === STORE_SECRET.path.join('.') ? STORE_SECRET.env : dotted);
  if (source === 'command line') return `--${setting?.flag ?? dotted}`;
  return dotted || '(file)';
}

function validateLayer(layer: Layer, source: string): void {
  const result = TerminalConfig.safeParse(layer);
  if (!result.success) {
    const issue = result.error.issues[0] as z.core.$ZodIssue;
    const unknownKey = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
    const path = unknownKey === undefined ? issue.path : [...issue.path, unknownKey];
    throw new ConfigError(source, fieldName(source, path), issue.code === 'unrecognized_keys' ? 'is not a known setting' : issue.message);
  }
}

function isPlainObject(value: unknown): value is Layer {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Merges `over` onto `under`, recording which source set each leaf. */
function mergeInto(under: Layer, over: Layer, source: string, origins: Record<string, string>, prefix = ''): void {
  for (const [key, value] of Object.entries(over)) {
    const dotted = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value)) {
      if (!isPlainObject(under[key])) under[key] = {};
      mergeInto(under[key] as Layer, value, source, origins, dotted);
    } else {
      under[key] = value;
      origins[dotted] = source;
    }
  }
}

export function loadConfig(environment: ConfigEnvironment = {}): LoadedConfig {
  const env = environment.env ?? process.env;
  const platform = environment.platform ?? process.platform;
  const home = environment.home ?? homedir();
  const flags = readFlagLayer(environment.argv ?? process.argv.slice(2));
  const files = {
    user: flags.configFile ?? environment.userConfigFile ?? userConfigFile(platform, env, home),
    machine: environment.machineConfigFile ?? machineConfigFile(platform, env),
  };

  const layers: { source: string; layer: Layer | null; file?: true }[] = [
    { source: `machine config ${files.machine}`, layer: readFileLayer(files.machine, `machine config ${files.machine}`), file: true },
    { source: `user config ${files.user}`, layer: readFileLayer(files.user, `user config ${files.user}`), file: true },
    { source: 'environment', layer: readEnvLayer(env) },
    { source: 'command line', layer: flags.layer },
  ];

  const merged: Layer = {};
  const origins: Record<string, string> = {};
  for (const { source, layer, file } of layers) {
    if (!layer) continue;
    if (file) refuseStoreSecretIn(layer, source);
    validateLayer(layer, source);
    mergeInto(merged, layer, source, origins);
  }
  const config = TerminalConfig.parse(merged);
  if (config.dataDir === '') config.dataDir = defaultDataDir(platform, env, home);
  if (config.api.baseUrl !== '' && config.api.apiHost === '') config.api.apiHost = config.api.baseUrl.replace(/\/v1\/?$/, '');
  if (config.api.authUrl === '') config.api.authUrl = config.api.apiHost;
  requireStoreModeEssentials(config, origins);
  requireKitchenEssentials(config, origins);
  if (config.storeMode.tillName === '') config.storeMode.tillName = `Till ${config.checkout.tillLetter}`;
  return { config, origins, files };
}
