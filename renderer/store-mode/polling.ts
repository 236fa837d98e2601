// Store mode's reads, asked again at once when a page of another till's log is applied here (the
// bridge's storeMode.replicated event), and on a timer while shown (ages, a till gone quiet).
import { useCallback, useEffect, useState } from 'react';
import type { CommandInput, CommandResult } from '../../bridge/contract';
import { describeError, useBridge } from '../lib/hooks';

type StoreModeRead = 'storeMode.status' | 'storeMode.orders' | 'storeMode.forwards';

/** How often a shown store view asks again. */
export const STORE_REFRESH_MS = 2_000;

/**
 * `command` now, then again `everyMs` after each answer while mounted (never two at once); `null`
 * asks once. With `keepAsking` (one function for the screen's life: a new one asks again at once),
 * an answer it says no to is the last one asked for: the store's status with store mode off, where
 * one read both decides whether a view is shown and feeds it. Keeps the last good answer, and when
 * it came (what "2 min ago" counts from), while the next one is on its way. `reload()` asks at once
 * (after this till changed what it shows).
 */
export function useStoreModeRead<C extends StoreModeRead>(
  command: C,
  everyMs: number | null,
  keepAsking?: (answer: CommandResult<C>) => boolean,
): { data: CommandResult<C> | null; receivedAt: number | null; error: string | null; reload: () => void } {
  const client = useBridge();
  const [answer, setAnswer] = useState<{ data: CommandResult<C>; receivedAt: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [asked, setAsked] = useState(0);
  const reload = useCallback(() => setAsked((n) => n + 1), []);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let asking = false;
    let again = false;
    let done = false;
    const load = () => {
      clearTimeout(timer);
      if (done) return;
      if (asking) {
        again = true;
        return;
      }
      asking = true;
      client
        // The reads take an empty payload.
        .call(command, {} as CommandInput<C>)
        .then(
          (value) => {
            if (!live) return;
            setAnswer({ data: value, receivedAt: Date.now() });
            setError(null);
            if (keepAsking?.(value) === false) done = true;
          },
          (caught: unknown) => {
            if (live) setError(describeError(caught));
          },
        )
        .finally(() => {
          asking = false;
          if (!live || done) return;
          if (again) {
            again = false;
            load();
          } else if (everyMs !== null) timer = setTimeout(load, everyMs);
        });
    };
    load();
    // A read asked once (whether store mode is on) does not follow the store.
    const off = everyMs === null ? () => undefined : client.on('storeMode.replicated', load);
    return () => {
      live = false;
      clearTimeout(timer);
      off();
    };
  }, [client, command, everyMs, keepAsking, asked]);
  return { data: answer?.data ?? null, receivedAt: answer?.receivedAt ?? null, error, reload };
}

/** Whether this till is in store mode (asked once per screen: it changes only with a restart or a pairing); null until known. */
export function useStoreModeOn(): boolean | null {
  const { data } = useStoreModeRead('storeMode.status', null);
  return data === null ? null : data.mode === 'on';
}
