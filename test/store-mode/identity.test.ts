// The store's trust from its secret: every till derives the same CA, each till has its own key and id,
// and a short or malformed secret is refused without being repeated.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CERTIFICATE_PROFILE, createTillIdentity, type KeptCertificates, type TillCertificateStore } from '../../store-mode/identity';
import { checkPeerCertificate } from '../../store-mode/peer-certificate';
import { parseStoreSecret } from '../../store-mode/secret';
import { pinsInMemory } from '../../store-mode/till-pins';
import { keyFile } from './fixtures/key-file';
import { forgeTillCertificate } from './fixtures/forge';

const SECRET = Buffer.alloc(32, 0x5c).toString('base64');
const tempKeyFile = () => join(mkdtempSync(join(tmpdir(), 'pos-till-key-')), 'till-key.json');
const der = (pem: string) => new X509Certificate(pem).raw;

describe('store secret', () => {
  it('takes hex, base64 and base64url of at least 128 bits', () => {
    expect(parseStoreSecret('00112233445566778899aabbccddeeff').length).toBe(16);
    expect(parseStoreSecret(Buffer.alloc(32, 0xfb).toString('base64')).length).toBe(32);
    expect(parseStoreSecret(Buffer.alloc(32, 0xfb).toString('base64url')).length).toBe(32);
  });

  it.each([
    ['00112233445566778899aabbccddee', /holds 120 bits, at least 128/],
    ['c2hvcnQ=', /holds 40 bits, at least 128/],
    ['not a secret at all!', /must be hex or base64/],
    ['', /there is no store secret/],
  ])('refuses %j, naming the rule and never the secret', (text, message) => {
    let error: unknown;
    try {
      parseStoreSecret(text);
    } catch (caught) {
      error = caught;
    }
    expect(String(error)).toMatch(message);
    if (text.length > 4) expect(String(error)).not.toContain(text);
  });
});

describe('till identity', () => {
  it('derives one store CA on every till: same key and name, so each validates the others', async () => {
    const bar = await createTillIdentity({ storeSecret: SECRET, tillName: 'Bar', keyStore: keyFile(tempKeyFile()) });
    const patio = await createTillIdentity({ storeSecret: SECRET, tillName: 'Patio', keyStore: keyFile(tempKeyFile()) });
    const barCa = new X509Certificate(bar.tls.ca);
    const patioCa = new X509Certificate(patio.tls.ca);
    expect(barCa.subject).toBe(patioCa.subject);
    expect(barCa.serialNumber).toBe(patioCa.serialNumber);
    expect(barCa.publicKey.export({ type: 'spki', format: 'der' })).toEqual(patioCa.publicKey.export({ type: 'spki', format: 'der' }));
    expect(barCa.ca).toBe(true);
    // Each till's certificate is signed by the key both derived.
    expect(new X509Certificate(patio.tls.cert).verify(barCa.publicKey)).toBe(true);
    expect(new X509Certificate(bar.tls.cert).verify(patioCa.publicKey)).toBe(true);
    expect(new X509Certificate(bar.tls.cert).checkIssued(patioCa)).toBe(true);
    expect(bar.storeTag).toBe(patio.storeTag);
  });

  it('names a till by the SHA-256 of its own public key, kept across restarts', async () => {
    const file = tempKeyFile();
    const first = await createTillIdentity({ storeSecret: SECRET, tillName: 'Bar', keyStore: keyFile(file) });
    const again = await createTillIdentity({ storeSecret: SECRET, tillName: 'Bar', keyStore: keyFile(file) });
    const spki = createPublicKey(first.tls.key).export({ type: 'spki', format: 'der' });
    expect(first.tillId).toBe(createHash('sha256').update(spki).digest('hex'));
    expect(again.tillId).toBe(first.tillId);
    const certificate = new X509Certificate(first.tls.cert);
    expect(certificate.subject).toBe(`CN=${first.tillId}\nOU=Bar`);
    expect(certificate.checkPrivateKey(createPrivateKey(first.tls.key))).toBe(true);
    const other = await createTillIdentity({ storeSecret: SECRET, tillName: 'Bar', keyStore: keyFile(tempKeyFile()) });
    expect(other.tillId).not.toBe(first.tillId);
  });

  it('derives another CA from another secret', async () => {
    const ours = await createTillIdentity({ storeSecret: SECRET, tillName: 'Bar', keyStore: keyFile(tempKeyFile()) });
    const theirs = await createTillIdentity({ storeSecret: Buffer.alloc(32, 0x5d).toString('base64'), tillName: 'Bar', keyStore: keyFile(tempKeyFile()) });
    expect(new X509Certificate(theirs.tls.cert).verify(new X509Certificate(ours.tls.ca).publicKey)).toBe(false);
    expect(theirs.storeTag).not.toBe(ours.storeTag);
  });

  it('refuses a short secret, a bad till name and a stored key that is not P-256', async () => {
    await expect(createTillIdentity({ storeSecret: 'abcd', tillName: 'Bar', keyStore: keyFile(tempKeyFile()) })).rejects.toThrow(/too short/);
    await expect(createTillIdentity({ storeSecret: SECRET, tillName: 'Bar\nOU=Owner', keyStore: keyFile(tempKeyFile()) })).rejects.toThrow(/till name must be/);
    const file = tempKeyFile();
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    writeFileSync(file, JSON.stringify({ privateKeyPem: rsa }));
    await expect(createTillIdentity({ storeSecret: SECRET, tillName: 'Bar', keyStore: keyFile(file) })).rejects.toThrow(/not a P-256 key/);
    writeFileSync(file, JSON.stringify({ privateKeyPem: 'garbage' }));
    await expect(createTillIdentity({ storeSecret: SECRET, tillName: 'Bar', keyStore: keyFile(file) })).rejects.toThrow(/cannot be read/);
  });
});

