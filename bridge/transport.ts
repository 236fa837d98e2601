// Transport names and the page-side bridge API, kept free of zod so the Electron preload (which
// bundles this file) stays a few kilobytes instead of carrying the schema library.
import type { BridgeEvent, BridgeRequest, BridgeResponse } from './protocol';

/** IPC channel names (Electron) — the only two the preload exposes. */
export const BRIDGE_INVOKE_CHANNEL = 'bridge:invoke';
export const BRIDGE_EVENT_CHANNEL = 'bridge:event';

/** What the Electron preload exposes as `window.posBridge`; browser mode's client offers the same. */
export interface PosBridgeApi {
  invoke(request: BridgeRequest): Promise<BridgeResponse>;
  onEvent(listener: (event: BridgeEvent) => void): () => void;
}

/** Browser mode: prefix of the per-launch token required on every bridge request. */
export const LAUNCH_TOKEN_PREFIX = 'pos_launch_';
/** Browser mode: the bridge endpoints on the loopback host. */
export const HTTP_BRIDGE_PATH = '/bridge';
export const HTTP_EVENTS_PATH = '/events';
