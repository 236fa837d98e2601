// Pull: brings the server's truth into the store's base layer. Page numbers drift when records
// are inserted or deleted during a pull, so every pass upserts by id, takes its high-water mark
// before the first request, commits each page together with its cursor, and starts over when
// the total moves or the pages did not add up. Deletions are found by sweep after a steady pass,
// and confirmed (GET by id, or a second pass) before anything local is removed. Orders have no
// updated_after filter: open orders are re-checked on every reconciliation.
import type { z } from 'zod';
import {
  clientCategorySchema,
  clientListEnvelopeSchema,
  clientLocationSchema,
  clientMenuItemSchema,
  clientOrderSchema,
  type ClientOrder,
} from '../api/client-records';
import type { Clock } from '../common/clock';
import type { Logger } from '../common/log';
import type { EntityKind, ServerRecord, Store } from '../store/index';
import type { ApiClient } from './api-client';
import { ApiError } from './api-error';
import { letRequestsLeave } from './event-loop';
import { hasMorePages, newestOf, oldestFirst, type PageSignals } from './pages';
import { NoKeysetError, parseStreamsCursor, pullInStreams, splitWindows, type PullWindow, type StreamPage, type UndecodedPage } from './pull-streams';
import { ReplyBuffers } from './reply-buffers';
import { menuItemVersionScope } from './webhooks';
import { categoryRecord, claimOwnOrders, locationRecord, menuItemRecord, modifierRecords, orderRecord } from './server-records';

export interface PullTuning {
  /** Records per page (the API's maximum is 100). */
  perPage: number;
  /** Keyset streams of a full order pull running at once, each with one request in flight (sync/pull-streams.ts). */
  streams: number;
  /**
   * Orders created longer ago than this are neither pulled nor swept: the till keeps only what it
   * needs (store/retention.ts prunes older synced ones). null: every order.
   */
  retentionMs: number | null;
  /** Pages fetched ahead while earlier ones are written. */
  pagesInFlight: number;
  /** Passes tried before a drifting pull gives up until the next cycle. */
  maxPasses: number;
  /** Orders created this long before the last high-water mark are re-read (server clock skew). */
  orderOverlapMs: number;
  /** Sweep candidates confirmed one by one up to this many; more means another pass. */
  maxConfirmations: number;
}

export interface ScopeSpec<R> {
  kind: EntityKind;
  scope: string;
  path: string;
  query: Record<string, string | number | undefined>;
  schema: z.ZodType<R>;
  toRecords(record: R): ServerRecord[];
  /** For kinds the API can GET by id: confirms a sweep candidate is really gone. */
  getPath?: (serverId: string) => string;
  itemSchema?: z.ZodType<R>;
  /** The list is ordered by created_at and filterable by created_after: page by keyset. */
  keyset?: boolean;
  /** Only base rows created from then on are swept after a full pull (older ones are outside what it asked for). */
  sweepFrom?: number;
}

interface PassOutcome extends PassResult {
  /** Server ids seen by the pass; null for a pass of keyset streams, which is steady by the list's total alone. */
  seen: Set<string> | null;
  /** Some pages were stepped by number (records without created_at): the pass can drift unseen, as a numbered one. */
  byPageNumber: boolean;
}

function sameIds(a: ReadonlySet<string> | null, b: ReadonlySet<string> | null): boolean {
  if (a === null || b === null || a.size !== b.size) return false;
  for (const id of a) if (!b.has(id)) return false;
  return true;
}

function isoOrUndefined(ms: number | null): string | undefined {
  return ms === null ? undefined : new Date(ms).toISOString();
}

/**
 * A failure to read what the server answered (a body no schema accepts, a record the store
 * refuses), as opposed to not getting an answer: retrying soon will not change it.
 */
function isUnreadable(error: unknown): boolean {
  if (error instanceof ApiError) return error.kind === 'server' && error.status !== null && error.status >= 200 && error.status < 300;
  return error instanceof Error && (error.name === 'StoreError' || error.name === 'ZodError' || error instanceof PullUnfinishedError);
}

/** No pass of a full pull was steady (the list kept moving, or fewer records came than it announced): what is missing is unknown. */
export class PullUnfinishedError extends Error {
  override readonly name = 'PullUnfinishedError';
}

export interface PassResult {
  startedAt: number;
  /** The total moved during the pass, or fewer records came than the total announced. */
  drifted: boolean;
  records: number;
  pages: number;
}

