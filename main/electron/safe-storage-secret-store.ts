// Credentials at rest in the Electron app: each value is encrypted with the OS keychain through
// safeStorage (DPAPI on Windows, Keychain on macOS, libsecret/kwallet on Linux) and the ciphertext is
// kept in sync/'s atomically replaced secrets file. Nothing is ever written in the clear.
import type { Logger } from '../../common/log';
import { FileSecretStore, type SecretStore } from '../../sync/secret-store';

/** The members of Electron's `safeStorage` used here. */
export interface SafeStorageCipher {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

export type SecretProtection = 'os-keychain' | 'obfuscated-only';

/**
 * On Linux without a keyring Electron falls back to 'basic_text', a key built into Chromium: the file is
 * then obfuscated, not protected. The terminal still works (a till must start), and diagnostics and the
 * log say so, so IT can install a keyring.
 */
export function secretProtection(platform: NodeJS.Platform, linuxBackend: string | undefined): SecretProtection {
  if (platform !== 'linux') return 'os-keychain';
  return linuxBackend === undefined || linuxBackend === 'basic_text' || linuxBackend === 'unknown' ? 'obfuscated-only' : 'os-keychain';
}

export class SafeStorageSecretStore implements SecretStore {
  readonly #file: FileSecretStore;

  constructor(
    filePath: string,
    private readonly cipher: SafeStorageCipher,
    private readonly logger: Logger,
  ) {
    this.#file = new FileSecretStore(filePath);
  }

  async get(name: string): Promise<string | null> {
    const stored = await this.#file.get(name);
    if (stored === null) return null;
    try {
      return this.cipher.decryptString(Buffer.from(stored, 'base64'));
    } catch (error) {
      // A file copied from another machine or user, or a reset keychain: the secret is gone. Saying
      // "missing" sends the cashier to re-enter it instead of crashing sync on every attempt.
      this.logger.error({ secretName: name, err: error }, 'stored secret cannot be decrypted on this machine; it must be entered again');
      return null;
    }
  }

  async setMany(values: Record<string, string | null>): Promise<void> {
    if (!this.cipher.isEncryptionAvailable()) {
      throw new Error('The OS keychain is not available, so credentials cannot be stored safely. Nothing was saved.');
    }
    const encrypted: Record<string, string | null> = {};
    for (const [name, value] of Object.entries(values)) {
      encrypted[name] = value === null ? null : this.cipher.encryptString(value).toString('base64');
    }
    await this.#file.setMany(encrypted);
  }
}
