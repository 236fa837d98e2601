// The floor as the screens know it, one per bridge: fetched while a screen shows it, refetched on
// every change of the floor or of the checks, and kept when the screen closes, so opening the floor
// again draws the last floor at once while the fresh one is asked for (the core answers in
// milliseconds; a table changed in between shows its new state right after).
import type { FloorView } from '../../bridge/tables/contract';
import { bridgeStore, reloadOn } from '../lib/bridge-store';
import { describeError } from '../lib/hooks';

interface FloorState {
  floor: FloorView | null;
  error: string | null;
}

/** The floor (the last one known until the core answers) and the error of the last refresh, if any. */
export const useFloor = bridgeStore<FloorState>({ floor: null, error: null }, (client, set, get) => {
  const stop = reloadOn(
    client,
    ['floor.changed', 'orders.changed'],
    () => client.call('tables.floor', {}),
    (floor) => set({ floor, error: null }),
    (caught) => set({ floor: get().floor, error: describeError(caught) }),
  );
  const reset = client.on('terminal.reset', () => set({ floor: null, error: null }));
  return () => {
    stop();
    reset();
  };
});