describe('kept certificates', () => {
  /** A certificate store in memory that counts what it was given. */
  function keptInMemory(initial: KeptCertificates | null = null): TillCertificateStore & { kept: KeptCertificates | null; saves: number } {
    const store = {
      kept: initial,
      saves: 0,
      load: async () => store.kept,
      save: async (certificates: KeptCertificates) => {
        store.kept = certificates;
        store.saves++;
      },
    };
    return store;
  }
  const OTHER_SECRET = Buffer.alloc(32, 0x5d).toString('base64');
  function withLastByteFlipped(pem: string): string {
    const bytes = Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
    bytes[bytes.length - 1]! ^= 0x01;
    return `-----BEGIN CERTIFICATE-----\n${bytes.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE-----\n`;
  }

  it('are minted and kept at the first start, then reused as they are while secret, key and name are the same', async () => {
    const file = tempKeyFile();
    const certificates = keptInMemory();
    const first = await createTillIdentity({ storeSecret: SECRET, tillName: 'Bar', keyStore: keyFile(file), certificateStore: certificates });
    expect(certificates.saves).toBe(1);
    expect(certificates.kept).toEqual({ profile: CERTIFICATE_PROFILE, ca: first.tls.ca, cert: first.tls.cert });
    const again = await createTillIdentity({ storeSecret: SECRET, tillName: 'Bar', keyStore: keyFile(file), certificateStore: certificates });
    expect(certificates.saves).toBe(1);
    expect(again).toEqual(first);
    // Reused or minted, the identity is the same in every way a peer checks.
    expect(checkPeerCertificate(der(again.tls.cert), pinsInMemory())).toEqual({ ok: true, tillId: first.tillId, tillName: 'Bar' });
  });

  it('are only a saving: a store that cannot keep them costs a minting at each start, never the start', async () => {
    const file = tempKeyFile();
    const failing: TillCertificateStore = { load: async () => null, save: async () => Promise.reject(new Error('the secret store is read-only')) };
    const first = await createTillIdentity({ storeSecret: SECRET, tillName: 'Bar', keyStore: keyFile(file), certificateStore: failing });
    const again = await createTillIdentity({ storeSecret: SECRET, tillName: 'Bar', keyStore: keyFile(file), certificateStore: failing });
    expect(again.tillId).toBe(first.tillId);
    expect(again.tls.cert).not.toBe(first.tls.cert);
    expect(new X509Certificate(again.tls.cert).verify(new X509Certificate(first.tls.ca).publicKey)).toBe(true);
  });

  it.each<[string, (kept: KeptCertificates, other: { cert: string; ca: string }) => Partial<{ kept: KeptCertificates; tillName: string; secret: string }>]>([
    ['the till renamed', () => ({ tillName: 'Patio' })],
    ['another store secret', () => ({ secret: OTHER_SECRET })],
    ["another till's certificate, signed by the same store", (kept, other) => ({ kept: { ...kept, cert: other.cert } })],
    ["another store's CA", (kept, other) => ({ kept: { ...kept, ca: other.ca } })],
    ['an older profile', (kept) => ({ kept: { ...kept, profile: CERTIFICATE_PROFILE - 1 } })],
    ['a certificate whose signature was altered', (kept) => ({ kept: { ...kept, cert: withLastByteFlipped(kept.cert) } })],
    ['text that is no certificate', (kept) => ({ kept: { ...kept, ca: 'not a certificate' } })],
  ])('are minted again for %s, and the new ones kept', async (_case, change) => {
    const file = tempKeyFile();
    const certificates = keptInMemory();
    await createTillIdentity({ storeSecret: SECRET, tillName: 'Bar', keyStore: keyFile(file), certificateStore: certificates });
    const otherTill = await createTillIdentity({ storeSecret: SECRET, tillName: 'Patio', keyStore: keyFile(tempKeyFile()) });
    const otherStore = await createTillIdentity({ storeSecret: OTHER_SECRET, tillName: 'Bar', keyStore: keyFile(tempKeyFile()) });
    const changed = change(certificates.kept!, { cert: otherTill.tls.cert, ca: otherStore.tls.ca });
    if (changed.kept) certificates.kept = changed.kept;
    const stale = certificates.kept!;
    const tillName = changed.tillName ?? 'Bar';
    const secret = changed.secret ?? SECRET;

    const identity = await createTillIdentity({ storeSecret: secret, tillName, keyStore: keyFile(file), certificateStore: certificates });
    expect(certificates.saves).toBe(2);
    expect(certificates.kept).toEqual({ profile: CERTIFICATE_PROFILE, ca: identity.tls.ca, cert: identity.tls.cert });
    expect(identity.tls.cert).not.toBe(stale.cert);
    const ca = new X509Certificate(identity.tls.ca);
    const cert = new X509Certificate(identity.tls.cert);
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.subject).toBe(`CN=${identity.tillId}\nOU=${tillName}`);
    expect(cert.checkPrivateKey(createPrivateKey(identity.tls.key))).toBe(true);
    const fresh = await createTillIdentity({ storeSecret: secret, tillName: 'Probe', keyStore: keyFile(tempKeyFile()) });
    expect(ca.publicKey.export({ type: 'spki', format: 'der' })).toEqual(new X509Certificate(fresh.tls.ca).publicKey.export({ type: 'spki', format: 'der' }));
  });
});

