// Writes every known secret shape through the real logger into real rotating files, then greps the
// files: a secret that reaches the disk fails the suite.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, createRotatingLogFile, redactSecrets } from '../../common/log';

/** One value per secret shape the terminal handles; each is unique so a grep finds any leak. */
const SECRETS = {
  testKey: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
  liveKey: 'sk_live_51HxYzAbCdEfGhIjKlMnOpQr',
  accessToken: 'at_live_Zm9vYmFyYmF6cXV4MTIzNDU2',
  refreshToken: 'rt_live_cmVmcmVzaHJlZnJlc2g5ODc2',
  signingSecret: 'whsec_9f8e7d6c5b4a39281706f5e4',
  launchToken: 'pos_launch_7QmZpX2vLr8sT4nK',
  managerPin: '480917',
  clientSecret: 'Csx9-Qp2_Lm7vB4nR8tY3wZ6',
  basicCredentials: 'dXNlcjpwYXNzd29yZDEyMzQ1Njc4',
  opaqueBearer: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXJtIn0.c2lnbmF0dXJl',
} as const;

const dirs: string[] = [];
async function logDirectory(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pos-log-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function readAll(dir: string): Promise<{ names: string[]; text: string }> {
  const names = (await readdir(dir)).sort();
  const texts = await Promise.all(names.map((n) => readFile(join(dir, n), 'utf8')));
  return { names, text: texts.join('\n') };
}

describe('log files', () => {
  it('never contain a secret, whichever way it was logged', async () => {
    const dir = await logDirectory();
    const file = createRotatingLogFile({ directory: dir });
    const log = createLogger({ destination: file.destination, level: 'debug' });

    // Secrets as structured fields, in the field names the code base uses.
    log.info({ apiKey: SECRETS.testKey, api_key: SECRETS.liveKey }, 'api key configured');
    log.info({ access_token: SECRETS.accessToken, refresh_token: SECRETS.refreshToken, accessToken: SECRETS.accessToken, refreshToken: SECRETS.refreshToken }, 'oauth tokens stored');
    log.info({ client_secret: SECRETS.clientSecret, clientSecret: SECRETS.clientSecret }, 'oauth client');
    log.info({ signingSecret: SECRETS.signingSecret, webhook: { signing_secret: SECRETS.signingSecret } }, 'webhook endpoint');
    log.info({ pin: SECRETS.managerPin, approval: { managerPin: SECRETS.managerPin } }, 'manager approval');
    log.info({ request: { headers: { Authorization: `Bearer ${SECRETS.accessToken}`, cookie: `s=${SECRETS.launchToken}` } } }, 'outgoing request');
    log.info({ launch: { token: SECRETS.launchToken } }, 'browser mode started');
    // Secrets inside free text: messages, raw bodies, error messages and stacks, arrays.
    log.info(`using key ${SECRETS.liveKey} for location loc_1`);
    log.warn(`raw token request body {"grant_type":"refresh_token","client_secret":"${SECRETS.clientSecret}","refresh_token":"${SECRETS.refreshToken}"}`);
    log.warn(`form body grant_type=authorization_code&client_secret=${SECRETS.clientSecret}&code=abc`);
    log.info(`request headers: Authorization: Basic ${SECRETS.basicCredentials}`);
    log.info(`request headers: authorization: Bearer ${SECRETS.opaqueBearer}`);
    log.info(`manager override pin=${SECRETS.managerPin} accepted`);
    log.error({ err: new Error(`signature check failed with ${SECRETS.signingSecret}`) }, 'webhook rejected');
    log.debug({ attempts: [`Bearer ${SECRETS.opaqueBearer}`, SECRETS.testKey] }, 'retries');
    await file.close();

    const { text } = await readAll(dir);
    for (const [shape, secret] of Object.entries(SECRETS)) {
      expect(text.includes(secret), `${shape} leaked into the log`).toBe(false);
    }
    // The lines themselves are still there and still useful.
    expect(text).toContain('sk_live_[redacted]');
    expect(text).toContain('webhook rejected');
    expect(text).toContain('Basic [redacted]');
    expect(text.split('\n').filter(Boolean).length).toBe(15);
  });

  it('rotates by size and keeps only the configured number of files', async () => {
    const dir = await logDirectory();
    const file = createRotatingLogFile({ directory: dir, maxFileBytes: 2_000, maxFiles: 2 });
    const log = createLogger({ destination: file.destination });
    for (let i = 0; i < 200; i++) log.info({ i }, 'order line added to the ticket');
    await file.close();

    const { names, text } = await readAll(dir);
    expect(names).toEqual(['pos.log', 'pos.log.1', 'pos.log.2']);
    // The newest line survives, the oldest has been rotated away.
    expect(text).toContain('"i":199');
    expect(text).not.toContain('"i":0,');
  });

  it('keeps a key readable while redacting its value in text', () => {
    expect(redactSecrets('"client_secret":"abc123"')).toBe('"client_secret":"[redacted]"');
    expect(redactSecrets('managerPin: 1234')).toBe('managerPin: [redacted]');
    expect(redactSecrets('pinned order ord_1')).toBe('pinned order ord_1');
  });
});

describe('redactSecrets', () => {
  it('is idempotent, so text redacted twice (log, then diagnostics) reads the same', () => {
    const once = redactSecrets('401 Authorization: Bearer at_live_abc; body {"client_secret":"xyz"} key sk_test_123');
    expect(once).toBe('401 Authorization: Bearer [redacted]; body {"client_secret":"[redacted]"} key sk_test_[redacted]');
    expect(redactSecrets(once)).toBe(once);
  });
});
