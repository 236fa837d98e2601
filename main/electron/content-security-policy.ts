// The page's Content-Security-Policy. The renderer is a bundled React app that talks to the core only
// through the preload's IPC bridge, so it needs its own scripts, styles, images and fonts and nothing else:
// no inline script, no eval, no network, no frames, no plugins.

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers every response to the page carries, from our protocol handler and from the session hook alike. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Referrer-Policy': 'no-referrer',
};

/**
 * Response headers with our security headers forced in (for `session.webRequest.onHeadersReceived`).
 * Any CSP a response brought is dropped, whatever its casing, so nothing can loosen ours.
 */
export function withSecurityHeaders(headers: Record<string, string[]> | undefined): Record<string, string[]> {
  const forced = new Set(Object.keys(SECURITY_HEADERS).map((name) => name.toLowerCase()));
  const kept = Object.entries(headers ?? {}).filter(
    ([name]) => !forced.has(name.toLowerCase()) && name.toLowerCase() !== 'content-security-policy-report-only',
  );
  return {
    ...Object.fromEntries(kept),
    ...Object.fromEntries(Object.entries(SECURITY_HEADERS).map(([name, value]) => [name, [value]])),
  };
}
