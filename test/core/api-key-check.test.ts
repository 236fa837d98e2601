// An API key is tried against the cloud when it is saved: a key the cloud refuses is refused at
// once with nothing saved; a good one is saved and said to work; offline, it is saved and the
// cashier is told it will be checked when the terminal is back online.
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index';
import { startTestCore, type TestCore } from './fixtures';

let t: TestCore | undefined;
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await t?.core.shutdown();
  await sandbox?.close();
  t = undefined;
  sandbox = undefined;
});

describe('saving an API key', () => {
  it('refuses a well-formed key the cloud rejects, and saves nothing', async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    t = await startTestCore({ api: { baseUrl: sandbox.baseUrl } });
    const before = (await t.call('settings.get', {})).credentials;
    const refused = await t.raw('credentials.setApiKey', { apiKey: 'sk_test_wellformedbutwrong' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_command', message: expect.stringMatching(/The cloud refused this API key.*Nothing was saved/) } });
    expect((await t.call('settings.get', {})).credentials).toEqual(before);
  });

  it('saves a key the cloud accepts and says so', async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    t = await startTestCore({ api: { baseUrl: sandbox.baseUrl } });
    const saved = await t.call('credentials.setApiKey', { apiKey: sandbox.credentials.apiKeys.full });
    expect(saved.keyCheck).toBe('API key saved. The cloud accepted it.');
    expect(saved.credentials.kind).toBe('api_key');
  });

  it('offline: saves the key and says it will be checked when back online', async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    await sandbox.faults.set({ outage: true });
    t = await startTestCore({ api: { baseUrl: sandbox.baseUrl } });
    const saved = await t.call('credentials.setApiKey', { apiKey: 'sk_test_cannotbecheckednow' });
    expect(saved.keyCheck).toMatch(/could not be reached to check it: it will be checked when the terminal is back online/);
    expect(saved.credentials.kind).toBe('api_key');
  });
});
