import { describe, expect, it } from 'vitest';
import { createLogger } from '../../common/log';
import { call, createOrder, withSandbox } from './helpers';
import { tokenRequest } from './oauth-helpers';

describe('sandbox logs', () => {
  it('log each API request by path and status, and never a credential', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', destination: { write: (line: string) => void lines.push(line) } });
    const sb = await withSandbox({ logger });
    try {
      const key = sb.credentials.apiKeys.full;
      await createOrder(sb);
      await call(sb, 'GET', '/orders?per_page=5', { key });
      await call(sb, 'GET', '/orders', { key: 'sk_test_wrongwrongwrong' });
      await tokenRequest(sb, { grant_type: 'refresh_token', client_id: sb.credentials.oauthClient.clientId, client_secret: sb.credentials.oauthClient.clientSecret, refresh_token: 'rt_live_secretsecret' });
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      await sb.close();
    }
    const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'api request');
    expect(requests.map((l) => [l.method, l.path, l.status])).toEqual(
      expect.arrayContaining([
        ['POST', '/v1/orders', 201],
        ['GET', '/v1/orders', 200],
        ['GET', '/v1/orders', 401],
        ['POST', '/oauth/token', 400],
      ]),
    );
    const all = lines.join('\n');
    for (const secret of [sb.credentials.apiKeys.full, 'sk_test_wrongwrongwrong', 'rt_live_secretsecret', sb.credentials.oauthClient.clientSecret, 'per_page']) {
      expect(all).not.toContain(secret);
    }
  });
});
