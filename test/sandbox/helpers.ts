// Shared helpers for the sandbox suites: a real sandbox on loopback and a small HTTP client that
// checks every successful /v1 reply against the exact documented schema of its operation.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { ENDPOINTS, type Endpoint } from '../../api/endpoints';
import { errorBodySchema } from '../../api/errors';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/index';

/**
 * Replies are checked against their exact zod schema inside call(); tests then read them freely.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: validated before use
export type Loose = any;

export interface Reply<T = Loose> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

function endpointFor(method: string, path: string): Endpoint | undefined {
  const bare = path.split('?')[0] ?? '';
  return ENDPOINTS.find((e) => e.method === method && new RegExp(`^${e.path.replace('{id}', '[^/]+')}$`).test(bare));
}

export interface CallOptions {
  key?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** Calls {base_url}{path}; asserts the reply's shape (the exact record schema or the error body). */
export async function call<T = Loose>(sandbox: Sandbox, method: string, path: string, options: CallOptions = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.Authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && headers['Content-Type'] === undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${sandbox.baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  const parsed = text.length > 0 ? JSON.parse(text) : undefined;
  const endpoint = endpointFor(method, path);
  if (response.ok && endpoint) {
    const check = endpoint.response.safeParse(parsed);
    if (!check.success) throw new Error(`${method} ${path} answered a body off its schema: ${check.error.message}`);
  } else if (!response.ok) {
    const check = errorBodySchema.safeParse(parsed);
    if (!check.success) throw new Error(`${method} ${path} answered ${response.status} with a body off the error schema: ${text}`);
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

export async function withSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ seed: 'demo', ...options });
}

/** A suite's sandbox, its full API key and its first location: set once the suite's beforeAll has run. */
export interface SuiteSandbox {
  sb: Sandbox;
  key: string;
  loc: string;
}

/** A sandbox (demo seed unless told) for the enclosing describe, or the file: started before its tests, closed after them. */
export function sandboxPerSuite(options: SandboxOptions = {}): SuiteSandbox {
  const suite = {} as SuiteSandbox;
  beforeAll(async () => {
    suite.sb = await withSandbox(options);
    suite.key = suite.sb.credentials.apiKeys.full;
    suite.loc = suite.sb.credentials.locationIds[0] as string;
  });
  afterAll(() => suite.sb?.close());
  return suite;
}

/** `npm run sandbox -- --port 0 …args` from the repository root, its output collected as it comes. */
export function runSandboxCli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts', '--port', '0', ...args], { cwd: join(import.meta.dirname, '..', '..'), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, exited, out: () => out, err: () => err };
}

/** Dashboard control call (JSON under /_dashboard/api). */
export async function dashboard<T = Loose>(sandbox: Sandbox, method: string, path: string, body?: unknown): Promise<Reply<T>> {
  const response = await fetch(`${sandbox.dashboardApiUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as T, text };
}

/** A sellable menu item at the sandbox's first location, with at least `minModifiers` modifiers. */
export async function sellableItem(sandbox: Sandbox, minModifiers = 0): Promise<Loose> {
  const { body } = await call(sandbox, 'GET', `/menu/items?per_page=100&location_id=${sandbox.credentials.locationIds[0]}`, { key: sandbox.credentials.apiKeys.full });
  const item = body.data.find((i: Loose) => i.available && i.modifiers.length >= minModifiers);
  if (!item) throw new Error('the demo menu has no such item');
  return item;
}

export async function createOrder(sandbox: Sandbox, overrides: Record<string, unknown> = {}): Promise<Loose> {
  const item = await sellableItem(sandbox);
  const reply = await call(sandbox, 'POST', '/orders', {
    key: sandbox.credentials.apiKeys.full,
    body: { location_id: sandbox.credentials.locationIds[0], items: [{ menu_item_id: item.id, quantity: 2 }], ...overrides },
  });
  if (reply.status !== 201) throw new Error(`order not created: ${reply.text}`);
  return reply.body;
}
