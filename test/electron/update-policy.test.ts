// Updates download whenever offered and install only when the outbox is empty and the till is idle.
import { describe, expect, it } from 'vitest';
import { UpdateStatus } from '../../bridge/contract';
import { createUpdateController, installDecision, updateDelivery } from '../../main/electron/update-policy';

function setup(initialPending = 0) {
  let now = 1_000_000;
  let pending = initialPending;
  const published: UpdateStatus[] = [];
  let installs = 0;
  const controller = createUpdateController({
    pendingOperations: () => pending,
    now: () => now,
    quietAfterMs: 60_000,
    publish: (status) => published.push(UpdateStatus.parse(status)),
    install: () => installs++,
  });
  return {
    controller,
    published,
    installs: () => installs,
    advance: (ms: number) => (now += ms),
    setPending: (n: number) => (pending = n),
  };
}

describe('install decision', () => {
  it('needs an empty outbox and an idle till', () => {
    expect(installDecision({ pendingOperations: 1, msSinceActivity: 10 ** 9, quietAfterMs: 1 })).toEqual({ install: false, reason: 'outbox-pending' });
    expect(installDecision({ pendingOperations: 0, msSinceActivity: 59_999, quietAfterMs: 60_000 })).toEqual({ install: false, reason: 'cashier-active' });
    expect(installDecision({ pendingOperations: 0, msSinceActivity: 60_000, quietAfterMs: 60_000 })).toEqual({ install: true });
  });
});

describe('update controller', () => {
  it('reports checking, download progress and readiness to the screen', () => {
    const t = setup();
    t.controller.onChecking();
    t.controller.onProgress('1.4.0', 0);
    t.controller.onProgress('1.4.0', 41.6);
    t.controller.onProgress('1.4.0', 100.2);
    expect(t.published.map((s) => [s.phase, s.percent])).toEqual([
      ['checking', null],
      ['downloading', 0],
      ['downloading', 42],
      ['downloading', 100],
    ]);
    expect(t.published[2]?.message).toBe('Downloading update 1.4.0 (42%). Keep working.');
  });

  it('does not install while changes wait for the cloud, and says so', () => {
    const t = setup(2);
    t.advance(10 * 60_000);
    t.controller.onDownloaded('1.4.0');
    expect(t.installs()).toBe(0);
    expect(t.controller.status()).toMatchObject({ phase: 'waiting', version: '1.4.0' });
    expect(t.controller.status().message).toBe('Update 1.4.0 is ready. It installs after 2 changes reach the cloud, so nothing waits through the restart.');
    t.setPending(1);
    t.controller.tick();
    expect(t.controller.status().message).toMatch(/after 1 change reach/);
    t.setPending(0);
    t.controller.tick();
    expect(t.installs()).toBe(1);
    expect(t.controller.status().phase).toBe('installing');
  });

  it('waits for the cashier to stop working, then installs once', () => {
    const t = setup(0);
    t.controller.onDownloaded('2.0.0');
    expect(t.installs()).toBe(0);
    expect(t.controller.status().message).toMatch(/idle for a few minutes/);
    t.advance(50_000);
    t.controller.onActivity();
    t.advance(50_000);
    t.controller.tick();
    expect(t.installs()).toBe(0);
    t.advance(10_000);
    t.controller.tick();
    t.controller.tick();
    expect(t.installs()).toBe(1);
  });

  it('does not publish the same waiting message on every tick', () => {
    const t = setup(1);
    t.controller.onDownloaded('1.4.1');
    const count = t.published.length;
    t.controller.tick();
    t.controller.tick();
    expect(t.published.length).toBe(count);
  });

  it('keeps a ready update through later errors and checks', () => {
    const t = setup(1);
    t.controller.onDownloaded('1.5.0');
    t.controller.onError('net::ERR_INTERNET_DISCONNECTED');
    t.controller.onChecking();
    t.controller.onNotAvailable();
    expect(t.controller.status()).toMatchObject({ phase: 'waiting', version: '1.5.0' });
  });

  it('reports a failed download and recovers on the next check', () => {
    const t = setup();
    t.controller.onProgress('1.6.0', 10);
    t.controller.onError('sha512 checksum mismatch');
    expect(t.controller.status()).toMatchObject({ phase: 'error', version: '1.6.0' });
    expect(t.controller.status().message).toMatch(/keeps working and retries later/);
    t.controller.onNotAvailable();
    expect(t.controller.status().phase).toBe('idle');
    expect(t.installs()).toBe(0);
  });
});

describe('update delivery', () => {
  const windowsEnv = { ProgramFiles: 'C:\\Program Files', 'ProgramFiles(x86)': 'C:\\Program Files (x86)', ProgramW6432: 'C:\\Program Files' };

  it('lets per-user installs, AppImages and macOS update themselves', () => {
    expect(updateDelivery('win32', 'C:\\Users\\till\\AppData\\Local\\Programs\\pos-terminal\\pos-terminal.exe', windowsEnv)).toBe('self-update');
    expect(updateDelivery('linux', '/tmp/.mount_posXyz/pos-terminal', { APPIMAGE: '/opt/POS-Terminal.AppImage' })).toBe('self-update');
    expect(updateDelivery('darwin', '/Applications/POS Terminal.app/Contents/MacOS/POS Terminal', {})).toBe('self-update');
  });

  it('leaves per-machine (MSI) and deb installs to IT', () => {
    expect(updateDelivery('win32', 'C:\\Program Files\\POS Terminal\\pos-terminal.exe', windowsEnv)).toBe('managed-by-it');
    expect(updateDelivery('win32', 'c:/program files/POS Terminal/pos-terminal.exe', windowsEnv)).toBe('managed-by-it');
    expect(updateDelivery('win32', 'C:\\Program Files (x86)\\POS Terminal\\pos-terminal.exe', windowsEnv)).toBe('managed-by-it');
    expect(updateDelivery('win32', 'C:\\Program Files Custom\\pos-terminal.exe', windowsEnv)).toBe('self-update');
    expect(updateDelivery('linux', '/opt/POS Terminal/pos-terminal', {})).toBe('managed-by-it');
  });
});
