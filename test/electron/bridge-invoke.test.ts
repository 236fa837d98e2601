// The one IPC handler: who may call, what may be sent, and what the page gets back when the core fails.
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/log';
import type { BridgeEvent, BridgeHost, BridgeRequest, BridgeResponse } from '../../bridge/protocol';
import { createBridgeInvokeHandler } from '../../main/electron/bridge-invoke';
import { isTrustedSender, type IpcSenderFacts } from '../../main/electron/ipc-sender';

/** A minimal core: answers with what it was asked, or fails for the command 'explode'. */
class EchoCore implements BridgeHost {
  readonly received: BridgeRequest[] = [];
  async invoke(request: BridgeRequest): Promise<BridgeResponse> {
    this.received.push(request);
    if (request.command === 'explode') throw new Error('disk I/O error at sk_live_abcdef123456');
    return { ok: true, value: { echoed: request.command } };
  }
  subscribe(_listener: (event: BridgeEvent) => void): () => void {
    return () => {};
  }
}

const WINDOW_ID = 3;
const trusted: IpcSenderFacts = { webContentsId: WINDOW_ID, frameUrl: 'app://terminal/index.html', isMainFrame: true };

function setup() {
  const core = new EchoCore();
  let activity = 0;
  const invoke = createBridgeInvokeHandler({
    host: core,
    isTrusted: (sender) => isTrustedSender(sender, WINDOW_ID),
    logger: silentLogger,
    onActivity: () => activity++,
  });
  return { core, invoke, activity: () => activity };
}

describe('bridge invoke handler', () => {
  it('passes a valid request from our window to the core and its answer back', async () => {
    const { core, invoke, activity } = setup();
    expect(await invoke(trusted, { command: 'orders.list', payload: {} })).toEqual({ ok: true, value: { echoed: 'orders.list' } });
    expect(core.received).toEqual([{ command: 'orders.list', payload: {} }]);
    expect(activity()).toBe(1);
  });

  it('refuses an untrusted sender without reaching the core', async () => {
    const { core, invoke, activity } = setup();
    for (const sender of [
      { ...trusted, isMainFrame: false },
      { ...trusted, frameUrl: 'https://evil.example/' },
      { ...trusted, webContentsId: 99 },
      { ...trusted, frameUrl: undefined },
    ]) {
      const response = await invoke(sender, { command: 'orders.list', payload: {} });
      expect(response).toMatchObject({ ok: false, error: { code: 'invalid_command' } });
    }
    expect(core.received).toEqual([]);
    expect(activity()).toBe(0);
  });

  it('refuses a malformed request with the field at fault, changing nothing', async () => {
    const { core, invoke } = setup();
    const bad: [unknown, string][] = [
      [null, ''],
      ['orders.list', ''],
      [{ payload: {} }, 'command'],
      [{ command: '', payload: {} }, 'command'],
      [{ command: 'x'.repeat(65), payload: {} }, 'command'],
      [{ command: 'orders.list', payload: {}, extra: true }, ''],
    ];
    for (const [payload, path] of bad) {
      const response = await invoke(trusted, payload);
      expect(response.ok, JSON.stringify(payload)).toBe(false);
      if (response.ok) continue;
      expect(response.error.code).toBe('invalid_command');
      expect(response.error.issues?.map((i) => i.path)).toContain(path);
    }
    expect(core.received).toEqual([]);
  });

  it('turns a core failure into an internal error the cashier can read, without its details', async () => {
    const { invoke } = setup();
    const response = await invoke(trusted, { command: 'explode', payload: {} });
    expect(response).toEqual({ ok: false, error: { code: 'internal', message: expect.stringMatching(/Try again/) } });
    expect(JSON.stringify(response)).not.toContain('sk_live_');
  });
});
