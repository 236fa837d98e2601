// Quirks: ways a /v1 may differ from our sandbox where the spec leaves it open, each one switch,
// off by default (docs/sandbox.md, "Quirks"). They change what goes on the wire, never the stored
// data or its rules, so a test can turn one on and assert the terminal's promise still holds.
import { z } from 'zod';

export const quirkSettingsSchema = z.strictObject({
  /**
   * Payment states the spec does not list: a captured payment reads `settled`, a partly refunded
   * one `partially_reversed`, a refunded one `reversed`, a refund `processed`; and a capture of an
   * intent that is not authorized any more is an invalid_request (422 in spec-minimal), not a 409.
   */
  unknown_payment_states: z.boolean(),
  /** Lists serve at most half of `per_page` records a page (meta.per_page still says what was asked). */
  short_pages: z.boolean(),
  /** Page 2 of every list with more than one page is empty but links.next (and total_pages) go on. */
  empty_page_with_next: z.boolean(),
  /** GET /orders lists newest first (created_at, then id, descending). */
  newest_first: z.boolean(),
  /** Cancelled orders read `voided`, a state the terminal does not know. */
  unknown_order_states: z.boolean(),
});
export type QuirkSettings = z.infer<typeof quirkSettingsSchema>;
export const quirkPatchSchema = quirkSettingsSchema.partial();
export type QuirkPatch = z.infer<typeof quirkPatchSchema>;

export const NO_QUIRKS: QuirkSettings = Object.freeze({
  unknown_payment_states: false,
  short_pages: false,
  empty_page_with_next: false,
  newest_first: false,
  unknown_order_states: false,
});

export const ALL_QUIRKS: QuirkSettings = Object.freeze({
  unknown_payment_states: true,
  short_pages: true,
  empty_page_with_next: true,
  newest_first: true,
  unknown_order_states: true,
});

const PAYMENT_STATES: Record<string, string> = { captured: 'settled', partially_refunded: 'partially_reversed', refunded: 'reversed' };

/** A payment (or refund) record, stored in the default shape, with the states renamed. */
export function quirkyPayment<T>(record: T, quirks: Readonly<QuirkSettings>): T {
  if (!quirks.unknown_payment_states || record === null || typeof record !== 'object') return record;
  const r = record as Record<string, unknown>;
  const out: Record<string, unknown> = { ...r };
  if (typeof r.status === 'string') out.status = r.object === 'refund' ? (r.status === 'succeeded' ? 'processed' : r.status) : (PAYMENT_STATES[r.status] ?? r.status);
  if (Array.isArray(r.refunds)) out.refunds = r.refunds.map((refund) => quirkyPayment(refund, quirks));
  return out as T;
}

/** An order record, stored in the default shape, in a state the terminal does not know. */
export function quirkyOrder<T>(record: T, quirks: Readonly<QuirkSettings>): T {
  if (!quirks.unknown_order_states || record === null || typeof record !== 'object') return record;
  const r = record as Record<string, unknown>;
  return (r.status === 'cancelled' ? { ...r, status: 'voided' } : record) as T;
}

/**
 * Which stored page a requested page shows, and how many pages the list claims: `short_pages`
 * halves the page, `empty_page_with_next` inserts an empty page 2 that still links to page 3.
 */
export interface QuirkyPage {
  /** Records of the page: offset and count into the list as stored. */
  offset: number;
  limit: number;
  totalPages: number;
}

export function quirkyPage(page: number, perPage: number, total: number, quirks: Readonly<QuirkSettings>): QuirkyPage {
  const served = quirks.short_pages ? Math.max(1, Math.floor(perPage / 2)) : perPage;
  const realPages = Math.ceil(total / served);
  if (quirks.empty_page_with_next && realPages > 1) {
    if (page === 2) return { offset: 0, limit: 0, totalPages: realPages + 1 };
    const real = page > 2 ? page - 1 : page;
    return { offset: (real - 1) * served, limit: served, totalPages: realPages + 1 };
  }
  return { offset: (page - 1) * served, limit: served, totalPages: realPages };
}
