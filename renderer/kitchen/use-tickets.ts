// The display's tickets, asked again at once when a page of another till's log is applied here
// (storeMode.replicated) and after a bump or a recall, and every half second anyway (ages, a missed event). Never two asks at once; the last
// good answer stays on screen, with the page's time it came at (the ages count on from it).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { KitchenTickets } from '../../bridge/kitchen/contract';
import { describeError, useBridge } from '../lib/hooks';

export const TICKETS_REFRESH_MS = 500;

export function useTickets(station: string | null): { data: KitchenTickets | null; receivedAt: number; error: string | null; refresh: () => void } {
  const client = useBridge();
  const [answer, setAnswer] = useState<{ data: KitchenTickets; receivedAt: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const askNow = useRef<() => void>(() => undefined);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let asking = false;
    let again = false;
    const load = () => {
      clearTimeout(timer);
      if (asking) {
        again = true;
        return;
      }
      asking = true;
      client
        .call('kitchen.tickets', station === null ? {} : { station })
        .then(
          (data) => {
            if (!live) return;
            setAnswer({ data, receivedAt: Date.now() });
            setError(null);
          },
          (caught: unknown) => live && setError(describeError(caught)),
        )
        .finally(() => {
          asking = false;
          if (!live) return;
          if (again) {
            again = false;
            load();
          } else timer = setTimeout(load, TICKETS_REFRESH_MS);
        });
    };
    askNow.current = load;
    load();
    const off = client.on('storeMode.replicated', load);
    return () => {
      live = false;
      clearTimeout(timer);
      off();
    };
  }, [client, station]);
  const refresh = useCallback(() => askNow.current(), []);
  return { data: answer?.data ?? null, receivedAt: answer?.receivedAt ?? 0, error, refresh };
}
