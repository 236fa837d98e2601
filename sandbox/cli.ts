// `npm run sandbox -- --port <p> [--dashboard-port <p>] [--host <h>] [--db <file>] [--seed demo]
//  [--taxes demo|none] [--credentials-out <file>] [--profile default|spec-minimal] [--record-shape flat|jsonapi]`:
//  runs the sandbox until interrupted and prints its base URL when ready.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { z } from 'zod';
import { createLogger } from '../common/log';
import { startSandbox } from './index';
import { profileSchema, recordShapeSchema } from './profile-schemas';
import { taxesOptionSchema } from './seed';

const USAGE =
  'usage: npm run sandbox -- --port <p> [--dashboard-port <p>] [--host 127.0.0.1] [--db <file>] [--seed demo|none] [--taxes demo|none] [--credentials-out <file>] [--profile default|spec-minimal] [--record-shape flat|jsonapi]';

function portArg(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number (0-65535), not ${value}`);
  return port;
}

function choiceArg<T extends string>(value: string | undefined, name: string, schema: z.ZodEnum<{ [K in T]: K }>): T | undefined {
  if (value === undefined) return undefined;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`${name} must be ${schema.options.join(' or ')}, not ${value}`);
  return parsed.data;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'dashboard-port': { type: 'string' },
      host: { type: 'string' },
      db: { type: 'string' },
      seed: { type: 'string' },
      taxes: { type: 'string' },
      'credentials-out': { type: 'string' },
      profile: { type: 'string' },
      'record-shape': { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (values.seed !== undefined && values.seed !== 'demo' && values.seed !== 'none') throw new Error(`--seed must be demo or none, not ${values.seed}`);
  // The demo restaurant charges tax when run by hand (startSandbox's default, for tests, is none).
  const taxes = choiceArg(values.taxes, '--taxes', taxesOptionSchema) ?? 'demo';
  const profile = choiceArg(values.profile, '--profile', profileSchema);
  const recordShape = choiceArg(values['record-shape'], '--record-shape', recordShapeSchema);
  const port = portArg(values.port, '--port') ?? 0;
  // The dashboard sits next to the API: port + 1 when a port was chosen, any free port otherwise.
  const dashboardPort = portArg(values['dashboard-port'], '--dashboard-port') ?? (port > 0 ? port + 1 : 0);
  const sandbox = await startSandbox({
    port,
    dashboardPort,
    host: values.host,
    dbFile: values.db,
    seed: values.seed === 'demo' ? 'demo' : 'none',
    taxes,
    profile,
    recordShape,
    logger: createLogger({ name: 'sandbox', level: 'warn' }),
  });
  if (values['credentials-out']) {
    const out = {
      base_url: sandbox.baseUrl,
      api_host: sandbox.apiHost,
      auth_url: sandbox.authUrl,
      dashboard: { page: sandbox.dashboardUrl, api: sandbox.dashboardApiUrl, docs: 'docs/sandbox.md' },
      api_keys: sandbox.credentials.apiKeys,
      api_key_ids: sandbox.credentials.apiKeyIds,
      oauth_client: sandbox.credentials.oauthClient,
      location_ids: sandbox.credentials.locationIds,
    };
    writeFileSync(values['credentials-out'], `${JSON.stringify(out, null, 2)}\n`, { mode: 0o600 });
  }
  console.log(`sandbox ready: ${sandbox.baseUrl}`);
  console.log(`dashboard: ${sandbox.dashboardUrl} (OAuth consent at ${sandbox.authUrl}/oauth/authorize)`);
  const stop = () => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  console.error(USAGE);
  process.exit(2);
});