describe('peer certificate check', () => {
  it('accepts an honest till, pins its name, and refuses a forged id or a second till with a pinned name', async () => {
    const pins = pinsInMemory();
    const bar = await createTillIdentity({ storeSecret: SECRET, tillName: 'Bar', keyStore: keyFile(tempKeyFile()) });
    expect(checkPeerCertificate(der(bar.tls.cert), pins)).toEqual({ ok: true, tillId: bar.tillId, tillName: 'Bar' });
    expect(checkPeerCertificate(der(bar.tls.cert), pins).ok).toBe(true);

    const claimsBar = await forgeTillCertificate(SECRET, { tillId: bar.tillId, tillName: 'Bar' });
    expect(checkPeerCertificate(der(claimsBar.cert), pins)).toEqual({ ok: false, reason: 'tillIdNotKeyHash', claimedTillId: bar.tillId });
    const secondBar = await forgeTillCertificate(SECRET, { tillName: 'bar' });
    expect(checkPeerCertificate(der(secondBar.cert), pins)).toEqual({ ok: false, reason: 'namePinnedToAnotherTill', claimedTillId: secondBar.tillId });
    const badName = await forgeTillCertificate(SECRET, { tillName: '-' });
    expect(checkPeerCertificate(der(badName.cert), pins)).toMatchObject({ ok: false, reason: 'malformedCertificate' });
    expect(checkPeerCertificate(Buffer.from('not a certificate'), pins)).toEqual({ ok: false, reason: 'malformedCertificate', claimedTillId: null });
  });
});
