// The floor as the screens know it, one per bridge: fetched while a screen shows it, refetched on
// every change of the floor or of the checks, and kept when the screen closes, so opening the floor
// again draws the last floor at once while the fresh one is asked for (the core answers in
// milliseconds; a table changed in between shows its new state right after).
import { useCallback, useSyncExternalStore } from 'react';
import type { FloorView } from '../../bridge/tables/contract';
import type { BridgeClient } from '../lib/bridge-client';
import { describeError, useBridge } from '../lib/hooks';

interface FloorState {
  floor: FloorView | null;
  error: string | null;
}

interface FloorSource {
  state: FloorState;
  listeners: Set<() => void>;
  stop: (() => void) | null;
}

const sources = new WeakMap<BridgeClient, FloorSource>();

function sourceOf(client: BridgeClient): FloorSource {
  let source = sources.get(client);
  if (!source) {
    source = { state: { floor: null, error: null }, listeners: new Set(), stop: null };
    sources.set(client, source);
  }
  return source;
}

function listen(client: BridgeClient, source: FloorSource): () => void {
  let live = true;
  let generation = 0;
  const publish = (state: FloorState) => {
    source.state = state;
    source.listeners.forEach((notify) => notify());
  };
  const load = () => {
    // Only the newest answer lands: a slow earlier one never overwrites a newer floor.
    const mine = ++generation;
    client.call('tables.floor', {}).then(
      (floor) => {
        if (live && mine === generation) publish({ floor, error: null });
      },
      (caught: unknown) => {
        if (live && mine === generation) publish({ floor: source.state.floor, error: describeError(caught) });
      },
    );
  };
  load();
  const offs = (['floor.changed', 'orders.changed'] as const).map((event) => client.on(event, load));
  const reset = client.on('terminal.reset', () => publish({ floor: null, error: null }));
  return () => {
    live = false;
    offs.forEach((off) => off());
    reset();
  };
}

function subscribe(client: BridgeClient, notify: () => void): () => void {
  const source = sourceOf(client);
  source.listeners.add(notify);
  source.stop ??= listen(client, source);
  return () => {
    source.listeners.delete(notify);
    if (source.listeners.size === 0) {
      source.stop?.();
      source.stop = null;
    }
  };
}

/** The floor (the last one known until the core answers) and the error of the last refresh, if any. */
export function useFloor(): FloorState {
  const client = useBridge();
  return useSyncExternalStore(
    useCallback((notify: () => void) => subscribe(client, notify), [client]),
    () => sourceOf(client).state,
  );
}
