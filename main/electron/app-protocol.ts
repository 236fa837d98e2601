// Serves the renderer bundle on app://terminal/… (registered with `protocol.handle`). Plain fetch
// Request/Response, so it runs and is tested under Node exactly as Electron calls it.
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { APP_HOST, APP_SCHEME } from './app-origin';
import { SECURITY_HEADERS } from './content-security-policy';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export type BundlePath = { ok: true; file: string } | { ok: false; status: 400 | 404 };

/**
 * Maps a request URL to a file inside `bundleRoot`, refusing anything that could leave it:
 * another host, encoded separators or NUL, `..` segments that escape, absolute paths. A symlink that
 * points outside is caught later by `realpath` in the handler.
 */
export function resolveBundlePath(bundleRoot: string, requestUrl: string): BundlePath {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return { ok: false, status: 400 };
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return { ok: false, status: 404 };
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return { ok: false, status: 400 };
  }
  if (pathname.includes('\0') || pathname.includes('\\') || /%2f|%5c/i.test(url.pathname)) return { ok: false, status: 400 };
  const wanted = pathname === '/' ? '/index.html' : pathname;
  const root = resolve(bundleRoot);
  const file = resolve(root, `.${wanted}`);
  const inside = relative(root, file);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return { ok: false, status: 404 };
  return { ok: true, file };
}

function errorResponse(status: number): Response {
  return new Response(null, { status, headers: SECURITY_HEADERS });
}

/** The `protocol.handle(APP_SCHEME, …)` handler for the bundle in `bundleRoot`. */
export function createAppProtocolHandler(bundleRoot: string): (request: Request) => Promise<Response> {
  const realRoot = realpath(resolve(bundleRoot));
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return errorResponse(405);
    const target = resolveBundlePath(bundleRoot, request.url);
    if (!target.ok) return errorResponse(target.status);
    let file: string;
    try {
      file = await realpath(target.file);
      if (!file.startsWith((await realRoot) + sep) || !(await stat(file)).isFile()) return errorResponse(404);
    } catch {
      return errorResponse(404);
    }
    const body = request.method === 'HEAD' ? null : await readFile(file);
    return new Response(body, {
      status: 200,
      headers: {
        ...SECURITY_HEADERS,
        'Content-Type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
        // The bundle changes only with an app update, which restarts the app.
        'Cache-Control': 'no-cache',
      },
    });
  };
}
