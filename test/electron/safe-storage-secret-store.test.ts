// The Electron secret store over a real file. safeStorage (the OS keychain) cannot run here; it is
// replaced by a real AES-256-GCM cipher with a per-test key, the same contract: bytes in, opaque bytes out,
// and decryption fails under another key.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger, createRotatingLogFile, silentLogger } from '../../common/log';
import { SafeStorageSecretStore, secretProtection, type SafeStorageCipher } from '../../main/electron/safe-storage-secret-store';

class KeychainCipher implements SafeStorageCipher {
  constructor(
    private readonly key = randomBytes(32),
    private readonly available = true,
  ) {}
  isEncryptionAvailable(): boolean {
    return this.available;
  }
  encryptString(plainText: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }
  decryptString(encrypted: Buffer): string {
    const decipher = createDecipheriv('aes-256-gcm', this.key, encrypted.subarray(0, 12));
    decipher.setAuthTag(encrypted.subarray(12, 28));
    return Buffer.concat([decipher.update(encrypted.subarray(28)), decipher.final()]).toString('utf8');
  }
}

const dir = mkdtempSync(join(tmpdir(), 'pos-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const secretsFile = () => join(dir, `secrets-${n++}.json`);

const API_KEY = 'sk_live_51HxYzAbCdEfGhIjKlMnOpQr';
const REFRESH = 'rt_live_cmVmcmVzaHJlZnJlc2g5ODc2';

describe('safeStorage secret store', () => {
  it('round-trips secrets and never writes them in the clear', async () => {
    const file = secretsFile();
    const store = new SafeStorageSecretStore(file, new KeychainCipher(), silentLogger);
    await store.setMany({ api_key: API_KEY, refresh_token: REFRESH });
    expect(await store.get('api_key')).toBe(API_KEY);
    expect(await store.get('refresh_token')).toBe(REFRESH);
    expect(await store.get('absent')).toBeNull();
    const onDisk = readFileSync(file, 'utf8');
    expect(onDisk).not.toContain(API_KEY);
    expect(onDisk).not.toContain('sk_live_');
    expect(onDisk).not.toContain(REFRESH);
    expect(Object.keys(JSON.parse(onDisk) as object).sort()).toEqual(['api_key', 'refresh_token']);
  });

  it('replaces and deletes in one step', async () => {
    const store = new SafeStorageSecretStore(secretsFile(), new KeychainCipher(), silentLogger);
    await store.setMany({ access_token: 'at_live_old', refresh_token: 'rt_live_old' });
    await store.setMany({ access_token: 'at_live_new', refresh_token: null });
    expect(await store.get('access_token')).toBe('at_live_new');
    expect(await store.get('refresh_token')).toBeNull();
  });

  it('refuses to store anything when the keychain is unavailable, leaving the file as it was', async () => {
    const file = secretsFile();
    const key = randomBytes(32);
    await new SafeStorageSecretStore(file, new KeychainCipher(key), silentLogger).setMany({ api_key: API_KEY });
    const before = readFileSync(file, 'utf8');
    const locked = new SafeStorageSecretStore(file, new KeychainCipher(key, false), silentLogger);
    await expect(locked.setMany({ api_key: 'sk_live_replacement' })).rejects.toThrow(/keychain is not available.*Nothing was saved/);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('treats a secret encrypted under another key as missing, and logs which one without its value', async () => {
    const file = secretsFile();
    await new SafeStorageSecretStore(file, new KeychainCipher(), silentLogger).setMany({ api_key: API_KEY });
    const logDir = join(dir, `logs-${n++}`);
    const logFile = createRotatingLogFile({ directory: logDir });
    const other = new SafeStorageSecretStore(file, new KeychainCipher(), createLogger({ destination: logFile.destination }));
    expect(await other.get('api_key')).toBeNull();
    await logFile.close();
    const log = readFileSync(join(logDir, 'pos.log'), 'utf8');
    expect(log).toContain('"secretName":"api_key"');
    expect(log).toContain('must be entered again');
    expect(log).not.toContain(API_KEY);
  });

  it('refuses a secrets file that is not what it wrote', async () => {
    const file = secretsFile();
    writeFileSync(file, '["not", "a", "map"]');
    await expect(new SafeStorageSecretStore(file, new KeychainCipher(), silentLogger).get('api_key')).rejects.toThrow(/not a JSON object of strings/);
  });

  it('knows when Linux has no keyring to protect the secrets', () => {
    expect(secretProtection('win32', undefined)).toBe('os-keychain');
    expect(secretProtection('darwin', undefined)).toBe('os-keychain');
    expect(secretProtection('linux', 'gnome_libsecret')).toBe('os-keychain');
    expect(secretProtection('linux', 'kwallet6')).toBe('os-keychain');
    expect(secretProtection('linux', 'basic_text')).toBe('obfuscated-only');
    expect(secretProtection('linux', 'unknown')).toBe('obfuscated-only');
  });
});
