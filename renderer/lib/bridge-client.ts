// The renderer's only door to the core. Two transports carry the same bridge contract:
// - Electron: window.posBridge from the preload (IPC);
// - browser mode: loopback HTTP (POST /bridge) and an event stream (GET /events), both carrying
//   the per-launch token in the Authorization header.
import type { CommandInput, CommandName, CommandResult, EventName, EventPayload } from '../../bridge/contract';
import { BridgeResponse, type BridgeError, type BridgeEvent, type BridgeRequest } from '../../bridge/protocol';
import { ONCE_COMMANDS } from '../../bridge/once';
import { HTTP_BRIDGE_PATH, HTTP_EVENTS_PATH, type PosBridgeApi } from '../../bridge/transport';

/** A refusal from the core, carrying its cashier-facing message. */
export class BridgeCallError extends Error {
  readonly code: BridgeError['code'];
  readonly issues: BridgeError['issues'];
  constructor(error: BridgeError) {
    super(error.message);
    this.name = 'BridgeCallError';
    this.code = error.code;
    this.issues = error.issues;
  }
}

export interface BridgeClient {
  call<C extends CommandName>(command: C, payload: CommandInput<C>): Promise<CommandResult<C>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /** Called with false when the event stream drops and true when it is back. */
  onConnection(listener: (connected: boolean) => void): () => void;
}

/** The core's answer, or its refusal as a BridgeCallError. */
function answerOf(raw: unknown): never {
  const response = BridgeResponse.parse(raw);
  if (!response.ok) throw new BridgeCallError(response.error);
  // The core validated the result against the same contract before sending it.
  return response.value as never;
}

/** A fresh request id: 32 hex digits from the page's cryptographic random source. */
function newRequestId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function createBridgeClient(transport: PosBridgeApi & { onConnection?: (listener: (connected: boolean) => void) => () => void }): BridgeClient {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  /**
   * Request ids of commands that create something whose outcome is unknown (the terminal did not
   * answer), by command and details: the same command with the same details again (the screen's
   * retry, a second press) reuses the id, so the core answers it with the first outcome instead of
   * doing it twice. Any answer forgets the id.
   */
  const unanswered = new Map<string, string>();
  transport.onEvent((event) => {
    for (const listener of listeners.get(event.event) ?? []) listener(event.payload);
  });
  return {
    async call(command, payload) {
      if (!ONCE_COMMANDS.has(command)) return answerOf(await transport.invoke({ command, payload }));
      const details = `${command} ${JSON.stringify(payload)}`;
      const requestId = unanswered.get(details) ?? newRequestId();
      unanswered.set(details, requestId);
      // A call that throws leaves its outcome unknown: the id stays for a repeat.
      const raw = await transport.invoke({ command, payload, requestId });
      const response = BridgeResponse.safeParse(raw);
      if (!(response.success && !response.data.ok && response.data.error.code === 'unavailable')) unanswered.delete(details);
      return answerOf(raw);
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const untyped = listener as (payload: unknown) => void;
      set.add(untyped);
      return () => set.delete(untyped);
    },
    onConnection(listener) {
      return transport.onConnection?.(listener) ?? (() => undefined);
    },
  };
}

/** Parses "event: x\ndata: {...}\n\n" frames out of a text stream. */
export function parseEventFrames(buffer: string): { events: BridgeEvent[]; rest: string } {
  const events: BridgeEvent[] = [];
  const frames = buffer.split('\n\n');
  const rest = frames.pop() ?? '';
  for (const frame of frames) {
    let name = '';
    const data: string[] = [];
    for (const line of frame.split('\n')) {
      if (line.startsWith('event: ')) name = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (name && data.length > 0) events.push({ event: name, payload: JSON.parse(data.join('\n')) as unknown });
  }
  return { events, rest };
}

const RECONNECT_MS = 1000;

/** Browser mode: fetch for commands, a streamed fetch for events (EventSource cannot send headers). */
export function createHttpTransport(origin: string, token: string) {
  const eventListeners = new Set<(event: BridgeEvent) => void>();
  const connectionListeners = new Set<(connected: boolean) => void>();
  const authorization = `Bearer ${token}`;

  async function streamEvents(): Promise<never> {
    for (;;) {
      try {
        const response = await fetch(`${origin}${HTTP_EVENTS_PATH}`, { headers: { authorization }, cache: 'no-store' });
        if (!response.ok || !response.body) throw new Error(`event stream answered ${response.status}`);
        for (const listener of connectionListeners) listener(true);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const parsed = parseEventFrames(buffer + value);
          buffer = parsed.rest;
          for (const event of parsed.events) for (const listener of eventListeners) listener(event);
        }
      } catch {
        // The terminal process restarted or the page is closing: retry below.
      }
      for (const listener of connectionListeners) listener(false);
      await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
    }
  }
  void streamEvents();

  return {
    async invoke(request: BridgeRequest) {
      let response: Response;
      try {
        response = await fetch(`${origin}${HTTP_BRIDGE_PATH}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization },
          body: JSON.stringify(request),
        });
      } catch {
        return {
          ok: false as const,
          error: { code: 'unavailable' as const, message: 'The terminal program is not answering. Check it is still running, then try again.' },
        };
      }
      return (await response.json()) as BridgeResponse;
    },
    onEvent(listener: (event: BridgeEvent) => void) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    onConnection(listener: (connected: boolean) => void) {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },
  };
}

declare global {
  interface Window {
    posBridge?: PosBridgeApi;
  }
}

const TOKEN_KEY = 'pos.launchToken';

/**
 * Picks the transport: Electron's preload when present, else browser mode with the launch token
 * taken from the URL fragment once (then removed from the address bar, kept for reloads in this
 * tab's session storage).
 */
export function connectBridge(win: Window = window): BridgeClient | null {
  if (win.posBridge) return createBridgeClient(win.posBridge);
  const fragment = new URLSearchParams(win.location.hash.slice(1));
  const fromUrl = fragment.get('launch');
  if (fromUrl) {
    win.sessionStorage.setItem(TOKEN_KEY, fromUrl);
    win.history.replaceState(null, '', win.location.pathname + win.location.search);
  }
  const token = win.sessionStorage.getItem(TOKEN_KEY);
  if (!token) return null;
  return createBridgeClient(createHttpTransport(win.location.origin, token));
}
