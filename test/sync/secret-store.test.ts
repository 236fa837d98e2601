import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSecretStore } from '../../sync/secret-store';

function tempFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'secrets-')), 'nested', 'secrets.json');
}

describe('FileSecretStore', () => {
  it('keeps secrets in an owner-only file and replaces several at once', async () => {
    const file = tempFile();
    const store = new FileSecretStore(file);
    expect(await store.get('api_key')).toBeNull();
    await store.setMany({ 'oauth.access_token': 'at_live_1', 'oauth.refresh_token': 'rt_live_1' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await store.setMany({ 'oauth.access_token': 'at_live_2', 'oauth.refresh_token': null });
    const reread = new FileSecretStore(file);
    expect(await reread.get('oauth.access_token')).toBe('at_live_2');
    expect(await reread.get('oauth.refresh_token')).toBeNull();
    // No temporary files are left behind by the atomic replace.
    expect(readdirSync(join(file, '..'))).toEqual(['secrets.json']);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ 'oauth.access_token': 'at_live_2' });
  });

  it('refuses a damaged file instead of silently starting empty', async () => {
    const file = tempFile();
    await new FileSecretStore(file).setMany({ a: 'b' });
    writeFileSync(file, '{"a": 1}');
    await expect(new FileSecretStore(file).get('a')).rejects.toThrow(/not a JSON object of strings/);
    writeFileSync(file, 'not json');
    await expect(new FileSecretStore(file).get('a')).rejects.toThrow(/not a JSON object of strings/);
  });
});
