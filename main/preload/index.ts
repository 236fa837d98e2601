// The preload of the cashier window (sandboxed, context-isolated). It exposes exactly the bridge the
// renderer uses in both shells, `window.posBridge`, and nothing of ipcRenderer itself: the page can
// send only bridge requests on one channel and receive only bridge events.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { BridgeEvent, BridgeResponse } from '../../bridge/protocol';
import { BRIDGE_EVENT_CHANNEL, BRIDGE_INVOKE_CHANNEL, type PosBridgeApi } from '../../bridge/transport';

const posBridge: PosBridgeApi = {
  // The main process validates the request and its sender; here it is passed on as given.
  invoke: (request) => ipcRenderer.invoke(BRIDGE_INVOKE_CHANNEL, request) as Promise<BridgeResponse>,
  onEvent(listener) {
    // Only the event reaches the page, never the IpcRendererEvent (whose `sender` is ipcRenderer).
    const forward = (_event: IpcRendererEvent, bridgeEvent: BridgeEvent): void => listener(bridgeEvent);
    ipcRenderer.on(BRIDGE_EVENT_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(BRIDGE_EVENT_CHANNEL, forward);
    };
  },
};

contextBridge.exposeInMainWorld('posBridge', posBridge);
