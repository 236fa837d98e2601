// undici writes a request on a reused keep-alive connection only in the event loop's next check
// phase (it first lets the socket report a close the server may have sent). A request issued
// just before a long synchronous stretch (a SQLite write, a commit) therefore leaves only after
// it, and the server idles meanwhile. Yielding here first puts it on the wire.

/** Resolves once requests issued before the call have been handed to their sockets. */
export async function letRequestsLeave(): Promise<void> {
  // First turn: the requests' own microtasks run and undici queues its write for the check
  // phase (after this callback, which was queued first). Second turn: that write has run.
  await new Promise<void>((resolve) => setImmediate(resolve));
  await new Promise<void>((resolve) => setImmediate(resolve));
}
