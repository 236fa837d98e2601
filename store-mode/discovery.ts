// Store discovery on the LAN by DNS-SD (docs/store-mode.md, "Built: discovery"): this till advertises
// its feed's port as a `_pos-store._tcp` service whose TXT holds only the store tag, and browses for the
// same type. A service with this store's tag is offered as a candidate address; nothing more. Trust comes
// from the mutual TLS handshake the link makes with every candidate, exactly as with a configured peer,
// so a spoofed or replayed advertisement costs one refused handshake and grants nothing.
import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { isIPv4 } from 'node:net';
import type * as BonjourService from 'bonjour-service';
import type { Browser, Service, ServiceConfig } from 'bonjour-service';
import type { Logger } from '../common/log';
import { joinAddress } from './address';

export const SERVICE_TYPE = 'pos-store';

export interface DiscoveryOptions {
  /** The store tag (store-ca.ts): names the store, reveals nothing of its secret. */
  storeTag: string;
  /** The feed's address: advertised port, and the interface to advertise on unless it is the wildcard. */
  listen: { host: string; port: number };
  /** Another till of this store advertised this host:port. Called again for each fresh sighting. */
  onCandidate: (address: string) => void;
  logger: Logger;
}

export interface Discovery {
  stop(): Promise<void>;
}

/** What this till puts on the LAN: the service, its port, and a TXT with the store tag alone. */
export function advertisement(storeTag: string, port: number, instance: string): ServiceConfig & { txt: { store: string } } {
  // Instance and host names random per start: the till's name or the computer's would tell the LAN
  // who is where, for nothing (identity comes from the TLS handshake).
  const name = `pos-${instance}`;
  return { name, host: `${name}.local`, type: SERVICE_TYPE, port, txt: { store: storeTag }, disableIPv6: true };
}

/**
 * The address to try for a sighting of this store's service, or null when it is another store's or
 * this till's own. The packet's source is used, not the A records: bonjour-service lists every
 * interface of the advertiser there, most on networks this till does not share.
 */
export function candidateOf(service: Pick<Service, 'name' | 'port' | 'txt' | 'referer'>, storeTag: string, ownName: string): string | null {
  const txt = service.txt as Record<string, unknown> | undefined;
  if (txt?.['store'] !== storeTag || service.name === ownName || !service.referer) return null;
  return joinAddress({ host: service.referer.address, port: service.port });
}

/** How often the LAN is asked again, so a till forgotten after a partition is offered again when it answers. */
const REFRESH_MS = 30_000;

/**
 * Whether a feed listening on `host` is advertised at all: on an IPv4 address (multicast-dns's
 * interface is one) or 0.0.0.0, not on loopback, which no other device can reach (and where the
 * tests' tills of many stores share one machine).
 */
export function advertisable(host: string): boolean {
  return isIPv4(host) && !host.startsWith('127.');
}

export function startDiscovery(options: DiscoveryOptions): Discovery {
  const { logger, storeTag } = options;
  // Required here, not imported: a bundle hoists a package's import to its top, and every till would
  // load bonjour-service and multicast-dns; only a till with discovery on needs them.
  const { Bonjour } = createRequire(import.meta.url)('bonjour-service') as typeof BonjourService;
  const onInterface = options.listen.host !== '0.0.0.0';
  // Bound to the wildcard so Linux delivers the group's packets; joined and sent on IT's interface only.
  const reportError = (error: Error): void => logger.warn({ event: 'store-mode.discovery-error', err: error.message }, 'store discovery: multicast error');
  const bonjour = new Bonjour((onInterface ? { interface: options.listen.host, bind: '0.0.0.0' } : {}) as ConstructorParameters<typeof Bonjour>[0], reportError);
  // bonjour-service leaves multicast-dns's own 'error' (port 5353 taken, bind refused) unheard, and an
  // unheard 'error' event throws: the till would stop over a LAN nicety. Logged instead; the peer list still works.
  (bonjour as unknown as { server: { mdns: EventEmitter } }).server.mdns.on('error', reportError);
  const published = advertisement(storeTag, options.listen.port, randomBytes(6).toString('hex'));
  const service = bonjour.publish(published);
  let browser: Browser | null = null;
  const browse = (): void => {
    // A fresh browser each round: bonjour-service reports a service once per browser, and a till that
    // was forgotten after a partition must be offered again when it answers.
    browser?.stop();
    browser = bonjour.find({ type: SERVICE_TYPE }, (found) => {
      const address = candidateOf(found, storeTag, published.name);
      if (address !== null) options.onCandidate(address);
    });
  };
  browse();
  const refresh = setInterval(browse, REFRESH_MS);
  refresh.unref();
  logger.info({ event: 'store-mode.discovery-started', port: options.listen.port, interface: onInterface ? options.listen.host : 'default' }, 'store discovery on');

  return {
    stop: () =>
      new Promise<void>((resolve) => {
        clearInterval(refresh);
        browser?.stop();
        // Goodbye packets (TTL 0) first, so the other tills drop this one now rather than at expiry.
        service.stop(() => bonjour.destroy(() => resolve()));
      }),
  };
}
