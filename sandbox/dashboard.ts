// The dashboard listener ({auth_url}): the OAuth consent page, the dashboard controls as JSON
// under /_dashboard/api, and a small HTML page with forms for the same controls. Faults never
// touch this listener, so a test can always lift them. It has no login (it is for local use), so
// only this listener's own Host and Origin are answered (common/local-origin.ts): a page on
// another site cannot create keys or read them, by a cross-site request or by DNS rebinding.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { apiKeyKindSchema, apiKeyModeSchema, eventTypeSchema, permissionSchema, webhookDeliveryStatusSchema } from '../api/enums';
import { newId } from '../common/ids';
import { fromLocalOrigin, localOrigins, LOOPBACK_NAMES, type LocalOrigins } from '../common/local-origin';
import type { Logger } from '../common/log';
import { createApiKey, listApiKeys, regenerateApiKey } from './auth';
import { faultPatchSchema } from './faults';
import { taxesOptionSchema } from './seed';
import { profileSchema, recordShapeSchema } from './profile-schemas';
import { ApiError, BodyTooLargeError, errorBody, escapeHtml, parseOrThrow, queryObject, readRawBody, sendHtml, sendJson } from './http';
import { registerOAuthAppSchema, registerOAuthApp, type OAuthService } from './oauth';
import { rateLimitSettingsSchema } from './rate-limit';
import { createWebhookEndpoint, listDeliveries, listWebhookEndpoints } from './resources/webhooks';
import type { SandboxCore } from './core';

export const DASHBOARD_API_PREFIX = '/_dashboard/api';

export const createKeySchema = z.strictObject({
  kind: apiKeyKindSchema,
  mode: apiKeyModeSchema.default('test'),
  label: z.string().min(1).max(100).optional(),
  permissions: z.array(permissionSchema).min(1).optional(),
});

export const createWebhookEndpointSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/ }),
  event_types: z.array(eventTypeSchema).min(1),
});

export const advanceClockSchema = z.strictObject({ ms: z.int().min(0).max(366 * 24 * 3600 * 1000) });

const idempotencyModeSchema = z.enum(['honour', 'ignore']);

export const settingsPatchSchema = z.strictObject({
  idempotency: idempotencyModeSchema.optional(),
  rate_limit: rateLimitSettingsSchema.optional(),
  profile: profileSchema.optional(),
  record_shape: recordShapeSchema.optional(),
  events_before_reply: z.boolean().optional(),
});

/** The settings form's events-before-reply choice: empty keeps what the chosen profile sets. */
const formSwitch = z.enum(['', 'on', 'off']);

const deliveriesQuerySchema = z.strictObject({ endpoint_id: z.string().optional(), status: webhookDeliveryStatusSchema.optional() });

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return {};
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiError('invalid_request', 'the body is not valid JSON', { param: 'body' });
  }
}

/**
 * The names this listener answers to: loopback, and the host it was started on (its {auth_url}).
 * Unknown until the listener has its address: nothing is answered before.
 */
function ownOrigins(authUrl: string): LocalOrigins {
  if (authUrl === '') return { hosts: new Set(), origins: new Set() };
  const own = new URL(authUrl);
  return localOrigins(Number(own.port), [...new Set([...LOOPBACK_NAMES, '[::1]', own.hostname])]);
}

