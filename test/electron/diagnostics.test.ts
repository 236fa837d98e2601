// The support bundle over real log files: everything support needs, and not one secret, even from a log
// line that was written before redaction existed or a status string that carries a token.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger, createRotatingLogFile } from '../../common/log';
import { TerminalConfig } from '../../main/config';
import { buildDiagnosticsBundle, DIAGNOSTICS_FORMAT, removeSecrets, writeDiagnosticsBundle } from '../../main/diagnostics/bundle';

const SECRETS = [
  'sk_live_51HxYzAbCdEfGhIjKlMnOpQr',
  'at_live_Zm9vYmFyYmF6cXV4MTIzNDU2',
  'rt_live_cmVmcmVzaHJlZnJlc2g5ODc2',
  'whsec_9f8e7d6c5b4a39281706f5e4',
  'pos_launch_7QmZpX2vLr8sT4nK',
  'Csx9-Qp2_Lm7vB4nR8tY3wZ6',
  'scrypt:c2FsdHNhbHRzYWx0c2FsdA==:aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g=',
];
/** PIN hashes of provisioned staff (docs/config.md, "Staff"): none may reach the bundle either. */
const STAFF_HASHES = [
  'scrypt:b3duZXJzYWx0b3duZXJzYWx0:b3duZXJoYXNob3duZXJoYXNob3duZXJoYXNob3duZXI=',
  'scrypt:YmVuc2FsdGJlbnNhbHRiZW4=:YmVuaGFzaGJlbmhhc2hiZW5oYXNoYmVuaGFzaGJlbmg=',
  'scrypt:Y2FybHNhbHRjYXJsc2FsdGM=:Y2FybGhhc2hjYXJsaGFzaGNhcmxoYXNoY2FybGhhc2g=',
];

