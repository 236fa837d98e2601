// The app:// handler over a real bundle folder on disk, called with real fetch Requests as Electron's
// protocol.handle does: it serves the bundle and nothing outside it.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAppProtocolHandler, resolveBundlePath } from '../../main/electron/app-protocol';
import { CONTENT_SECURITY_POLICY } from '../../main/electron/content-security-policy';

const base = mkdtempSync(join(tmpdir(), 'pos-protocol-'));
const bundle = join(base, 'renderer');
mkdirSync(join(bundle, 'assets'), { recursive: true });
writeFileSync(join(bundle, 'index.html'), '<!doctype html><script type="module" src="/assets/app.js"></script>');
writeFileSync(join(bundle, 'assets', 'app.js'), 'console.log("till")');
writeFileSync(join(bundle, 'assets', 'app.css'), 'body{}');
writeFileSync(join(base, 'secrets.safe-storage.json'), '{"api_key":"x"}');
symlinkSync(join(base, 'secrets.safe-storage.json'), join(bundle, 'assets', 'link.json'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const handle = createAppProtocolHandler(bundle);
const get = (url: string, method = 'GET') => handle(new Request(url, { method }));

describe('app:// protocol', () => {
  it('serves the entry page and assets with their type and the security headers', async () => {
    for (const url of ['app://terminal/', 'app://terminal/index.html']) {
      const response = await get(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await response.text()).toContain('<!doctype html>');
    }
    const script = await get('app://terminal/assets/app.js?v=1');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe('console.log("till")');
    expect((await get('app://terminal/assets/app.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await get('app://terminal/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await get('app://terminal/index.html', 'POST')).status).toBe(405);
  });

  it('refuses every way out of the bundle', async () => {
    const attempts = [
      'app://terminal/../secrets.safe-storage.json',
      'app://terminal/%2e%2e/secrets.safe-storage.json',
      'app://terminal/assets/..%2f..%2fsecrets.safe-storage.json',
      'app://terminal/assets/%2F..%2F..%2Fsecrets.safe-storage.json',
      'app://terminal/..%5csecrets.safe-storage.json',
      'app://terminal/index.html%00.js',
      'app://terminal/assets/link.json', // a symlink pointing outside
      'app://other/index.html',
      'app://terminal/%E0%A4%A',
    ];
    for (const url of attempts) {
      const response = await get(url);
      expect([400, 404], url).toContain(response.status);
      expect(await response.text(), url).not.toContain('api_key');
    }
  });

  it('answers 404 for a missing file or a folder', async () => {
    expect((await get('app://terminal/missing.js')).status).toBe(404);
    expect((await get('app://terminal/assets')).status).toBe(404);
    expect((await get('app://terminal/assets/')).status).toBe(404);
  });

  it('resolves paths without touching the disk', () => {
    expect(resolveBundlePath('/b', 'app://terminal/')).toEqual({ ok: true, file: join('/b', 'index.html') });
    expect(resolveBundlePath('/b', 'app://terminal/a/b.js')).toEqual({ ok: true, file: join('/b', 'a', 'b.js') });
    expect(resolveBundlePath('/b', 'https://terminal/index.html')).toEqual({ ok: false, status: 404 });
    expect(resolveBundlePath('/b', '::not a url')).toEqual({ ok: false, status: 400 });
  });
});
