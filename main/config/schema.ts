// The terminal's configuration: one zod schema with a default for every setting, so a machine with
// no configuration at all gets a working terminal (the embedded sandbox) and a bad value anywhere
// is refused with the source and field named.
import { z } from 'zod';
import { DEFAULT_CONFIRM_CHARGE_ABOVE } from '../../bridge/contract';

/** scrypt:<salt base64>:<hash base64>, as produced by `npm run hash-pin -- <pin>`. */
export const MANAGER_PIN_HASH = /^scrypt:[A-Za-z0-9+/=]{16,}:[A-Za-z0-9+/=]{32,}$/;

const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const Port = z.coerce.number().int('must be a whole number').min(0, 'must be 0..65535').max(65535, 'must be 0..65535');
const Flag = z.preprocess((v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v), z.boolean());
const Minor = z.coerce.number().int('must be whole minor units (cents)').nonnegative('cannot be negative').max(100_000_000);

export const TerminalConfig = z.strictObject({
  /** Where the SQLite store, secrets file and logs live. Empty → the per-OS default. */
  dataDir: z.string().default(''),
  api: z
    .strictObject({
      /** {base_url}, ending in /v1. Empty → start the embedded sandbox and use it. */
      baseUrl: z.union([z.literal(''), HttpUrl.refine((u) => /\/v1\/?$/.test(u), 'must end with /v1')]).default(''),
      /** {api_host}: the same host without /v1 (OAuth token endpoint). Empty → derived from baseUrl. */
      apiHost: z.union([z.literal(''), HttpUrl]).default(''),
      /** {auth_url}: the dashboard hosting the consent page. Empty → same as apiHost. */
      authUrl: z.union([z.literal(''), HttpUrl]).default(''),
    })
    .prefault({}),
  credentials: z
    .strictObject({
      /** How the terminal authenticates: an API key kept in the secret store, or OAuth tokens. */
      method: z.enum(['api_key', 'oauth']).default('api_key'),
      /** Name of the secret-store entry holding the API key (never the key itself). */
      apiKeyRef: z.string().min(1).default('api_key'),
      oauthClientId: z.string().default(''),
      /** Name of the secret-store entry holding the OAuth client secret. */
      oauthClientSecretRef: z.string().min(1).default('oauth_client_secret'),
    })
    .prefault({}),
  /** The location this terminal sells for. Empty → the first location the API lists. */
  locationId: z.string().default(''),
  /**
   * The store's currency (lowercase ISO 4217): money a /v1 server sends without a currency is in
   * the location's currency where its record has one, else in this.
   */
  currency: z.string().regex(/^[a-z]{3}$/, 'must be a lowercase ISO 4217 code such as usd').default('usd'),
  webhook: z
    .strictObject({
      enabled: Flag.default(false),
      host: z.string().min(1).default('127.0.0.1'),
      port: Port.default(0),
      /** Name of the secret-store entry holding the whsec_ signing secret. */
      signingSecretRef: z.string().min(1).default('webhook_signing_secret'),
    })
    .prefault({}),
  offlinePayments: z
    .strictObject({
      perTransaction: Minor.default(10_000),
      total: Minor.default(100_000),
      managerPinHash: z.union([z.literal(''), z.string().regex(MANAGER_PIN_HASH, 'must be scrypt:<salt>:<hash> (npm run hash-pin)')]).default(''),
    })
    .prefault({}),
  payments: z
    .strictObject({
      /** A charge above this (minor units) asks the cashier "Charge $4,000.75?" first; 0 never asks. */
      confirmAbove: Minor.default(DEFAULT_CONFIRM_CHARGE_ABOVE),
    })
    .prefault({}),
  store: z
    .strictObject({
      /**
       * Orders older than this many days that the cloud has in full are deleted from the till
       * (docs/store.md, "Retention"); nothing unsynced ever is. 0 keeps every order.
       */
      retentionDays: z.coerce.number().int('must be a whole number of days').min(0, 'cannot be negative').max(3650).default(90),
    })
    .prefault({}),
  kioskMode: Flag.default(false),
  browserMode: z
    .strictObject({
      /** Loopback port of browser mode; 0 picks a free one. */
      port: Port.default(0),
      /** Open the system browser on start. */
      openBrowser: Flag.default(false),
    })
    .prefault({}),
  /** `npm start`: log lines on the console too, one readable line each (they always go to the log file). */
  verbose: Flag.default(false),
});
export type TerminalConfig = z.output<typeof TerminalConfig>;
export type TerminalConfigInput = z.input<typeof TerminalConfig>;
