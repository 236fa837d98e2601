// Drives the OAuth consent page like a merchant's browser: fetch the page, post the form, follow
// the redirect to a real loopback listener that records what it received.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sandbox } from '../../sandbox/index';
import type { Loose } from './helpers';

export interface CallbackListener {
  redirectUri: string;
  /** Query parameters of every request to the callback path, in order. */
  received: URLSearchParams[];
  close(): Promise<void>;
}

export async function startCallbackListener(path = '/callback'): Promise<CallbackListener> {
  const received: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // Browsers also ask for /favicon.ico: only the callback path counts.
    if (url.pathname !== path) {
      res.writeHead(404);
      res.end();
      return;
    }
    received.push(url.searchParams);
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('You can close this window.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}${path}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Opens the consent page and returns its HTML and the form's one-time request token. */
export async function openConsentPage(authorizeUrl: string): Promise<{ status: number; html: string; requestToken: string | undefined; response: Response }> {
  const response = await fetch(authorizeUrl, { redirect: 'manual' });
  const html = await response.text();
  const requestToken = /name="request" value="([^"]+)"/.exec(html)?.[1];
  return { status: response.status, html, requestToken, response };
}

/** Posts the merchant's decision the way the page's form does, following the redirect. */
export async function submitConsent(sandbox: Sandbox, requestToken: string, decision: 'approve' | 'deny'): Promise<Response> {
  const form = new URLSearchParams({ request: requestToken, decision });
  return fetch(`${sandbox.authUrl}/oauth/authorize`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'follow',
  });
}

export async function tokenRequest(sandbox: Sandbox, body: unknown, contentType = 'application/json'): Promise<{ status: number; body: Loose; headers: Headers }> {
  const response = await fetch(`${sandbox.apiHost}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json(), headers: response.headers };
}
