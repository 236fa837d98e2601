import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/index';
import { call, createOrder } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('storage in a file', () => {
  it('keeps data, keys, webhook endpoints and the seed across a restart', async () => {
    const dbFile = join(dir, 'restart.sqlite');
    const first = await startSandbox({ dbFile, seed: 'demo' });
    const endpoint = await first.createWebhookEndpoint({ url: 'http://127.0.0.1:9/x', event_types: ['order.created'] });
    const order = await createOrder(first);
    const credentials = first.credentials;
    const count = await first.countOrders();
    await first.close();

    const second = await startSandbox({ dbFile, seed: 'demo' });
    try {
      expect(second.credentials).toEqual(credentials);
      expect(await second.countOrders()).toBe(count);
      const fetched = await call(second, 'GET', `/orders/${order.id}`, { key: credentials.apiKeys.full });
      expect(fetched.body).toEqual(order);
      expect((await second.listDeliveries({ endpointId: endpoint.id })).map((d) => d.resource_id)).toContain(order.id);
    } finally {
      await second.close();
    }
  });
});

function startCli(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts', '--port', '0', ...args], { cwd: join(__dirname, '..', '..') });
}

function readyUrl(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /sandbox ready: (http:\/\/\S+\/v1)/.exec(out);
      if (match) resolve(match[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`the CLI exited with ${code}: ${out}`)));
  });
}

async function stop(child: ChildProcessWithoutNullStreams): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

describe('npm run sandbox (the CLI)', () => {
  it('prints the base URL when ready and writes the credentials file', async () => {
    const credentialsFile = join(dir, 'credentials.json');
    const child = startCli(['--db', join(dir, 'cli.sqlite'), '--seed', 'demo', '--credentials-out', credentialsFile]);
    try {
      const baseUrl = await readyUrl(child);
      const written = JSON.parse(readFileSync(credentialsFile, 'utf8'));
      expect(written.base_url).toBe(baseUrl);
      expect(Object.keys(written.api_keys).sort()).toEqual(['custom', 'full', 'fullLive', 'menuOnly', 'ordersOnly', 'readOnly']);
      expect(written.oauth_client.clientId).toMatch(/^client_/);
      expect(written.location_ids).toHaveLength(3);
      expect(written.dashboard.api).toMatch(/\/_dashboard\/api$/);
      const response = await fetch(`${baseUrl}/locations`, { headers: { Authorization: `Bearer ${written.api_keys.readOnly}` } });
      expect(response.status).toBe(200);
    } finally {
      await stop(child);
    }
    // Restarted on the same file: the same keys, client and locations, nothing seeded twice.
    const again = startCli(['--db', join(dir, 'cli.sqlite'), '--seed', 'demo', '--credentials-out', credentialsFile + '.2']);
    try {
      const baseUrl = await readyUrl(again);
      const first = JSON.parse(readFileSync(credentialsFile, 'utf8'));
      const second = JSON.parse(readFileSync(`${credentialsFile}.2`, 'utf8'));
      expect(second.api_keys).toEqual(first.api_keys);
      expect(second.oauth_client).toEqual(first.oauth_client);
      expect(second.location_ids).toEqual(first.location_ids);
      const locations = (await (await fetch(`${baseUrl}/locations`, { headers: { Authorization: `Bearer ${second.api_keys.full}` } })).json()) as { meta: { total: number } };
      expect(locations.meta.total).toBe(3);
    } finally {
      await stop(again);
    }
  });

  it('refuses bad arguments with a usage line', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts', '--port', 'abc'], { cwd: join(__dirname, '..', '..'), stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(err).toContain('--port must be a port number');
    expect(err).toContain('usage: npm run sandbox');
  });
});
