import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock';
import type { Sandbox } from '../../sandbox/index';
import { call, dashboard, withSandbox } from './helpers';

let sb: Sandbox;
let clock: ManualClock;
beforeAll(async () => {
  clock = new ManualClock();
  sb = await withSandbox({ clock, seed: 'none' });
});
afterAll(() => sb.close());

describe('per-credential rate limit', () => {
  it('is generous by default and carries RateLimit headers', async () => {
    const reply = await call(sb, 'GET', '/locations', { key: sb.credentials.apiKeys.full });
    expect(Number(reply.headers.get('ratelimit-limit'))).toBeGreaterThanOrEqual(10_000);
    expect(reply.headers.get('ratelimit-remaining')).not.toBeNull();
    expect(reply.headers.get('ratelimit-reset')).not.toBeNull();
  });

  it('answers rate_limit_exceeded with Retry-After once a credential spends its window', async () => {
    expect((await dashboard(sb, 'PATCH', '/settings', { rate_limit: { limit: 3, window_sec: 10 } })).status).toBe(200);
    const key = sb.credentials.apiKeys.full;
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const reply = await call(sb, 'GET', '/locations', { key });
      expect(reply.status).toBe(200);
      remaining.push(reply.headers.get('ratelimit-remaining'));
    }
    expect(remaining).toEqual(['2', '1', '0']);
    clock.advance(4000);
    const limited = await call(sb, 'GET', '/locations', { key });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limit_exceeded');
    expect(limited.headers.get('retry-after')).toBe('6');
    expect(limited.headers.get('ratelimit-limit')).toBe('3');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect((await call(sb, 'GET', '/locations', { key: sb.credentials.apiKeys.readOnly })).status).toBe(200);
    clock.advance(6000);
    expect((await call(sb, 'GET', '/locations', { key })).status).toBe(200);
    expect((await dashboard(sb, 'PATCH', '/settings', { rate_limit: { limit: 0, window_sec: 10 } })).status).toBe(400);
  });
});
