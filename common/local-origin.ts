// Who may talk to a loopback listener that trusts whoever reaches it (browser mode's bridge, the
// sandbox's dashboard and consent page). Binding 127.0.0.1 is not enough:
// - DNS rebinding: a page on attacker.example whose name is made to resolve to 127.0.0.1 reaches
//   the listener as "same origin" and can read its answers. Its requests carry
//   `Host: attacker.example:<port>`, so only the listener's own names are accepted as Host.
// - Cross-site requests (a form posted from another site, a fetch): the browser names the page's
//   site in `Origin`, so an Origin that is not the listener's own is refused.
// A request without Origin is not from another site's page (browsers send it on every cross-site
// request but simple GET navigations, which cannot read the answer): tools and tests send none.
import type { IncomingHttpHeaders } from 'node:http';

/** The loopback names a browser on this machine uses to reach a listener bound to 127.0.0.1. */
export const LOOPBACK_NAMES: readonly string[] = ['127.0.0.1', 'localhost'];

export interface LocalOrigins {
  /** Accepted `Host` header values: name:port. */
  hosts: ReadonlySet<string>;
  /** Accepted `Origin` header values: http://name:port. */
  origins: ReadonlySet<string>;
}

/** The Host values and origins of a listener on `port`, reached by any of `names` (an IPv6 address in brackets). */
export function localOrigins(port: number, names: readonly string[] = LOOPBACK_NAMES): LocalOrigins {
  const hosts = new Set(names.map((name) => `${name.toLowerCase()}:${port}`));
  return { hosts, origins: new Set([...hosts].map((host) => `http://${host}`)) };
}

/** True when the request names one of the listener's own hosts, and its Origin, if any, is one of its own. */
export function fromLocalOrigin(headers: IncomingHttpHeaders, allowed: LocalOrigins): boolean {
  if (!allowed.hosts.has((headers.host ?? '').toLowerCase())) return false;
  const origin = headers.origin;
  return origin === undefined || allowed.origins.has(origin.toLowerCase());
}
