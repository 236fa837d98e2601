// The transport-neutral shape of every renderer↔main exchange. The Electron shell carries it over
// IPC, browser mode over loopback HTTP + SSE; both validate with these schemas before dispatching.
import { z } from 'zod';

export const BridgeRequest = z.strictObject({
  command: z.string().min(1).max(64),
  payload: z.unknown(),
  /** The page's id of this request: a repeat of a command that creates something gets the first answer (bridge/once.ts). */
  requestId: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'a request id is 16 to 64 letters, digits, - or _').optional(),
});
export type BridgeRequest = z.infer<typeof BridgeRequest>;

export const BridgeErrorCode = z.enum([
  'invalid_command', // unknown command or payload that fails its schema: nothing changed
  'not_found',
  'conflict', // the state forbids it (e.g. editing a fulfilled order)
  'needs_manager', // the signed-in person may not do this: someone who may enters their PIN (or the offline limit is reached)
  'needs_sign_in', // no one is signed in (locked, idle, first run not done)
  'unavailable', // the core is shutting down or not ready
  'internal',
]);
export type BridgeErrorCode = z.infer<typeof BridgeErrorCode>;

export const BridgeError = z.object({
  code: BridgeErrorCode,
  /** Words a cashier understands, with what to do. */
  message: z.string(),
  /** Field-level detail for invalid_command. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type BridgeError = z.infer<typeof BridgeError>;

export const BridgeResponse = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: BridgeError }),
]);
export type BridgeResponse = z.infer<typeof BridgeResponse>;

export const BridgeEvent = z.object({ event: z.string(), payload: z.unknown() });
export type BridgeEvent = z.infer<typeof BridgeEvent>;

/** What every shell hosts: the core behind the bridge. */
export interface BridgeHost {
  invoke(request: BridgeRequest): Promise<BridgeResponse>;
  subscribe(listener: (event: BridgeEvent) => void): () => void;
}