/** A decoded list page as the streams read it (sync/pull-streams.ts). */
function streamPage<R>(data: PageSignals & { data: readonly R[]; meta?: { total?: number } | undefined }, page: number): StreamPage<R> {
  return {
    records: data.data,
    ids: data.data.map((r) => (r as { id: string }).id),
    createdAt: data.data.map((r) => Date.parse(String((r as { created_at?: string }).created_at ?? ''))),
    more: hasMorePages(data, page),
    total: data.meta?.total ?? null,
  };
}

export class Puller {
  readonly #api: ApiClient;
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #tuning: PullTuning;
  /** Scopes skipped because the credentials may not read them (restricted key): reported on status. */
  readonly permissionProblems = new Set<string>();
  /** Data the last reconciliation could not read, by what it is ('menu items' → why): reported on status. */
  readonly readProblems = new Map<string, string>();
  /** When the menu was last pulled (locations, categories, items), before the orders are. */
  menuPulledAt: number | null = null;
  /** Orders written so far by the full order pull under way, of how many the server listed; null between full pulls. */
  orderProgress: { done: number; total: number | null } | null = null;
  readonly #onProgress: () => void;

  constructor(deps: { api: ApiClient; store: Store; clock: Clock; logger: Logger; tuning: PullTuning; onProgress?: () => void }) {
    this.#api = deps.api;
    this.#store = deps.store;
    this.#clock = deps.clock;
    this.#logger = deps.logger;
    this.#tuning = deps.tuning;
    this.#onProgress = deps.onProgress ?? (() => undefined);
  }

