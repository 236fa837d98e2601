// Everything store mode refuses, against real processes and real TLS: no secret, a wrong secret, a
// forged certificate, a second till under a pinned name, malformed requests, and replayed, truncated
// or tampered pages. Each is counted, changes nothing, and no log line holds the secret or a key.
import Database from 'better-sqlite3';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../common/log';
import { startFeedPuller } from '../../store-mode/feed-client';
import type { FeedCursor, FeedPage } from '../../store-mode/feed-sink';
import { encodePage, type FeedEntry } from '../../store-mode/frames';
import { createTillIdentity, type TlsMaterial } from '../../store-mode/identity';
import { pinsInMemory } from '../../store-mode/till-pins';
import { forgeTillCertificate } from './fixtures/forge';
import { keyFile } from './fixtures/key-file';
import { startTill, tempDataDir, type TillProcess } from './till-process';

const SECRET = Buffer.alloc(32, 0x2b).toString('base64');
const OTHER_SECRET = Buffer.alloc(32, 0x2c).toString('base64');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function till(config: Parameters<typeof startTill>[0], secret = SECRET): Promise<TillProcess> {
  const process = await startTill({ deadlineMs: 50_000, ...config }, secret);
  cleanups.push(() => process.kill());
  return process;
}

async function status(process: TillProcess): Promise<{ refusals: Record<string, number>; puller: Record<string, unknown> | null }> {
  process.send({ type: 'status' });
  return (await process.next('status')) as never;
}

/** One GET to a feed with the given TLS material (or none); the status, or the error's code. */
async function get(port: number, path: string, tls: Partial<TlsMaterial> & { rejectUnauthorized?: boolean }, method = 'GET'): Promise<number | string> {
  const agent = new Agent({ connect: { ...tls, checkServerIdentity: () => undefined } });
  try {
    const response = await request(`https://127.0.0.1:${port}${path}`, { dispatcher: agent, method: method as 'GET' });
    await response.body.dump();
    return response.statusCode;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return cause?.code ?? (error as { code?: string }).code ?? String(error);
  } finally {
    await agent.close();
  }
}

function logCapture(): { logger: ReturnType<typeof createLogger>; text: () => string } {
  let text = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { logger: createLogger({ destination }), text: () => text };
}

const logCount = (dataDir: string, table: string) => {
  const db = new Database(join(dataDir, 'till.db'), { readonly: true });
  try {
    return db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;
  } finally {
    db.close();
  }
};