const root = mkdtempSync(join(tmpdir(), 'pos-diagnostics-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function logsWithSecrets(): Promise<string> {
  const dir = join(root, `logs-${Math.random().toString(36).slice(2)}`);
  const file = createRotatingLogFile({ directory: dir });
  const log = createLogger({ destination: file.destination });
  log.info({ apiKey: SECRETS[0] }, 'configured');
  log.warn(`refresh failed for ${SECRETS[2]}`);
  log.info({ order: 'ord_123' }, 'order saved');
  await file.close();
  // A rotated file from an older build that logged a token raw.
  writeFileSync(join(dir, 'pos.log.1'), `{"msg":"token ${SECRETS[1]} and signing ${SECRETS[3]}"}\n`);
  // A line that quoted a --staff value raw (a PIN hash in free text, under no field name).
  writeFileSync(join(dir, 'pos.log.2'), `{"msg":"started with --staff Carl:cashier:${STAFF_HASHES[2]}"}\n`);
  writeFileSync(join(dir, 'unrelated.txt'), 'not a log');
  return dir;
}

function input(logDirectory: string) {
  const config = TerminalConfig.parse({
    api: { baseUrl: 'https://api.example.com/v1' },
    offlinePayments: { managerPinHash: SECRETS[6] },
    credentials: { method: 'oauth', oauthClientId: 'client_123' },
    staff: { members: [{ name: 'Ana', role: 'owner', pinHash: STAFF_HASHES[0] }, `Ben:cashier:${STAFF_HASHES[1]}`] },
  });
  return {
    logDirectory,
    versions: { app: '1.2.3', electron: '41.7.1', node: '22.1.0', os: 'Linux 6.1 x64' },
    config: { values: config, origins: { 'api.baseUrl': 'machine config /etc/pos-terminal/config.json' }, extraSecret: { client_secret: SECRETS[5], token: SECRETS[4] } },
    syncStatus: { ok: true, value: { online: false, pending: 4, lastError: `401 with Authorization: Bearer ${SECRETS[1]}` } },
    facts: { secretProtection: 'os-keychain', launchUrl: `http://127.0.0.1:4000/?token=${SECRETS[4]}`, argv: ['--staff', `Carl:cashier:${STAFF_HASHES[2]}`] },
    now: () => new Date('2026-11-21T12:00:00Z'),
  };
}

describe('diagnostics bundle', () => {
  it('holds versions, config, sync status and recent logs, and no secret at all', async () => {
    const logDirectory = await logsWithSecrets();
    const out = join(root, 'bundle.json');
    const { bytes } = await writeDiagnosticsBundle(input(logDirectory), out);
    const text = readFileSync(out, 'utf8');
    expect(Buffer.byteLength(text)).toBe(bytes);
    for (const secret of [...SECRETS, ...STAFF_HASHES]) expect(text.includes(secret), secret).toBe(false);
    if (process.platform !== 'win32') expect(statSync(out).mode & 0o777).toBe(0o600);

    const bundle = JSON.parse(text) as Awaited<ReturnType<typeof buildDiagnosticsBundle>> & { config: { values: TerminalConfig } };
    expect(bundle.format).toBe(DIAGNOSTICS_FORMAT);
    expect(bundle.createdAt).toBe('2026-11-21T12:00:00.000Z');
    expect(bundle.versions.electron).toBe('41.7.1');
    // Settings stay readable; references to secret-store entries are names, not secrets, and stay.
    expect(bundle.config.values.api.baseUrl).toBe('https://api.example.com/v1');
    expect(bundle.config.values.credentials.oauthClientSecretRef).toBe('oauth_client_secret');
    expect(bundle.config.values.offlinePayments.managerPinHash).toBe('[removed]');
    expect(bundle.syncStatus).toMatchObject({ value: { pending: 4, lastError: '401 with Authorization: Bearer [redacted]' } });
    expect(bundle.logs.map((l) => l.file)).toEqual(['pos.log', 'pos.log.1', 'pos.log.2']);
    expect(bundle.logs[0]?.lines.some((line) => line.includes('order saved'))).toBe(true);
  });

  it("removes every staff member's PIN hash, wherever it is, and keeps who is provisioned", async () => {
    const text = JSON.stringify(await buildDiagnosticsBundle(input(await logsWithSecrets())));
    for (const hash of STAFF_HASHES) {
      expect(text.includes(hash), hash).toBe(false);
      // Neither half of it either (a salt or a digest alone still helps a brute force).
      for (const part of hash.split(':').slice(1)) expect(text.includes(part), part).toBe(false);
    }
    const bundle = JSON.parse(text) as { config: { values: TerminalConfig }; facts: { argv: string[] }; logs: { file: string; lines: string[] }[] };
    // Support still sees who is provisioned with which role, and that each has a PIN.
    expect(bundle.config.values.staff.members).toEqual([
      { name: 'Ana', role: 'owner', pinHash: '[removed]' },
      { name: 'Ben', role: 'cashier', pinHash: '[removed]' },
    ]);
    expect(bundle.config.values.offlinePayments.managerPinHash).toBe('[removed]');
    expect(bundle.facts.argv).toEqual(['--staff', 'Carl:cashier:scrypt:[removed]']);
    expect(bundle.logs.find((l) => l.file === 'pos.log.2')?.lines).toEqual(['{"msg":"started with --staff Carl:cashier:scrypt:[removed]"}']);
  });

  it('keeps only the end of a long log, in whole lines', async () => {
    const dir = join(root, 'long');
    mkdirSync(dir);
    writeFileSync(join(dir, 'pos.log'), Array.from({ length: 1000 }, (_, i) => JSON.stringify({ i, msg: 'line' })).join('\n') + '\n');
    const bundle = await buildDiagnosticsBundle({ ...input(dir), maxLogBytesPerFile: 1000 });
    const log = bundle.logs[0];
    expect(log?.truncated).toBe(true);
    expect(log?.lines.at(-1)).toBe('{"i":999,"msg":"line"}');
    for (const line of log?.lines ?? []) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('works on a terminal that never wrote a log', async () => {
    const bundle = await buildDiagnosticsBundle(input(join(root, 'no-such-folder')));
    expect(bundle.logs).toEqual([]);
  });

  it('marks whether a removed secret was set', () => {
    expect(removeSecrets({ password: '', accessToken: null, apiKey: 'x', apiKeyRef: 'api_key', nested: [{ pin: '1234' }] })).toEqual({
      password: '[not set]',
      accessToken: '[not set]',
      apiKey: '[removed]',
      apiKeyRef: 'api_key',
      nested: [{ pin: '[removed]' }],
    });
  });
});
