// The spec's list envelope: data, meta.{total,page,per_page,total_pages}, links as absolute URLs.
import type { ListEnvelope } from '../api/records';
import { PER_PAGE_DEFAULT } from '../api/requests';
import { RawJson } from './context';
import { NO_QUIRKS, quirkyPage, type QuirkSettings } from './quirks';

export interface PageRequest {
  page: number;
  perPage: number;
  /** Records of the stored list this page shows (the quirks may serve fewer than perPage). */
  offset: number;
  limit: number;
  quirks: Readonly<QuirkSettings>;
}

export function pageRequest(query: { page?: number; per_page?: number }, quirks: Readonly<QuirkSettings> = NO_QUIRKS): PageRequest {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? PER_PAGE_DEFAULT;
  return { page, perPage, offset: (page - 1) * perPage, limit: perPage, quirks };
}

/** Offset and limit of the page once the list's total is known (the quirks move them). */
export function pageSlice(request: PageRequest, total: number): { offset: number; limit: number } {
  if (!request.quirks.short_pages && !request.quirks.empty_page_with_next) return { offset: request.offset, limit: request.limit };
  const { offset, limit } = quirkyPage(request.page, request.perPage, total, request.quirks);
  return { offset, limit };
}

function pageUrl(requestUrl: URL, page: number, perPage: number): string {
  const url = new URL(requestUrl.href);
  url.searchParams.set('page', String(page));
  url.searchParams.set('per_page', String(perPage));
  return url.href;
}

/** The envelope around records stored as JSON text, spliced in as they are. */
export function envelopeOfDocs(docs: readonly string[], total: number, request: PageRequest, requestUrl: URL): RawJson {
  const totalPages = request.quirks.short_pages || request.quirks.empty_page_with_next ? quirkyPage(request.page, request.perPage, total, request.quirks).totalPages : Math.ceil(total / request.perPage);
  const lastPage = Math.max(totalPages, 1);
  const meta: ListEnvelope<never>['meta'] = { total, page: request.page, per_page: request.perPage, total_pages: totalPages };
  const links: ListEnvelope<never>['links'] = {
    first: pageUrl(requestUrl, 1, request.perPage),
    prev: request.page > 1 ? pageUrl(requestUrl, Math.min(request.page - 1, lastPage), request.perPage) : null,
    next: request.page < totalPages ? pageUrl(requestUrl, request.page + 1, request.perPage) : null,
    last: pageUrl(requestUrl, lastPage, request.perPage),
  };
  return new RawJson(`{"data":[${docs.join(',')}],"meta":${JSON.stringify(meta)},"links":${JSON.stringify(links)}}`);
}
