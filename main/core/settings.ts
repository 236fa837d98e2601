// What the settings screen changes, kept in the store's settings table and laid over the loaded
// configuration (config = what IT provisioned; these = what the manager set on this terminal).
import { z } from 'zod';
import { CheckoutRules, PricingRules } from '../../bridge/contract';
import type { Store } from '../../store/index';
import type { TerminalConfig } from '../config/schema';

const SETTINGS_KEY = 'terminal.settings';

export const TerminalOverrides = z.object({
  apiBaseUrl: z.string().optional(),
  apiHost: z.string().optional(),
  authUrl: z.string().optional(),
  locationId: z.string().optional(),
  webhook: z.object({ enabled: z.boolean(), host: z.string(), port: z.number().int() }).optional(),
  offlineLimits: z.object({ perTransaction: z.number().int(), total: z.number().int() }).optional(),
  confirmChargeAbove: z.number().int().optional(),
  /** Before staff (migration 14) a single manager PIN was kept here; read by nothing now. */
  managerPinHash: z.string().optional(),
  drawerMode: z.enum(['shared', 'per_cashier']).optional(),
  autoLockMinutes: z.number().int().optional(),
  /** The credential the operator chose last; 'none' after signing out. */
  credentials: z.enum(['none', 'api_key', 'oauth']).optional(),
  /** Card intents taken while offline (store-and-forward), for the limits and the badge. */
  offlineIntentIds: z.array(z.string()).optional(),
  checkout: CheckoutRules.partial().optional(),
  taxRules: PricingRules.optional(),
  autoReceipt: z.boolean().optional(),
});
export type TerminalOverrides = z.infer<typeof TerminalOverrides>;

export interface EffectiveSettings {
  apiBaseUrl: string;
  apiHost: string;
  authUrl: string;
  locationId: string;
  webhook: { enabled: boolean; host: string; port: number };
  offlineLimits: { perTransaction: number; total: number };
  confirmChargeAbove: number;
  drawerMode: 'shared' | 'per_cashier';
  autoLockMinutes: number;
  credentials: 'none' | 'api_key' | 'oauth';
  offlineIntentIds: readonly string[];
  checkout: CheckoutRules;
  autoReceipt: boolean;
  /** This terminal's tax rules (the location's, when its record has rates, win: checkout.ts effectivePricing). */
  taxRules: PricingRules;
  /** IT's locale for dates and times ('' for none: the location's country decides). */
  locale: string;
}

export class TerminalSettings {
  constructor(
    private readonly store: Store,
    private readonly config: TerminalConfig,
  ) {}

  overrides(): TerminalOverrides {
    return this.store.cashier.getSetting(SETTINGS_KEY, TerminalOverrides) ?? {};
  }

  effective(): EffectiveSettings {
    const o = this.overrides();
    const c = this.config;
    return {
      apiBaseUrl: o.apiBaseUrl ?? c.api.baseUrl,
      apiHost: o.apiHost ?? c.api.apiHost,
      authUrl: o.authUrl ?? c.api.authUrl,
      locationId: o.locationId ?? c.locationId,
      webhook: o.webhook ?? { enabled: c.webhook.enabled, host: c.webhook.host, port: c.webhook.port },
      offlineLimits: o.offlineLimits ?? { perTransaction: c.offlinePayments.perTransaction, total: c.offlinePayments.total },
      confirmChargeAbove: o.confirmChargeAbove ?? c.payments.confirmAbove,
      drawerMode: o.drawerMode ?? c.staff.drawer,
      autoLockMinutes: o.autoLockMinutes ?? c.staff.autoLockMinutes,
      credentials: o.credentials ?? c.credentials.method,
      offlineIntentIds: o.offlineIntentIds ?? [],
      checkout: {
        ...c.checkout,
        ...o.checkout,
        discountApproval: o.checkout?.discountApproval ?? c.checkout.discountApproval,
        // null is a manager's "no gratuity", not a missing override.
        autoGratuity: o.checkout?.autoGratuity !== undefined ? o.checkout.autoGratuity : c.checkout.autoGratuity,
      },
      taxRules: o.taxRules ?? c.tax,
      autoReceipt: o.autoReceipt ?? c.printing.autoReceipt,
      locale: c.locale,
    };
  }

  /** Writes inside the caller's transaction when there is one (e.g. with the payment it describes). */
  update(change: TerminalOverrides, actor: string): void {
    this.store.cashier.setSetting(SETTINGS_KEY, { ...this.overrides(), ...change }, { actor });
  }
}
