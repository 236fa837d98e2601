// The terminal's configuration: one zod schema with a default for every setting, so a machine with
// no configuration at all gets a working terminal (the embedded sandbox) and a bad value anywhere
// is refused with the source and field named.
import { z } from 'zod';
import { DEFAULT_CONFIRM_CHARGE_ABOVE } from '../../bridge/contract';
import { FloorConfig } from '../../bridge/tables/contract';
import { GRATUITY_NAME_MAX, GRATUITY_PERCENT_MAX_BPS } from '../../bridge/checkout/gratuity';
import { configuredPrinters, parsePrintingConfig, type PrintingConfig } from '../../printing/index';
import { parseStoreSecret, StoreSecretError } from '../../store-mode/secret';
import { isTillName, TILL_NAME_RULE } from '../../store-mode/till-name';

/** scrypt:<salt base64>:<hash base64>, as produced by `npm run hash-pin -- <pin>`. */
export const MANAGER_PIN_HASH = /^scrypt:[A-Za-z0-9+/=]{16,}:[A-Za-z0-9+/=]{32,}$/;

const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const Port = z.coerce.number().int('must be a whole number').min(0, 'must be 0..65535').max(65535, 'must be 0..65535');
/** A switch IT writes as on/off (true/false, 1/0 accepted). */
const OnOff = z.preprocess((v) => (v === true || v === 'true' || v === '1' ? 'on' : v === false || v === 'false' || v === '0' ? 'off' : v), z.enum(['on', 'off'], 'must be on or off'));
const Flag = z.preprocess((v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v), z.boolean());
const Minor = z.coerce.number().int('must be whole minor units (cents)').nonnegative('cannot be negative').max(100_000_000);
/** A percentage ("15" or 15 or "12.5") as basis points; at most two decimals. */
const PercentBps = z
  .union([z.number(), z.string()])
  .transform((v, ctx) => {
    const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(String(v).trim());
    const bps = match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : NaN;
    if (!(bps >= 0 && bps <= 10_000)) {
      ctx.issues.push({ code: 'custom', message: 'must be a percentage from 0 to 100, at most two decimals', input: v });
      return z.NEVER;
    }
    return bps;
  });
/** A tax rate in percent ("8.875") as parts per million; at most four decimals. */
const RatePpm = z
  .union([z.number(), z.string()])
  .transform((v, ctx) => {
    const match = /^(\d{1,3})(?:\.(\d{1,4}))?$/.exec(String(v).trim());
    const ppm = match ? Number(match[1]) * 10_000 + Number((match[2] ?? '').padEnd(4, '0')) : NaN;
    if (!(ppm >= 0 && ppm <= 1_000_000)) {
      ctx.issues.push({ code: 'custom', message: 'must be a percentage from 0 to 100, at most four decimals (8.875)', input: v });
      return z.NEVER;
    }
    return ppm;
  });

/** host:port with a port 1..65535: an IPv4 address, a [bracketed] IPv6 address or a host name. */
const HOST_PORT = /^(?:(\d{1,3}(?:\.\d{1,3}){3})|\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)):(\d{1,5})$/;
const HostPort = z.string().trim().transform((text, ctx) => {
  const match = HOST_PORT.exec(text);
  const port = Number(match?.[4]);
  if (!match || !(port >= 1 && port <= 65535)) {
    ctx.issues.push({ code: 'custom', message: 'must be host:port (192.168.1.20:7420, [fd00::20]:7420 or bar-till.local:7420), port 1 to 65535', input: text });
    return z.NEVER;
  }
  return { host: match[1] ?? match[2] ?? (match[3] as string), port };
});

/** The locale in its canonical form (en-us → en-US), or null when it is not one Intl can format dates in. */
function canonicalLocale(text: string): string | null {
  let canonical: string;
  try {
    [canonical = ''] = Intl.getCanonicalLocales(text);
  } catch {
    return null;
  }
  // Supported means formatted in that locale, not Intl's quiet fall back to its default.
  return Intl.DateTimeFormat.supportedLocalesOf(canonical).length === 1 ? canonical : null;
}

