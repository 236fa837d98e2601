import { createContext, useContext, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { CommandInput, CommandName, CommandResult, EventName, MenuSnapshot, SyncStatusView, UpdateStatus } from '../../bridge/contract';
import { BridgeCallError, type BridgeClient } from './bridge-client';

export const BridgeContext = createContext<BridgeClient | null>(null);

export function useBridge(): BridgeClient {
  const client = useContext(BridgeContext);
  if (!client) throw new Error('useBridge outside BridgeContext');
  return client;
}

/** What to show a cashier for any failure: the core's own words, or a plain fallback. */
export function describeError(error: unknown): string {
  if (error instanceof BridgeCallError) return error.message;
  return 'Something went wrong. Try again; if it keeps happening, call your manager.';
}

/**
 * Runs a query now and again whenever one of `refreshOn` fires. Keeps the last good value while
 * a refetch runs so screens never flash empty.
 */
export function useQuery<C extends CommandName>(command: C, payload: CommandInput<C>, refreshOn: readonly EventName[] = []) {
  const client = useBridge();
  const [data, setData] = useState<CommandResult<C> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const key = JSON.stringify(payload);
  const events = refreshOn.join(',');

  useEffect(() => {
    let live = true;
    let generation = 0;
    const load = () => {
      // Only the newest answer lands: a slow earlier query never overwrites a newer one.
      const mine = ++generation;
      client.call(command, JSON.parse(key) as CommandInput<C>).then(
        (value) => {
          if (live && mine === generation) {
            setData(value);
            setError(null);
          }
        },
        (caught: unknown) => {
          if (live && mine === generation) setError(describeError(caught));
        },
      );
    };
    load();
    const offs = events === '' ? [] : events.split(',').map((event) => client.on(event as EventName, load));
    return () => {
      live = false;
      offs.forEach((off) => off());
    };
  }, [client, command, key, events]);

  return { data, error };
}

export function useMenu(): { menu: MenuSnapshot | null; error: string | null } {
  const { data, error } = useQuery('menu.snapshot', {}, ['menu.changed']);
  return { menu: data, error };
}

/** The sync status, live from events; `refresh` asks again (opening the panel does). */
export function useSyncStatus(): { status: SyncStatusView | null; refresh: () => void } {
  const client = useBridge();
  const [status, setStatus] = useState<SyncStatusView | null>(null);
  const [asked, setAsked] = useState(0);
  useEffect(() => client.on('sync.status', (next) => setStatus(next)), [client]);
  useEffect(() => {
    let live = true;
    client.call('sync.status', {}).then(
      (value) => live && setStatus(value),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, asked]);
  return { status, refresh: () => setAsked((n) => n + 1) };
}

/** The app updater's state (the Electron shell sends it; browser mode never does). */
export function useUpdateStatus(): UpdateStatus | null {
  const client = useBridge();
  const [status, setStatus] = useState<UpdateStatus | null>(null);
  useEffect(() => client.on('update.status', setStatus), [client]);
  return status;
}

export function useEventStreamConnected(): boolean {
  const client = useBridge();
  const [connected, setConnected] = useState(true);
  useEffect(() => client.onConnection(setConnected), [client]);
  return connected;
}

/**
 * Keyboard shortcuts for a screen, ignored while a modal dialog is open. Keys are named as the
 * hints on the buttons show them: "F8", "Alt+2", "Alt+D". Taken so far: Alt+1…7 (screens, App, each its own whoever signs in);
 * F2, /, F4, F7, F8, F9, +, −, Alt+D, Alt+T (Register).
 */
export function useShortcuts(map: Record<string, (event: KeyboardEvent) => void>, active = true): void {
  const latest = useRef(map);
  // Layout effects: the handlers of the render on screen are the ones a key reaches, even a key
  // pressed right after a render (a passive effect could still hold the previous render's, or none).
  useLayoutEffect(() => {
    latest.current = map;
  });
  useLayoutEffect(() => {
    if (!active) return;
    const onKey = (event: KeyboardEvent) => {
      if (document.querySelector('dialog[open]')) return;
      // Printable keys belong to whatever field has focus ("-" in a phone number is not "one less").
      const target = event.target as HTMLElement | null;
      const typing = target !== null && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' || target.isContentEditable);
      if (typing && event.key.length === 1 && !event.altKey && !event.ctrlKey) return;
      // With Alt or Ctrl a letter is named by its key ("Alt+D"), whatever Caps Lock, the layout or macOS's Option make it type.
      const modified = event.altKey || event.ctrlKey;
      const letter = modified ? (/^Key([A-Z])$/.exec(event.code)?.[1] ?? (/^[a-z]$/i.test(event.key) ? event.key.toUpperCase() : undefined)) : undefined;
      const name = `${event.altKey ? 'Alt+' : ''}${event.ctrlKey ? 'Ctrl+' : ''}${letter ?? event.key}`;
      const handler = latest.current[name];
      if (handler) {
        event.preventDefault();
        handler(event);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [active]);
}