export function createDashboardHandler(core: SandboxCore, oauth: OAuthService, logger: Logger) {
  const { db, clock } = core;
  let allowed = { authUrl: '', origins: ownOrigins('') };
  const originsNow = (): LocalOrigins => {
    if (allowed.authUrl !== core.urls.authUrl) allowed = { authUrl: core.urls.authUrl, origins: ownOrigins(core.urls.authUrl) };
    return allowed.origins;
  };

  async function api(method: string, path: string, url: URL, raw: Buffer): Promise<{ status: number; body: unknown }> {
    const route = `${method} ${path.replace(/\/(key|we|whd)_[0-9a-z]+/, '/{id}')}`;
    const id = /\/((?:key|we|whd)_[0-9a-z]+)/.exec(path)?.[1] ?? '';
    switch (route) {
      case 'GET /state':
        return { status: 200, body: core.describe() };
      case 'GET /keys':
        return { status: 200, body: { data: await listApiKeys(db) } };
      case 'POST /keys': {
        const input = parseOrThrow(createKeySchema, parseJson(raw), 'body');
        if ((input.kind === 'custom') !== (input.permissions !== undefined)) {
          throw new ApiError('invalid_request', 'permissions: required for a custom key, and only for it', { param: 'permissions' });
        }
        return { status: 201, body: await createApiKey(db, clock, input) };
      }
      case 'POST /keys/{id}/regenerate': {
        const key = await regenerateApiKey(db, id);
        if (!key) throw new ApiError('not_found', `no API key ${id}`);
        return { status: 200, body: key };
      }
      case 'POST /oauth/apps':
        return { status: 201, body: await registerOAuthApp(db, clock, parseOrThrow(registerOAuthAppSchema, parseJson(raw), 'body')) };
      case 'GET /webhook-endpoints':
        return { status: 200, body: { data: await listWebhookEndpoints(db) } };
      case 'POST /webhook-endpoints':
        return { status: 201, body: await createWebhookEndpoint(db, clock, parseOrThrow(createWebhookEndpointSchema, parseJson(raw), 'body')) };
      case 'GET /deliveries': {
        const q = parseOrThrow(deliveriesQuerySchema, queryObject(url), 'query');
        return { status: 200, body: { data: await listDeliveries(db, { endpointId: q.endpoint_id, status: q.status }) } };
      }
      case 'POST /deliveries/{id}/retry': {
        const outcome = await core.dispatcher.retry(id);
        if (outcome === 'not_found') throw new ApiError('not_found', `no delivery ${id}`);
        if (outcome === 'not_failed') throw new ApiError('invalid_state', `delivery ${id} is not failed: only failed deliveries are retried by hand`);
        const [delivery] = await listDeliveries(db, { ids: [id] });
        return { status: 202, body: delivery };
      }
      case 'POST /seed': {
        const input = parseOrThrow(z.strictObject({ dataset: z.literal('demo'), taxes: taxesOptionSchema.optional() }), parseJson(raw), 'body');
        await core.seedDemo(input.taxes);
        return { status: 200, body: core.describe() };
      }
      case 'GET /clock':
        return { status: 200, body: { now: new Date(clock.now()).toISOString(), now_ms: clock.now() } };
      case 'POST /clock/advance': {
        core.advanceClock(parseOrThrow(advanceClockSchema, parseJson(raw), 'body').ms);
        return { status: 200, body: { now: new Date(clock.now()).toISOString(), now_ms: clock.now() } };
      }
      case 'GET /faults':
        return { status: 200, body: core.faults.get() };
      case 'PATCH /faults':
        return { status: 200, body: await core.faults.set(parseOrThrow(faultPatchSchema, parseJson(raw), 'body')) };
      case 'DELETE /faults':
        return { status: 200, body: await core.faults.reset() };
      case 'GET /settings':
        return { status: 200, body: core.settings() };
      case 'PATCH /settings':
        return { status: 200, body: core.updateSettings(parseOrThrow(settingsPatchSchema, parseJson(raw), 'body')) };
      default:
        throw new ApiError('not_found', `no dashboard control ${method} ${path}`);
    }
  }

  /** The HTML page's forms post here and come back to the page. */
  async function form(action: string, raw: Buffer): Promise<void> {
    const f = new URLSearchParams(raw.toString('utf8'));
    const field = (name: string) => f.get(name) ?? '';
    switch (action) {
      case 'create-key': {
        const kind = apiKeyKindSchema.parse(field('kind'));
        const permissions = kind === 'custom' ? permissionSchema.array().min(1).parse(f.getAll('permissions')) : undefined;
        await createApiKey(db, clock, { kind, mode: apiKeyModeSchema.parse(field('mode') || 'test'), permissions });
        return;
      }
      case 'regenerate-key':
        await regenerateApiKey(db, field('id'));
        return;
      case 'create-webhook':
        await createWebhookEndpoint(db, clock, createWebhookEndpointSchema.parse({ url: field('url'), event_types: f.getAll('event_types') }));
        return;
      case 'retry-delivery':
        await core.dispatcher.retry(field('id'));
        return;
      case 'advance-clock':
        core.advanceClock(advanceClockSchema.parse({ ms: Math.round(Number(field('minutes')) * 60_000) }).ms);
        return;
      case 'faults':
        await core.faults.set(
          faultPatchSchema.parse({
            latency_ms: Number(field('latency_ms')),
            error_rate: Number(field('error_rate')),
            rate_limit_rate: Number(field('rate_limit_rate')),
            reset_rate: Number(field('reset_rate')),
            drop_response_rate: Number(field('drop_response_rate')),
            outage: f.get('outage') === 'on',
          }),
        );
        return;
      case 'settings': {
        // A field left out or empty leaves its setting as it is.
        const given = (name: string) => field(name) || undefined;
        const eventsBeforeReply = formSwitch.parse(field('events_before_reply'));
        core.updateSettings(
          settingsPatchSchema.parse({
            profile: given('profile'),
            record_shape: given('record_shape'),
            idempotency: given('idempotency'),
            events_before_reply: eventsBeforeReply === '' ? undefined : eventsBeforeReply === 'on',
          }),
        );
        return;
      }
      case 'seed':
        await core.seedDemo();
        return;
      default:
        throw new ApiError('not_found', `no form ${action}`);
    }
  }

  async function page(): Promise<string> {
    const keys = await listApiKeys(db);
    const endpoints = await listWebhookEndpoints(db);
    const deliveries = (await listDeliveries(db)).slice(-50);
    const faults = core.faults.get();
    const settings = core.settings();
    const state = core.describe();
    const rows = (cells: string[][]) => cells.map((c) => `<tr>${c.map((x) => `<td>${x}</td>`).join('')}</tr>`).join('');
    const post = (action: string, inner: string) => `<form method="post" action="/_dashboard/forms/${action}">${inner}</form>`;
    const select = (name: string, options: readonly string[], current: string) =>
      `<select name="${name}">${options.map((o) => `<option${o === current ? ' selected' : ''}>${o}</option>`).join('')}</select>`;
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sandbox dashboard</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:70rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem;font-size:.85rem}code{font-size:.8rem}form{display:inline}section{margin-bottom:2rem}</style></head><body>
<h1>Sandbox dashboard</h1>
<p>API: <code>${escapeHtml(state.baseUrl)}</code> · clock: <code>${escapeHtml(new Date(clock.now()).toISOString())}</code> · JSON controls: <code>${escapeHtml(state.dashboardApiUrl)}</code></p>
<section><h2>API keys</h2><table><tr><th>label</th><th>kind</th><th>secret</th><th>permissions</th><th></th></tr>
${rows(keys.map((k) => [escapeHtml(k.label), k.kind, `<code>${escapeHtml(k.secret)}</code>`, escapeHtml(k.permissions.join(' ')), post('regenerate-key', `<input type="hidden" name="id" value="${k.id}"><button>Regenerate</button>`)]))}</table>
${post('create-key', `<label>kind <select name="kind">${apiKeyKindSchema.options.map((o) => `<option>${o}</option>`).join('')}</select></label> <label>mode <select name="mode"><option>test</option><option>live</option></select></label> <label>custom permissions <select name="permissions" multiple>${permissionSchema.options.map((p) => `<option>${p}</option>`).join('')}</select></label> <button>Create key</button>`)}</section>
<section><h2>Webhook endpoints</h2><table><tr><th>id</th><th>url</th><th>events</th><th>secret</th></tr>
${rows(endpoints.map((e) => [e.id, escapeHtml(e.url), escapeHtml(e.event_types.join(' ')), `<code>${escapeHtml(e.secret)}</code>`]))}</table>
${post('create-webhook', `<label>URL <input name="url" size="40"></label> <select name="event_types" multiple>${eventTypeSchema.options.map((t) => `<option selected>${t}</option>`).join('')}</select> <button>Add endpoint</button>`)}</section>
<section><h2>Deliveries (last 50)</h2><table><tr><th>id</th><th>event</th><th>status</th><th>attempts</th><th>last error</th><th></th></tr>
${rows(deliveries.map((d) => [d.id, d.event_type, d.status, String(d.attempts), escapeHtml(d.last_error ?? ''), d.status === 'failed' ? post('retry-delivery', `<input type="hidden" name="id" value="${d.id}"><button>Retry</button>`) : '']))}</table></section>
<section><h2>Clock and data</h2>${post('advance-clock', `<label>advance by <input name="minutes" value="1" size="4"> minutes</label> <button>Advance</button>`)} ${post('seed', '<button>Seed demo data</button>')}</section>
<section><h2>Faults</h2>${post(
      'faults',
      `<label>latency ms <input name="latency_ms" value="${faults.latency_ms}" size="5"></label>
<label>5xx rate <input name="error_rate" value="${faults.error_rate}" size="4"></label>
<label>429 rate <input name="rate_limit_rate" value="${faults.rate_limit_rate}" size="4"></label>
<label>reset rate <input name="reset_rate" value="${faults.reset_rate}" size="4"></label>
<label>drop-after-commit rate <input name="drop_response_rate" value="${faults.drop_response_rate}" size="4"></label>
<label><input type="checkbox" name="outage" ${faults.outage ? 'checked' : ''}> outage</label> <button>Apply</button>`,
    )}</section>
<section><h2>Settings</h2>${post(
      'settings',
      `<label>profile ${select('profile', profileSchema.options, settings.profile)}</label>
<label>record shape ${select('record_shape', recordShapeSchema.options, settings.record_shape)}</label>
<label>Idempotency-Key ${select('idempotency', idempotencyModeSchema.options, settings.idempotency)}</label>
<label>events before reply (now ${settings.events_before_reply ? 'on' : 'off'}) <select name="events_before_reply"><option value="" selected>as the profile sets it</option><option>on</option><option>off</option></select></label> <button>Apply</button>`,
    )}</section></body></html>`;
  }

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = newId('req_', clock.now());
    const method = req.method ?? 'GET';
    try {
      if (!fromLocalOrigin(req.headers, originsNow())) {
        logger.warn({ host: req.headers.host, origin: req.headers.origin, path: req.url }, 'dashboard refused a request from another site');
        res.setHeader('Connection', 'close');
        throw new ApiError('permission_denied', `this is the sandbox dashboard: open it at ${core.urls.dashboardUrl}, not through another address or site`);
      }
      let raw: Buffer;
      try {
        raw = await readRawBody(req);
      } catch (err) {
        if (!(err instanceof BodyTooLargeError)) throw err;
        res.setHeader('Connection', 'close');
        throw new ApiError('payload_too_large', err.message);
      }
      const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
      const path = url.pathname;
      if (path === '/oauth/authorize' && method === 'GET') return await oauth.authorizePage(res, url);
      if (path === '/oauth/authorize' && method === 'POST') return await oauth.decide(res, raw);
      if ((path === '/' || path === '/_dashboard' || path === '/_dashboard/') && method === 'GET') return sendHtml(res, 200, await page());
      if (path.startsWith('/_dashboard/forms/') && method === 'POST') {
        try {
          await form(path.slice('/_dashboard/forms/'.length), raw);
        } catch (err) {
          if (err instanceof z.ZodError) return sendHtml(res, 400, `<!doctype html><p>Invalid form: ${escapeHtml(err.issues.map((i) => i.message).join('; '))}</p><p><a href="/_dashboard">Back</a></p>`);
          throw err;
        }
        res.writeHead(303, { Location: '/_dashboard' });
        return void res.end();
      }
      if (path.startsWith(`${DASHBOARD_API_PREFIX}/`)) {
        const result = await api(method, path.slice(DASHBOARD_API_PREFIX.length), url, raw);
        return sendJson(res, result.status, result.body);
      }
      throw new ApiError('not_found', `no such page: ${path}`);
    } catch (err) {
      if (res.headersSent) return;
      if (err instanceof ApiError) return sendJson(res, err.status, errorBody(err, requestId), err.headers);
      logger.error({ err }, 'unhandled error in the dashboard');
      sendJson(res, 500, errorBody(new ApiError('internal_error', 'internal error'), requestId));
    }
  };
}
