// The consent page in a real Chromium: a merchant clicks Approve or Deny and the browser lands on
// the application's loopback callback (the page's CSP must allow that form redirect).
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAuthorizeUrl } from '../../api/oauth';
import type { Sandbox } from '../../sandbox/index';
import { withSandbox } from './helpers';
import { startCallbackListener } from './oauth-helpers';

let sb: Sandbox;
let browser: Browser;
beforeAll(async () => {
  sb = await withSandbox({ seed: 'none' });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
});
afterAll(async () => {
  await browser.close();
  await sb.close();
});

describe('the consent page in Chromium', () => {
  it.each([
    ['Approve', 'code'],
    ['Deny', 'error'],
  ] as const)('clicking %s lands on the callback with the %s', async (button, param) => {
    const listener = await startCallbackListener();
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      // Only policy violations count (a missing favicon also logs an error).
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    try {
      const url = buildAuthorizeUrl({ authUrl: sb.authUrl, clientId: sb.credentials.oauthClient.clientId, redirectUri: listener.redirectUri, scopes: ['read_orders', 'write_orders'], state: 'browser-state' });
      await page.goto(url);
      expect(await page.textContent('h1')).toContain('Authorize');
      expect(await page.locator('li').allTextContents()).toEqual(['Read your orders (read_orders)', 'Create and modify orders (write_orders)']);
      await Promise.all([page.waitForURL((u) => u.href.startsWith(listener.redirectUri)), page.getByRole('button', { name: button }).click()]);
      const received = listener.received.at(-1) as URLSearchParams;
      expect(received.get('state')).toBe('browser-state');
      expect(received.get(param)).toBeTruthy();
      expect(violations).toEqual([]);
    } finally {
      await page.close();
      await listener.close();
    }
  });
});
