// Where the till tells time, in one place: the location's zone and locale from `location.get`, asked
// once per bridge while a screen shows a time, and again when the settings (the location chosen) or
// the menu (a pull that brought the location's record) change. format.ts's functions read it when
// given no place; `useTimePlace` re-renders a screen when it changes.
import { useCallback, useSyncExternalStore } from 'react';
import type { BridgeClient } from './bridge-client';
import { setTimePlace, timePlace, type TimePlace } from './format';
import { useBridge } from './hooks';

interface PlaceSource {
  place: TimePlace | null;
  listeners: Set<() => void>;
  stop: (() => void) | null;
}

const sources = new WeakMap<BridgeClient, PlaceSource>();

function sourceOf(client: BridgeClient): PlaceSource {
  let source = sources.get(client);
  if (!source) {
    source = { place: null, listeners: new Set(), stop: null };
    sources.set(client, source);
  }
  return source;
}

function listen(client: BridgeClient, source: PlaceSource): () => void {
  let live = true;
  let generation = 0;
  const load = () => {
    // Only the newest answer lands.
    const mine = ++generation;
    client.call('location.get', {}).then(
      ({ timezone, locale }) => {
        if (!live || mine !== generation) return;
        if (source.place?.timezone !== timezone || source.place.locale !== locale) source.place = { timezone, locale };
        setTimePlace(source.place);
        source.listeners.forEach((notify) => notify());
      },
      // The last place known stays: the screens say their own errors.
      () => undefined,
    );
  };
  load();
  const offs = (['settings.changed', 'menu.changed', 'terminal.reset'] as const).map((event) => client.on(event, load));
  return () => {
    live = false;
    offs.forEach((off) => off());
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

/** The location's zone and locale (until the core first answers: the last known, else this computer's zone in en-US). */
export function useTimePlace(): TimePlace {
  const client = useBridge();
  const place = useSyncExternalStore(
    useCallback((notify: () => void) => subscribe(client, notify), [client]),
    () => sourceOf(client).place,
  );
  return place ?? timePlace();
}