  /** Locations, categories, the location's menu, and its orders (full with sweep, or incremental). */
  async reconcile(options: { locationId: string | null; fullOrders: boolean }): Promise<void> {
    this.permissionProblems.clear();
    this.readProblems.clear();
    await this.#guard('locations', () => this.fullPull(this.#locationsSpec()));
    await this.#guard('menu categories', () => this.fullPull(this.#categoriesSpec()));
    await this.#guard('menu items', () => this.fullPull(this.#menuItemsSpec(options.locationId)));
    // The register can sell from here: say so now, not after a year of order history.
    this.menuPulledAt = this.#clock.now();
    this.#onProgress();
    await this.#guard('orders', async () => {
      if (!options.fullOrders) return this.incrementalOrders(options.locationId);
      // A fresh till: the open orders (the ones being served now) before a year of history.
      if (!this.initialSyncDone(options.locationId)) await this.#keysetPass(this.#ordersSpec(options.locationId, { status: 'open' }), { full: false, keepIds: false });
      this.orderProgress = { done: 0, total: null };
      try {
        await this.fullPull(this.orderScope(options.locationId));
      } finally {
        this.orderProgress = null;
        this.#onProgress();
      }
    });
  }

  async #guard(what: string, pull: () => Promise<unknown>): Promise<void> {
    try {
      await pull();
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'permission') {
        // A restricted key (e.g. "orders only") may not read this: the rest still syncs.
        this.permissionProblems.add(`cannot read ${what}: ${error.message}`);
        return;
      }
      if (isUnreadable(error)) {
        // The server answered with data this terminal cannot read or keep: the rest still syncs,
        // and the status says so instead of looking synced.
        this.readProblems.set(what, (error as Error).message);
        this.#logger.warn({ what, reason: (error as Error).message }, 'pulled data could not be read');
        return;
      }
      throw error;
    }
  }

  /** A full pull of the menu and of the orders has completed here at least once (their high-water marks). */
  initialSyncDone(locationId: string | null): boolean {
    const done = (scope: string) => this.#store.server.getCursor(scope)?.highWaterMark != null;
    return done(this.#menuItemsSpec(locationId).scope) && done(this.#ordersSpec(locationId, {}).scope);
  }

  #locationsSpec(): ScopeSpec<z.infer<typeof clientLocationSchema>> {
    return {
      kind: 'location',
      scope: 'location:all',
      path: '/locations',
      query: {},
      schema: clientLocationSchema,
      toRecords: (l) => [locationRecord(l)],
      getPath: (id) => `/locations/${encodeURIComponent(id)}`,
      itemSchema: clientLocationSchema,
    };
  }

  #categoriesSpec(): ScopeSpec<z.infer<typeof clientCategorySchema>> {
    return { kind: 'category', scope: 'category:all', path: '/menu/categories', query: {}, schema: clientCategorySchema, toRecords: (c) => [categoryRecord(c)] };
  }

  #menuItemsSpec(locationId: string | null): ScopeSpec<z.infer<typeof clientMenuItemSchema>> {
    return {
      kind: 'menu_item',
      scope: `menu_item:${locationId ?? 'all'}`,
      path: '/menu/items',
      query: { location_id: locationId ?? undefined },
      schema: clientMenuItemSchema,
      toRecords: (item) => [menuItemRecord(item)],
    };
  }

  /** Every order of a location (or of every location) within the retention: the scope of full order pulls. */
  orderScope(locationId: string | null): ScopeSpec<ClientOrder> {
    if (this.#tuning.retentionMs === null) return this.#ordersSpec(locationId, {});
    const from = this.#clock.now() - this.#tuning.retentionMs;
    return { ...this.#ordersSpec(locationId, { created_after: new Date(from - 1).toISOString() }), sweepFrom: from };
  }

  #ordersSpec(locationId: string | null, filters: Record<string, string | undefined>): ScopeSpec<ClientOrder> {
    return {
      kind: 'order',
      scope: `order:${locationId ?? 'all'}`,
      path: '/orders',
      query: { location_id: locationId ?? undefined, ...filters },
      schema: clientOrderSchema,
      toRecords: (o) => [orderRecord(o)],
      getPath: (id) => `/orders/${encodeURIComponent(id)}`,
      itemSchema: clientOrderSchema,
      keyset: true,
    };
  }

  /** Webhooks compare a menu item event with the version last applied; a pull applies one too. */
  #recordMenuVersions(items: readonly z.infer<typeof clientMenuItemSchema>[]): void {
    const now = this.#clock.now();
    this.#store.transaction(() => {
      for (const item of items) {
        if (item.updated_at === undefined) continue;
        const scope = menuItemVersionScope(item.id);
        const version = Date.parse(item.updated_at);
        const applied = this.#store.server.getCursor(scope)?.highWaterMark ?? null;
        if (applied === null || version > applied) this.#store.server.setCursor(scope, { highWaterMark: version }, now);
      }
    });
  }

  /**
   * Every record of a scope, pass after pass until one is steady; then deletions are swept.
   * Orders page by keyset (created_after the last record seen, which insertions and deletions
   * cannot shift) and a pass is steady when what it saw matches the total at its end. Other
   * scopes page by number, and a pass is steady when it saw exactly what the previous one saw.
   */
  async fullPull<R>(spec: ScopeSpec<R>): Promise<PassResult> {
    let previous: PassOutcome | null = null;
    let last: PassOutcome | null = null;
    let steadyPass = false;
    for (let pass = 1; pass <= this.#tuning.maxPasses; pass++) {
      last = spec.keyset ? await this.#streamsPass(spec, pass === 1) : await this.#numberedPass(spec);
      const steady = !last.drifted && ((spec.keyset && !last.byPageNumber) || (previous !== null && sameIds(previous.seen, last.seen)));
      if (!steady) {
        if (last.drifted) this.#logger.info({ scope: spec.scope, pass }, 'records changed during the pull: pulling again');
        previous = last.drifted ? null : last;
        continue;
      }
      const stale = this.#store.server.staleBaseIds(spec.kind, spec.scope, last.startedAt, spec.sweepFrom);
      if (stale.length > 0 && spec.getPath && stale.length <= this.#tuning.maxConfirmations) await this.#confirmGone(spec, stale);
      else if (stale.length > 0) this.#store.server.sweepDeletions(spec.kind, spec.scope, last.startedAt, spec.sweepFrom);
      this.#store.server.setCursor(spec.scope, { cursor: null, highWaterMark: last.startedAt }, this.#clock.now());
      steadyPass = true;
      break;
    }
    if (!steadyPass) {
      // Every record read is kept; the status says the list could not be read to a steady end.
      throw new PullUnfinishedError(`could not finish: ${this.#tuning.maxPasses} passes did not agree with the list's total (it changed, or the server listed fewer than it announced); tried again at the next pull`);
    }
    const { seen: _seen, byPageNumber: _byPageNumber, ...result } = last as PassOutcome;
    return result;
  }

  async #confirmGone(spec: ScopeSpec<unknown>, localIds: readonly string[]): Promise<void> {
    for (const localId of localIds) {
      const serverId = this.#store.serverIdFor(spec.kind, localId) ?? localId;
      try {
        const askedAt = this.#clock.now();
        const { data } = await this.#api.call({ method: 'GET', path: spec.getPath!(serverId), schema: spec.itemSchema! });
        const records = spec.toRecords(data);
        this.#store.transaction(() => {
          for (const record of records) this.#store.server.applyServerRecord(spec.kind, record);
          if (spec.kind === 'order') this.#store.server.settleSupersededEvents('order', [serverId], askedAt);
        });
      } catch (error) {
        if (error instanceof ApiError && error.kind === 'not_found') this.#store.server.removeServerRecord(spec.kind, serverId);
        else throw error;
      }
    }
  }

  /**
   * Writes one page and its cursor in one transaction. The commit does not wait for the disk (an
   * fsync per page was half the time of a pull): a power cut can only lose the last pages with
   * their cursor, which the next pull fetches again.
   */
  #writePage<R>(spec: ScopeSpec<R>, data: readonly R[], startedAt: number, cursor: string | null | undefined, seen: Set<string> | null): number {
    const serverRecords = data.flatMap((r) => spec.toRecords(r));
    if (seen !== null) for (const record of serverRecords) seen.add(record.id);
    this.#store.refetchableTransaction(() => {
      if (spec.kind === 'order') claimOwnOrders(this.#store, data as unknown as ClientOrder[]);
      if (spec.kind === 'menu_item') {
        this.#recordMenuVersions(data as unknown as z.infer<typeof clientMenuItemSchema>[]);
        const modifiers = data.flatMap((item) => modifierRecords(item as z.infer<typeof clientMenuItemSchema>));
        if (modifiers.length > 0) this.#store.server.applyPullPage({ kind: 'modifier', scope: `modifier:${spec.scope}`, records: modifiers, cursor: null, pullStartedAt: startedAt });
      }
      this.#store.server.applyPullPage({ kind: spec.kind, scope: spec.scope, records: serverRecords, cursor, pullStartedAt: startedAt });
    });
    return serverRecords.length;
  }

  /**
   * One full keyset pass as several streams (sync/pull-streams.ts): the first page alone, then its
   * time range cut into windows pulled at once. Steady when the records seen since it started
   * (committed ones included, for a resumed pass) match the list's total at its end. Records
   * without created_at fall back to one stream stepping by page number.
   */
  async #streamsPass<R>(spec: ScopeSpec<R>, mayResume: boolean): Promise<PassOutcome> {
    const saved = mayResume ? parseStreamsCursor(this.#store.server.getCursor(spec.scope)?.cursor ?? null) : null;
    const startedAt = saved?.startedAt ?? this.#clock.now();
    const pageSchema = clientListEnvelopeSchema(spec.schema);
    const perPage = this.#tuning.perPage;
    // Pages fetched ahead wait in these as bytes until their turn to be written (sync/reply-buffers.ts).
    const buffers = new ReplyBuffers();
    let records = 0;
    const fetch = (window: Readonly<PullWindow>): Promise<UndecodedPage<R>> =>
      this.#api
        .callDeferred(
          {
            method: 'GET',
            path: spec.path,
            query: { ...spec.query, created_after: isoOrUndefined(window.after), created_before: isoOrUndefined(window.before), per_page: perPage, page: window.page },
            schema: pageSchema,
          },
          buffers,
        )
        .then((reply) => () => streamPage(reply.decode(), window.page));
    const progress = spec.kind === 'order' ? this.orderProgress : null;
    // What a resumed pass saw before it was interrupted; each page then adds the orders it is the first to see.
    if (progress !== null) progress.done = this.#store.server.countSeenSince(spec.kind, spec.scope, startedAt);
    const write = (page: StreamPage<R>, cursor: string) => {
      const firstSeen = progress === null ? 0 : new Set(page.ids).size - this.#store.server.countSeenAmong(spec.kind, spec.scope, startedAt, page.ids);
      records += this.#writePage(spec, page.records, startedAt, cursor, null);
      if (progress !== null) {
        progress.done += firstSeen;
        this.#onProgress();
      }
    };

    let windows = saved?.windows;
    let pages = 0;
    try {
      if (windows === undefined) {
        windows = await this.#firstStreamsPage(spec, startedAt, fetch, write);
        pages += 1;
      }
      pages += (await pullInStreams(startedAt, windows, { fetch, write, concurrency: this.#tuning.streams })).pages;
    } catch (error) {
      if (error instanceof NoKeysetError) return this.#keysetPass(spec, { full: true, keepIds: true });
      throw error;
    }
    // Everything seen since the pass started (before an interruption too) must still exist, and nothing may be missing.
    const { data } = await this.#api.call({ method: 'GET', path: spec.path, query: { ...spec.query, per_page: 1, page: 1 }, schema: pageSchema });
    const drifted = data.meta?.total !== undefined && data.meta.total !== this.#store.server.countSeenSince(spec.kind, spec.scope, startedAt);
    return { startedAt, drifted, records, pages, seen: null, byPageNumber: false };
  }

  /**
   * The first page of a fresh streams pass, alone: its newest record places the windows the
   * streams then pull (only a page listed oldest first can). Writes it with them; returns them.
   */
  async #firstStreamsPage<R>(
    spec: ScopeSpec<R>,
    startedAt: number,
    fetch: (window: Readonly<PullWindow>) => Promise<UndecodedPage<R>>,
    write: (page: StreamPage<R>, cursor: string) => void,
  ): Promise<PullWindow[]> {
    const lowerBound = spec.query.created_after === undefined ? null : Date.parse(String(spec.query.created_after));
    const first = (await fetch({ after: lowerBound, before: null, page: 1 }))();
    if (spec.kind === 'order' && this.orderProgress !== null) this.orderProgress.total = first.total;
    if (first.more && !oldestFirst(first.createdAt)) throw new NoKeysetError();
    const windows = first.more ? splitWindows(newestOf(first.createdAt) - 1, startedAt, this.#tuning.streams) : [];
    write(first, JSON.stringify({ startedAt, windows }));
    return windows;
  }

  /**
   * One keyset pass as one stream, for partial pulls (new and open orders) and records without
   * created_at: each request asks for the records created after the last one seen (minus a
   * millisecond, as several records may share one; ids dedupe), or the next page by number. The
   * next request leaves before the current page is written. Its cursor resumes a full pass from
   * the start (pull-streams reads it). The ids it saw are kept only for a full pass (its total
   * and the next pass are compared with them) or when the caller asks (`keepIds`): a first sync's
   * open orders may be a year of them.
   */
  async #keysetPass<R>(spec: ScopeSpec<R>, mode: { full: boolean; keepIds: boolean }): Promise<PassOutcome> {
    const startedAt = this.#clock.now();
    const pageSchema = clientListEnvelopeSchema(spec.schema);
    const perPage = this.#tuning.perPage;
    const lowerBound = spec.query.created_after === undefined ? null : Date.parse(String(spec.query.created_after));
    const fetch = (after: number | null, page: number) =>
      this.#api
        .call({
          method: 'GET',
          path: spec.path,
          query: { ...spec.query, created_after: after === null ? undefined : new Date(after).toISOString(), per_page: perPage, page },
          schema: pageSchema,
        })
        .then((r) => r.data);
    const createdAt = (record: R) => Date.parse(String((record as { created_at?: string }).created_at ?? ''));

    const seen = mode.full || mode.keepIds ? new Set<string>() : null;
    let records = 0;
    let pages = 0;
    let after = lowerBound;
    let page = 1;
    let byPageNumber = false;
    let next = fetch(after, page);
    for (;;) {
      const data = await next;
      // Only the server's word ends the list (links.next, total_pages): a page shorter than asked,
      // or empty, may still link on.
      const more = hasMorePages(data, page);
      const stamps = data.data.map(createdAt);
      const newest = newestOf(stamps);
      let nextAfter = after;
      let nextPage = 1;
      if (more && (data.data.length < 2 || !oldestFirst(stamps) || (after !== null && newest <= after + 1))) {
        // An empty or one-record page, records without created_at (the spec shows none) or listed
        // newest first, or a whole page within the one millisecond after `after` (the next keyset
        // request would bring it again): step by page number. Without created_at or oldest first,
        // a full pull needs two passes that agree, as numbered ones do.
        nextPage = page + 1;
        if (data.data.length >= 2 && !oldestFirst(stamps)) byPageNumber = true;
      } else if (more) {
        nextAfter = newest - 1;
      }
      // Ask for the next page before writing this one, and let the request leave before the
      // write blocks the thread: the server works while SQLite does.
      if (more) {
        next = fetch(nextAfter, nextPage);
        next.catch(() => undefined);
        await letRequestsLeave();
      }
      // Only full passes leave a resume point; a partial pass (incremental, open orders) has none,
      // and leaves the one of a full pull it interrupted (a fresh till's open orders come first
      // at every try of its first sync).
      const cursor = !mode.full ? undefined : more ? JSON.stringify({ after: nextAfter, startedAt }) : null;
      records += this.#writePage(spec, data.data, startedAt, cursor, seen);
      pages += 1;
      if (!more) break;
      after = nextAfter;
      page = nextPage;
    }
    let drifted = false;
    if (mode.full) {
      // Everything seen must still exist and nothing may be missing: compare with the total now.
      const { data } = await this.#api.call({ method: 'GET', path: spec.path, query: { ...spec.query, per_page: 1, page: 1 }, schema: pageSchema });
      drifted = data.meta?.total !== undefined && data.meta.total !== seen!.size;
    }
    return { startedAt, drifted, records, pages, seen, byPageNumber };
  }

  /**
   * One numbered pass. Pages are fetched a few ahead and written in page order, each with its
   * cursor; the total announced by each page is compared with the first.
   */
  async #numberedPass<R>(spec: ScopeSpec<R>): Promise<PassOutcome> {
    const startedAt = this.#clock.now();
    const pageSchema = clientListEnvelopeSchema(spec.schema);
    const fetchPage = (page: number) =>
      this.#api.call({ method: 'GET', path: spec.path, query: { ...spec.query, per_page: this.#tuning.perPage, page }, schema: pageSchema }).then((r) => r.data);

    const first = await fetchPage(1);
    const total = first.meta?.total;
    let announced = first.meta?.total_pages;
    let more = hasMorePages(first, 1);
    // Pages fetched ahead go up to the last one the server has announced (or one past the page in hand).
    let lastKnown = more ? Math.max(announced ?? 2, 2) : 1;
    let drifted = false;
    let records = 0;
    let pages = 0;
    const seen = new Set<string>();
    const write = (data: readonly R[], page: number, hasNext: boolean) => {
      records += this.#writePage(spec, data, startedAt, hasNext ? JSON.stringify({ page: page + 1, startedAt }) : null, seen);
      pages += 1;
    };
    write(first.data, 1, more);

    const ahead = new Map<number, Promise<Awaited<ReturnType<typeof fetchPage>>>>();
    let nextToFetch = 2;
    const topUp = () => {
      while (ahead.size < this.#tuning.pagesInFlight && nextToFetch <= lastKnown) {
        const page = nextToFetch++;
        const promise = fetchPage(page);
        promise.catch(() => undefined); // awaited below in page order
        ahead.set(page, promise);
      }
    };
    topUp();
    // On while the server says there is more, whatever a page's length: an empty page may link on.
    for (let page = 2; more; page++) {
      const promise = ahead.get(page) ?? fetchPage(page);
      const data = await promise.finally(() => ahead.delete(page));
      if (data.meta?.total !== total) drifted = true;
      if (data.meta?.total_pages !== undefined && announced !== undefined && data.meta.total_pages !== announced) {
        // More (or fewer) pages than announced: read to the real end, then pull again.
        drifted = true;
        announced = data.meta.total_pages;
      }
      more = hasMorePages(data, page);
      lastKnown = more ? Math.max(lastKnown, announced ?? 0, page + 1) : page;
      write(data.data, page, more);
      topUp();
    }
    await Promise.allSettled([...ahead.values()]);
    if (total !== undefined && seen.size !== total) drifted = true;
    return { startedAt, drifted, records, pages, seen, byPageNumber: true };
  }

  /**
   * Between full pulls: orders created since the last high-water mark (minus a skew margin), and
   * every order still open here, since /v1 cannot list "changed since".
   */
  async incrementalOrders(locationId: string | null): Promise<void> {
    const full = this.orderScope(locationId);
    const mark = this.#store.server.getCursor(full.scope)?.highWaterMark;
    if (mark == null) {
      await this.fullPull(full);
      return;
    }
    const startedAt = this.#clock.now();
    const since = new Date(mark - this.#tuning.orderOverlapMs).toISOString();
    await this.#keysetPass(this.#ordersSpec(locationId, { created_after: since }), { full: false, keepIds: false });
    const openThere = (await this.#keysetPass(this.#ordersSpec(locationId, { status: 'open' }), { full: false, keepIds: true })).seen!;
    // Orders open here that the server no longer lists as open: read each to learn what happened.
    const openHere = this.#store.cashier.listOrders({ status: 'open', locationId: locationId ?? undefined, limit: 500 });
    const toCheck = openHere.filter((o) => {
      const serverId = this.#store.serverIdFor('order', o.id);
      return serverId !== undefined && !openThere.has(serverId);
    });
    await this.#confirmGone(full, toCheck.map((o) => o.id));
    this.#store.server.setCursor(full.scope, { highWaterMark: startedAt }, this.#clock.now());
  }
}