describe('store-mode refusals', () => {
  it('refuses no secret, a wrong secret, a forged till id, a pinned name and malformed requests; counts each; changes nothing; logs no secret', async () => {
    const a = await till({ tillName: 'Bar' });
    a.send({ type: 'append', count: 20, bytes: 100, batch: 20 });
    await a.next('appended');
    const b = await till({ tillName: 'Patio', peer: { address: `127.0.0.1:${a.port}`, origin: a.tillId } });
    await b.waitFor('applied', (m) => m.seq === 20);
    const feedPath = `/feed/${a.tillId}?after=0`;

    // A till with no secret does not start: it says what is missing.
    await expect(startTill({ tillName: 'Nowhere', deadlineMs: 20_000 }, undefined)).rejects.toThrow(/there is no store secret: set POS_STORE_SECRET/);

    // No client certificate: the TLS handshake fails.
    const storeCa = { ca: (await createTillIdentity({ storeSecret: SECRET, tillName: 'Probe', keyStore: keyFile(join(tempDataDir(), 'k.json')) })).tls.ca };
    expect(await get(a.port, feedPath, storeCa)).not.toBe(200);

    // A wrong secret: a till of another store cannot pull, and A's feed refuses its certificate.
    const c = await till({ tillName: 'Stranger', peer: { address: `127.0.0.1:${a.port}`, origin: a.tillId } }, OTHER_SECRET);
    const stranger = await forgeTillCertificate(OTHER_SECRET, { tillName: 'Stranger' });
    expect(await get(a.port, feedPath, { ...stranger, rejectUnauthorized: false })).not.toBe(200);

    // An insider with the secret but not B's key: claiming B's id is refused, and so is a second "Patio".
    const claimsB = await forgeTillCertificate(SECRET, { tillId: b.tillId, tillName: 'Patio' });
    expect(await get(a.port, feedPath, claimsB)).toBe(403);
    const secondPatio = await forgeTillCertificate(SECRET, { tillName: 'Patio' });
    expect(await get(a.port, feedPath, secondPatio)).toBe(403);

    // An honest new till is served; its malformed requests are not.
    const kitchen = await forgeTillCertificate(SECRET, { tillName: 'Kitchen' });
    expect(await get(a.port, feedPath, kitchen)).toBe(200);
    const malformed = [`/feed/${a.tillId}`, `/feed/${a.tillId}?after=-1`, `/feed/${a.tillId}?after=1&limit=0`, `/feed/${a.tillId}?after=x`, `/feed/${a.tillId}?after=1&drop=table`, '/feed/not-a-till?after=0', '/admin'];
    for (const path of malformed) expect(await get(a.port, path, kitchen), path).toBe(400);
    expect(await get(a.port, feedPath, kitchen, 'POST')).toBe(400);

    // C distrusts A's certificate and hangs up: C counts it, A sees only a failed handshake.
    await expect.poll(async () => ((await status(c)).puller?.refusals as Record<string, number>).untrustedCertificate, { timeout: 10_000 }).toBeGreaterThan(0);
    await expect.poll(async () => (await status(a)).refusals, { timeout: 10_000 }).toEqual({
      noClientCertificate: 1,
      untrustedCertificate: 1,
      handshakeFailed: expect.any(Number),
      malformedCertificate: 0,
      tillIdNotKeyHash: 1,
      namePinnedToAnotherTill: 1,
      malformedRequest: malformed.length + 1,
      rejectedPage: 0,
    });
    expect((await status(a)).refusals.handshakeFailed).toBeGreaterThan(0);
    expect((await status(c)).puller).toMatchObject({ entriesApplied: 0, cursor: null });

    // Nothing changed: A's log, B's replica and B's pull are as they were.
    expect(logCount(a.dataDir, 'store_log')).toBe(20);
    expect(logCount(b.dataDir, 'replica_log')).toBe(20);
    expect(logCount(c.dataDir, 'replica_log')).toBe(0);
    a.send({ type: 'append', count: 1, bytes: 100, batch: 1 });
    await b.waitFor('applied', (m) => m.seq === 21);

    // The refusals were logged, and no line anywhere holds the secret or a private key.
    const logs = [a, b, c].map((t) => t.output()).join('\n');
    expect(logs).toMatch(/"reason":"tillIdNotKeyHash"/);
    expect(logs).toMatch(/"reason":"noClientCertificate"/);
    const secretBytes = Buffer.from(SECRET, 'base64');
    for (const secretForm of [SECRET, OTHER_SECRET, secretBytes.toString('hex'), secretBytes.toString('base64url'), 'PRIVATE KEY']) expect(logs).not.toContain(secretForm);
    for (const t of [a, b, c]) {
      const keyPem = (JSON.parse(readFileSync(join(t.dataDir, 'till-key.json'), 'utf8')) as { privateKeyPem: string }).privateKeyPem;
      const keyBody = keyPem.split('\n').filter((line) => line && !line.startsWith('-----')).join('');
      expect(logs.replaceAll('\n', '')).not.toContain(keyBody.slice(0, 40));
    }
  });

  it("rejects a peer's replayed, truncated or tampered pages whole, and a peer certificate with a forged id", async () => {
    const capture = logCapture();
    const identity = await createTillIdentity({ storeSecret: SECRET, tillName: 'Bar', keyStore: keyFile(join(tempDataDir(), 'k.json')) });
    const peer = await createTillIdentity({ storeSecret: SECRET, tillName: 'Patio', keyStore: keyFile(join(tempDataDir(), 'k.json')) });
    const entry = (seq: number): FeedEntry => ({ seq, opId: `op_${seq}`, body: Buffer.from(`entry ${seq}`) });
    const page = (entries: FeedEntry[]) => Buffer.concat(encodePage(entries).chunks);
    const tampered = page([entry(6)]);
    tampered[8 + 9 + 1] = 0x0a; // a newline inside the op id
    const truncated = page([entry(6), entry(7)]);
    truncated.writeUInt32BE(3, 4); // claims a third entry that never comes
    // What a hostile (or broken) peer answers, in turn: a replay of the cursor, a truncated page, a
    // tampered one; then the honest page, then nothing new (a long poll that ends empty).
    const answers = [page([entry(5), entry(6)]), truncated, tampered, page([entry(6), entry(7)])];
    let served = 0;
    const server = https.createServer({ ...peer.tls, requestCert: true, rejectUnauthorized: true, minVersion: 'TLSv1.3' }, (_req, res) => {
      const body = answers[served++] ?? page([]);
      const answer = () => res.writeHead(200, { 'x-log-id': 'log1', 'x-log-max-seq': '7', 'content-length': body.length }).end(body);
      if (served > answers.length) setTimeout(answer, 100);
      else answer();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));

    const applied: FeedPage[] = [];
    let cursor: FeedCursor = { logId: 'log1', seq: 5 };
    const puller = startFeedPuller({
      identity,
      pins: pinsInMemory(),
      peer: `127.0.0.1:${(server.address() as AddressInfo).port}`,
      origin: peer.tillId,
      logger: capture.logger,
      longPollMs: 1_000,
      backoff: { firstMs: 10, maxMs: 50 },
      sink: {
        cursor: () => cursor,
        apply: (_origin, received) => {
          applied.push(received);
          cursor = { logId: received.logId, seq: (received.entries.at(-1) as FeedEntry).seq };
          return cursor;
        },
        logReplaced: () => {
          throw new Error('not replaced');
        },
      },
    });
    cleanups.push(() => puller.stop());
    await expect.poll(() => applied.length, { timeout: 10_000 }).toBe(1);
    expect(applied[0]?.entries.map((e) => e.seq)).toEqual([6, 7]);
    expect(puller.status().refusals.rejectedPage).toBe(3);
    expect(capture.text()).toMatch(/seq 5 is not after 5/);
    expect(capture.text()).toMatch(/truncated: 2 of 3/);

    // A peer whose certificate claims another till's id is refused before any request is sent.
    const forged = await forgeTillCertificate(SECRET, { tillId: peer.tillId, tillName: 'Patio' });
    let requests = 0;
    const impostor = https.createServer({ ...forged, requestCert: true, rejectUnauthorized: true, minVersion: 'TLSv1.3' }, (_req, res) => {
      requests++;
      res.end();
    });
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => impostor.close(resolve)));
    const refused = startFeedPuller({
      identity,
      pins: pinsInMemory(),
      peer: `127.0.0.1:${(impostor.address() as AddressInfo).port}`,
      origin: peer.tillId,
      logger: capture.logger,
      backoff: { firstMs: 10, maxMs: 50 },
      sink: { cursor: () => null, apply: () => Promise.reject(new Error('nothing may be applied')), logReplaced: () => Promise.reject(new Error('no')) },
    });
    cleanups.push(() => refused.stop());
    await expect.poll(() => refused.status().refusals.tillIdNotKeyHash, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(requests).toBe(0);
    expect(refused.status().entriesApplied).toBe(0);
    expect(capture.text()).not.toContain(SECRET);
    expect(capture.text()).not.toContain('PRIVATE KEY');
  });
});
