// Store discovery's rules without a network: what a till advertises (the store tag, nothing of the
// secret, no name), which sightings become candidates, one follower per till however it was found, and
// the --store-discovery switch. The multicast itself is proved in discovery-netns.test.ts.
import { Service } from 'bonjour-service';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../main/config';
import { settleClaim } from '../../main/core/store-link';
import { advertisable, advertisement, candidateOf } from '../../store-mode/discovery';
import { parseStoreSecret } from '../../store-mode/secret';
import { deriveStoreCa } from '../../store-mode/store-ca';
import { STORE_SECRET } from './fixtures/store-tills';

const isBuffer = (value: unknown): value is { data: number[] } => typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'Buffer';

const OTHER_SECRET = Buffer.alloc(32, 0x17).toString('base64');

describe('store discovery: the advertisement', () => {
  it('carries the store tag alone: nothing of the secret, no till name, no computer name', async () => {
    const secret = parseStoreSecret(STORE_SECRET);
    const { storeTag } = await deriveStoreCa(secret);
    const published = advertisement(storeTag, 7420, 'a1b2c3d4e5f6');
    expect(published.txt).toEqual({ store: storeTag });
    // Every record bonjour-service would send for it, as text (the TXT strings are buffers).
    const sent = new Service(published, () => undefined, () => undefined).records();
    const records = JSON.stringify(sent, (_key, value: unknown) => (isBuffer(value) ? Buffer.from(value.data).toString('utf8') : value));
    expect(sent.filter((record) => record.type === 'TXT').map((record) => (record.data as Buffer[]).map(String))).toEqual([[`store=${storeTag}`]]);
    for (const leak of [Buffer.from(secret).toString('hex'), Buffer.from(secret).toString('base64'), STORE_SECRET, 'Bar', hostname()]) expect(records).not.toContain(leak);
    // Another store's tag differs, and the tag is no part of the secret's encodings.
    expect((await deriveStoreCa(parseStoreSecret(OTHER_SECRET))).storeTag).not.toBe(storeTag);
  });

  it('is made on an IPv4 address or every interface, not on loopback, which no other device reaches', () => {
    expect(advertisable('127.0.0.1')).toBe(false);
    expect(advertisable('::1')).toBe(false);
    expect(advertisable('localhost')).toBe(false);
    expect(advertisable('fd00::20')).toBe(false);
    expect(advertisable('bar-till.local')).toBe(false);
    expect(advertisable('192.168.1.20')).toBe(true);
    expect(advertisable('0.0.0.0')).toBe(true);
  });
});

describe('store discovery: sightings', () => {
  const sighting = (store: string | undefined, name = 'pos-0000aaaa0000') => ({ name, port: 7420, txt: store === undefined ? {} : { store }, referer: { address: '10.0.0.7', family: 'IPv4' as const, port: 5353, size: 200 } });

  it("offers this store's tills by the address their advertisement came from", () => {
    expect(candidateOf(sighting('00ff00ff00ff00ff'), '00ff00ff00ff00ff', 'pos-own')).toBe('10.0.0.7:7420');
  });

  it("ignores another store's tag, a service without one, and this till's own advertisement", () => {
    expect(candidateOf(sighting('1111111111111111'), '00ff00ff00ff00ff', 'pos-own')).toBeNull();
    expect(candidateOf(sighting(undefined), '00ff00ff00ff00ff', 'pos-own')).toBeNull();
    expect(candidateOf(sighting('00ff00ff00ff00ff', 'pos-own'), '00ff00ff00ff00ff', 'pos-own')).toBeNull();
  });
});

describe('store discovery: one follower per till', () => {
  const own = 'a'.repeat(64);
  const bar = 'b'.repeat(64);
  const patio = 'c'.repeat(64);

  it('lets a till found once be pulled', () => {
    const found = { source: 'discovered' as const, tillId: null };
    const configured = { source: 'configured' as const, tillId: patio };
    expect(settleClaim(found, bar, [configured, found], own)).toEqual({ problem: null, drop: [] });
  });

  it('drops a discovered address of a till already followed, configured or discovered', () => {
    const configured = { source: 'configured' as const, tillId: bar };
    const discoveredFirst = { source: 'discovered' as const, tillId: patio };
    const again = { source: 'discovered' as const, tillId: null };
    expect(settleClaim(again, bar, [configured, again], own)).toEqual({ problem: 'this till is already followed at another address', drop: [again] });
    expect(settleClaim(again, patio, [discoveredFirst, again], own)).toEqual({ problem: 'this till is already followed at another address', drop: [again] });
  });

  it("gives a till to IT's address when it was discovered first", () => {
    const discovered = { source: 'discovered' as const, tillId: bar };
    const configured = { source: 'configured' as const, tillId: null };
    expect(settleClaim(configured, bar, [discovered, configured], own)).toEqual({ problem: null, drop: [discovered] });
  });

  it('never follows this till itself: a discovered address goes, a configured one says why', () => {
    const discovered = { source: 'discovered' as const, tillId: null };
    const configured = { source: 'configured' as const, tillId: null };
    expect(settleClaim(discovered, own, [discovered], own)).toEqual({ problem: 'this address is this till itself', drop: [discovered] });
    expect(settleClaim(configured, own, [configured], own)).toEqual({ problem: 'this address is this till itself', drop: [] });
  });
});

describe('--store-discovery', () => {
  const load = (argv: string[], env: Record<string, string> = {}) => loadConfig({ argv, env, platform: 'linux', home: '/h', machineConfigFile: '/nonexistent/m.json', userConfigFile: '/nonexistent/u.json' }).config;

  it('is on by default, and turned off by flag or environment', () => {
    expect(load([]).storeMode.discovery).toBe('on');
    expect(load(['--store-discovery', 'off']).storeMode.discovery).toBe('off');
    expect(load([], { POS_STORE_DISCOVERY: 'off' }).storeMode.discovery).toBe('off');
  });

  it('stops the app on a bad value, naming the flag', () => {
    expect(() => load(['--store-discovery', 'sometimes'])).toThrow(/command line: --store-discovery: must be on or off/);
    expect(() => load([], { POS_STORE_DISCOVERY: 'maybe' })).toThrow(/POS_STORE_DISCOVERY: must be on or off/);
  });
});
