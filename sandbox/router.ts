// Matches /v1 paths against the endpoint table.
import { ENDPOINTS, type Endpoint } from '../api/endpoints';

interface CompiledRoute {
  endpoint: Endpoint;
  pattern: RegExp;
}

const ROUTES: CompiledRoute[] = ENDPOINTS.map((endpoint) => ({
  endpoint,
  pattern: new RegExp(`^${endpoint.path.replace('{id}', '([^/]+)')}$`),
}));

export type RouteMatch = { kind: 'found'; endpoint: Endpoint; id: string } | { kind: 'wrong_method'; allowed: string[] } | { kind: 'no_route' };

/** `path` is relative to /v1. */
export function matchRoute(method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    if (route.endpoint.method !== method) {
      allowed.push(route.endpoint.method);
      continue;
    }
    let id = '';
    if (m[1] !== undefined) {
      try {
        id = decodeURIComponent(m[1]);
      } catch {
        return { kind: 'no_route' };
      }
    }
    return { kind: 'found', endpoint: route.endpoint, id };
  }
  return allowed.length > 0 ? { kind: 'wrong_method', allowed } : { kind: 'no_route' };
}
