// The built preload (dist/preload.cjs from build:electron), run the way a sandboxed preload runs: a
// CommonJS function whose `require` knows only 'electron'. Electron's contextBridge and ipcRenderer
// cannot run here; the stand-ins below only record what the preload hands them.
import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleElectron } from '../../build/bundle-electron';
import type { BridgeEvent } from '../../bridge/protocol';
import { BRIDGE_EVENT_CHANNEL, BRIDGE_INVOKE_CHANNEL, type PosBridgeApi } from '../../bridge/transport';

const out = mkdtempSync(join(tmpdir(), 'pos-preload-'));
let preloadSource: string;
beforeAll(async () => {
  preloadSource = readFileSync((await bundleElectron(out)).preloadFile, 'utf8');
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

function loadPreload() {
  const exposed = new Map<string, unknown>();
  const invoked: { channel: string; args: unknown[] }[] = [];
  const ipcRenderer = Object.assign(new EventEmitter(), {
    invoke: async (channel: string, ...args: unknown[]) => {
      invoked.push({ channel, args });
      return { ok: true, value: 'from main' };
    },
  });
  const electron = { contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) }, ipcRenderer };
  const module = { exports: {} };
  const sandboxRequire = (name: string) => {
    if (name === 'electron') return electron;
    throw new Error(`module not found in a sandboxed preload: ${name}`);
  };
  runInNewContext(preloadSource, { require: sandboxRequire, module, exports: module.exports, console });
  return { exposed, invoked, ipcRenderer };
}

describe('preload', () => {
  it('exposes exactly window.posBridge, and no ipcRenderer', () => {
    const { exposed } = loadPreload();
    expect([...exposed.keys()]).toEqual(['posBridge']);
    const api = exposed.get('posBridge') as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual(['invoke', 'onEvent']);
  });

  it('sends requests on the invoke channel only', async () => {
    const { exposed, invoked } = loadPreload();
    const api = exposed.get('posBridge') as PosBridgeApi;
    expect(await api.invoke({ command: 'sync.status', payload: {} })).toEqual({ ok: true, value: 'from main' });
    expect(invoked).toEqual([{ channel: BRIDGE_INVOKE_CHANNEL, args: [{ command: 'sync.status', payload: {} }] }]);
  });

  it('hands the page the event alone, never the IPC event with its sender, and unsubscribes', () => {
    const { exposed, ipcRenderer } = loadPreload();
    const api = exposed.get('posBridge') as PosBridgeApi;
    const received: unknown[][] = [];
    const unsubscribe = api.onEvent((...args: unknown[]) => received.push(args));
    const event: BridgeEvent = { event: 'orders.changed', payload: { ids: ['ord_1'] } };
    ipcRenderer.emit(BRIDGE_EVENT_CHANNEL, { sender: ipcRenderer, senderId: 0 }, event);
    expect(received).toEqual([[event]]);
    unsubscribe();
    ipcRenderer.emit(BRIDGE_EVENT_CHANNEL, { sender: ipcRenderer }, event);
    expect(received).toHaveLength(1);
    expect(ipcRenderer.listenerCount(BRIDGE_EVENT_CHANNEL)).toBe(0);
  });
});