/** The stations a kitchen display may show: the printers the print routing sends kitchen lines to (docs/printing.md, "Routing"). */
export function kitchenStations(printing: PrintingConfig): string[] {
  return configuredPrinters(printing).map((printer) => printer.name);
}

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
  /**
   * The locale of every date and time the till shows or prints (BCP 47: en-US, fr-CA). Empty → from
   * the location's country (docs/config.md).
   */
  locale: z
    .string()
    .trim()
    .default('')
    .transform((text, ctx) => {
      if (text === '') return text;
      const canonical = canonicalLocale(text);
      if (canonical === null) {
        ctx.issues.push({ code: 'custom', message: 'must be a BCP 47 locale this computer knows, such as en-US or fr-CA', input: text });
        return z.NEVER;
      }
      return canonical;
    }),
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
  /** The register's checkout (docs/config.md, "Checkout"). */
  checkout: z
    .strictObject({
      /** This till's letter in order numbers (A17): one per till of a store. */
      tillLetter: z.string().regex(/^[A-Z]$/, 'must be one capital letter, A to Z, different on each till of the store').default('A'),
      /** Suggested tips, in percent: "15,18,20" or [15, 18, 20]; up to 4. */
      tipPercents: z
        .preprocess((v) => (typeof v === 'string' ? (v.trim() === '' ? [] : v.split(',').map((p) => p.trim())) : v), z.array(PercentBps).max(4, 'at most 4 suggested tips'))
        .default([1500, 1800, 2000]),
      cashTips: Flag.default(false),
      /** Suggested tips on the total ("total") or on the amount before tax ("pre-tax"). */
      tipBasis: z.preprocess((v) => (v === 'pre-tax' ? 'pre_tax' : v), z.enum(['total', 'pre_tax'], 'must be total or pre-tax')).default('total'),
      /** A discount above this percent, or above this amount (minor units), needs the manager PIN. */
      discountApprovalPercent: PercentBps.default(2000),
      discountApprovalAmount: Minor.default(2000),
      /** Parties of this many guests or more get the automatic gratuity; 0 (the default): none. */
      autoGratuityGuests: z.coerce.number().int('must be a whole number of guests').refine((n) => n === 0 || (n >= 2 && n <= 99), 'must be 0 (no gratuity) or 2 to 99 guests').default(0),
      autoGratuityPercent: PercentBps.refine((bps) => bps <= GRATUITY_PERCENT_MAX_BPS, `must be at most ${GRATUITY_PERCENT_MAX_BPS / 100}%`).optional(),
      autoGratuityName: z.string().trim().min(1, 'must not be empty').max(GRATUITY_NAME_MAX, `must be at most ${GRATUITY_NAME_MAX} characters`).default('Gratuity'),
      /** The tax class whose rates tax the gratuity; empty (the default): not taxed. */
      autoGratuityTaxClass: z.string().trim().max(40).default(''),
    })
    .prefault({})
    .superRefine((c, ctx) => {
      if (c.autoGratuityGuests > 0 && (c.autoGratuityPercent === undefined || c.autoGratuityPercent === 0)) {
        ctx.addIssue({ code: 'custom', path: ['autoGratuityPercent'], message: 'must be set (above 0%) when autoGratuityGuests is' });
      }
      if (c.autoGratuityGuests === 0 && c.autoGratuityPercent !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['autoGratuityGuests'], message: 'must be set (2 to 99) when autoGratuityPercent is' });
      }
    })
    .transform(({ tillLetter, tipPercents, cashTips, tipBasis, discountApprovalPercent, discountApprovalAmount, ...gratuity }) => ({
      tillLetter,
      tipPercents,
      cashTips,
      tipBasis,
      discountApproval: { percentBps: discountApprovalPercent, amount: discountApprovalAmount },
      autoGratuity:
        gratuity.autoGratuityGuests === 0 || gratuity.autoGratuityPercent === undefined
          ? null
          : { name: gratuity.autoGratuityName, percentBps: gratuity.autoGratuityPercent, minGuests: gratuity.autoGratuityGuests, taxClass: gratuity.autoGratuityTaxClass === '' ? null : gratuity.autoGratuityTaxClass },
    })),
  /** Tax rules used when the location's record from the cloud has none. */
  tax: z
    .strictObject({
      taxIncluded: Flag.default(false),
      rounding: z.enum(['per_line', 'per_order']).default('per_line'),
      /** "food:Sales tax:8.875,alcohol:Liquor tax:5" or [{ taxClass, name, percent }]. */
      rates: z
        .preprocess(
          (v) =>
            typeof v === 'string'
              ? v.split(',').filter((part) => part.trim() !== '').map((part) => {
                  const [taxClass, name, percent] = part.split(':').map((x) => x.trim());
                  return { taxClass, name, percent };
                })
              : v,
          z.array(z.strictObject({ taxClass: z.string().min(1, 'needs a tax class'), name: z.string().min(1, 'needs a name'), percent: RatePpm })).max(50),
        )
        .default([]),
    })
    .prefault({})
    .transform((tax) => ({ taxIncluded: tax.taxIncluded, rounding: tax.rounding, rates: tax.rates.map((r) => ({ taxClass: r.taxClass, name: r.name, ratePpm: r.percent })) })),
  /** Printers (docs/printing.md): the flags' text, checked and parsed by printing/config. */
  printing: z
    .strictObject({
      receiptPrinter: z.string().default(''),
      /** NAME=URL each; one text may hold several, comma-separated (an environment variable). */
      kitchenPrinters: z.union([z.string(), z.array(z.string())]).default([]),
      printRouting: z.string().default(''),
      /** Print the customer's receipt after each payment by itself (else on request). */
      autoReceipt: Flag.default(true),
    })
    .prefault({})
    .transform((raw, ctx) => {
      const parsed = parsePrintingConfig({ receiptPrinter: raw.receiptPrinter || null, kitchenPrinters: raw.kitchenPrinters, printRouting: raw.printRouting || null });
      if (!parsed.ok) {
        const key = { '--receipt-printer': 'receiptPrinter', '--kitchen-printer': 'kitchenPrinters', '--print-routing': 'printRouting' }[parsed.error.field];
        ctx.issues.push({ code: 'custom', message: parsed.error.message, path: [key], input: raw });
        return z.NEVER;
      }
      return { ...parsed.config, autoReceipt: raw.autoReceipt } satisfies PrintingConfig & { autoReceipt: boolean };
    }),
  /** Staff IT provisions, sign-in and the drawer (docs/config.md, "Staff"). */
  staff: z
    .strictObject({
      /**
       * "Name:role:scrypt:<salt>:<hash>" each (npm run hash-pin), or [{ name, role, pinHash }]; one text
       * may hold several, comma-separated (an environment variable). Changed here, not at the till.
       */
      members: z
        .preprocess(
          (v) => {
            const texts = typeof v === 'string' ? v.split(',') : Array.isArray(v) ? v.flatMap((e: unknown) => (typeof e === 'string' ? e.split(',') : [e])) : v;
            if (!Array.isArray(texts)) return texts;
            return texts
              .filter((e) => typeof e !== 'string' || e.trim() !== '')
              .map((e) => {
                if (typeof e !== 'string') return e;
                const [name, role, ...hash] = e.split(':').map((x) => x.trim());
                return { name, role, pinHash: hash.join(':') };
              });
          },
          z.array(
            z.strictObject({
              name: z.string().min(1, 'needs a name (Name:role:hash)').max(60),
              role: z.enum(['cashier', 'manager', 'owner'], 'the role is cashier, manager or owner (Name:role:hash)'),
              pinHash: z.string().regex(MANAGER_PIN_HASH, 'the PIN must be given as scrypt:<salt>:<hash> (npm run hash-pin)'),
            }),
          ),
        )
        .default([]),
      /** The till locks itself after this many minutes without use; 0 never. */
      autoLockMinutes: z.coerce.number().int('must be a whole number of minutes').min(0, 'cannot be negative').max(240, 'at most 240 minutes').default(5),
      /** One drawer for the till ("shared"), or one per cashier ("per-cashier"). */
      drawer: z
        .preprocess((v) => (v === 'per-cashier' ? 'per_cashier' : v), z.enum(['shared', 'per_cashier'], 'must be shared or per-cashier'))
        .default('shared'),
    })
    .prefault({})
    .superRefine((staff, ctx) => {
      const seen = new Set<string>();
      staff.members.forEach((m, i) => {
        // The till names a provisioned member by these letters and digits (StaffDesk): "Dana Okafor" and "dana-okafor" are one.
        const key = m.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
        if (seen.has(key)) ctx.issues.push({ code: 'custom', message: `${m.name} is listed twice (names differing only in case, spaces or punctuation are one person)`, path: ['members', i, 'name'], input: m.name });
        seen.add(key);
      });
    }),
  /** The floor of a full-service restaurant, laid out by IT on a till whose floor is empty (docs/config.md, "floor"; config file only). */
  floor: FloorConfig.optional(),
  /** Store mode (docs/store-mode.md): the tills of one restaurant replicate each other over the LAN. */
  storeMode: z
    .strictObject({
      mode: OnOff.default('off'),
      /** Where this till's feed listens (a LAN address); nothing listens when store mode is off. */
      listen: z
        .string()
        .default('')
        .pipe(z.union([z.literal(''), HostPort], 'must be host:port (192.168.1.20:7420, [fd00::20]:7420 or bar-till.local:7420), port 1 to 65535')),
      /** Fixed peers (networks that block multicast, tests): "host:port,host:port" or a list. */
      peers: z
        .preprocess((v) => (typeof v === 'string' ? v.split(',').filter((p) => p.trim() !== '') : v), z.array(HostPort).max(32, 'at most 32 peers'))
        .default([]),
      /** DNS-SD on the LAN (store-mode/discovery.ts), beside the peer list; off where multicast is unwanted. */
      discovery: OnOff.default('on'),
      /** Name of the secret-store entry holding the store secret. */
      secretRef: z.string().trim().max(100).default(''),
      /** The store secret itself: from POS_STORE_SECRET only (load.ts refuses it in a file or a flag). */
      secret: z
        .string()
        .default('')
        .superRefine((text, ctx) => {
          if (text === '') return;
          try {
            parseStoreSecret(text);
          } catch (error) {
            // The message names the rule, never the value.
            if (!(error instanceof StoreSecretError)) throw error;
            ctx.issues.push({ code: 'custom', message: error.message, input: '' });
          }
        }),
      /** This till's name for people ("Bar"); empty: "Till" and its till letter. */
      tillName: z.string().trim().refine((name) => name === '' || isTillName(name), `the till name ${TILL_NAME_RULE}`).default(''),
    })
    .prefault({}),
  /** What this device is (docs/kitchen-display.md): a register, or a kitchen display of the store (store mode on). */
  role: z.enum(['register', 'kitchen'], 'must be register or kitchen').default('register'),
  /** The kitchen display (docs/kitchen-display.md, docs/config.md "Kitchen display"). */
  kitchen: z
    .strictObject({
      /** The station shown (a printer name of the print routing); empty: every station. Checked against the printers in load.ts. */
      station: z.string().trim().max(32).default(''),
      /** A ticket turns amber at this age, then red at redMinutes. */
      amberMinutes: z.coerce.number().int('must be a whole number of minutes').min(1, 'must be at least 1 minute').max(240, 'at most 240 minutes').default(8),
      redMinutes: z.coerce.number().int('must be a whole number of minutes').min(1, 'must be at least 1 minute').max(240, 'at most 240 minutes').default(15),
    })
    .prefault({})
    .superRefine((kitchen, ctx) => {
      if (kitchen.redMinutes <= kitchen.amberMinutes) ctx.issues.push({ code: 'custom', message: `must be more than the amber age (${kitchen.amberMinutes} minutes)`, path: ['redMinutes'], input: kitchen.redMinutes });
    }),
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
