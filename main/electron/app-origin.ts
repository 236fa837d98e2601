// The one origin the cashier page is served from. A privileged standard+secure custom scheme gives the
// page a real origin (so CSP 'self' and same-origin rules work) without file:// and its wide reach.

export const APP_SCHEME = 'app';
export const APP_HOST = 'terminal';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** True when `url` is a page of our own origin (any path). Node's URL gives custom schemes a null origin, hence the parts. */
export function isAppUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.username === '' && parsed.password === '';
}
