// A value the screens share, one per bridge: loaded while at least one screen shows it, and kept
// when the last one closes, so the next screen draws the last value at once while a fresh one is
// asked for. `listen` starts the loading (and the events that reload it) and returns how to stop.
import { useCallback, useSyncExternalStore } from 'react';
import type { BridgeClient } from './bridge-client';
import { useBridge } from './hooks';

interface Source<T> {
  value: T;
  listeners: Set<() => void>;
  stop: (() => void) | null;
}

export type Listen<T> = (client: BridgeClient, set: (value: T) => void, get: () => T) => () => void;

/** The hook that reads the shared value (and re-renders when it changes). */
export function bridgeStore<T>(initial: T, listen: Listen<T>): () => T {
  const sources = new WeakMap<BridgeClient, Source<T>>();
  const sourceOf = (client: BridgeClient): Source<T> => {
    let source = sources.get(client);
    if (!source) {
      source = { value: initial, listeners: new Set(), stop: null };
      sources.set(client, source);
    }
    return source;
  };
  const subscribe = (client: BridgeClient, notify: () => void): (() => void) => {
    const source = sourceOf(client);
    source.listeners.add(notify);
    source.stop ??= listen(
      client,
      (value) => {
        source.value = value;
        source.listeners.forEach((listener) => listener());
      },
      () => source.value,
    );
    return () => {
      source.listeners.delete(notify);
      if (source.listeners.size === 0) {
        source.stop?.();
        source.stop = null;
      }
    };
  };
  return function useBridgeStore(): T {
    const client = useBridge();
    return useSyncExternalStore(
      useCallback((notify: () => void) => subscribe(client, notify), [client]),
      () => sourceOf(client).value,
    );
  };
}

/**
 * Loads with `load` now and on each of `events`; only the newest answer lands (a slow earlier one
 * never overwrites a newer value). `onError` says what a failed load leaves.
 */
export function reloadOn<R>(
  client: BridgeClient,
  events: readonly Parameters<BridgeClient['on']>[0][],
  load: () => Promise<R>,
  onValue: (result: R) => void,
  onError: (caught: unknown) => void,
): () => void {
  let live = true;
  let generation = 0;
  const run = () => {
    const mine = ++generation;
    load().then(
      (result) => {
        if (live && mine === generation) onValue(result);
      },
      (caught: unknown) => {
        if (live && mine === generation) onError(caught);
      },
    );
  };
  run();
  const offs = events.map((event) => client.on(event, run));
  return () => {
    live = false;
    offs.forEach((off) => off());
  };
}
