// Where the till tells time, in one place: the location's zone and locale from `location.get`, asked
// once per bridge while a screen shows a time, and again when the settings (the location chosen) or
// the menu (a pull that brought the location's record) change. format.ts's functions read it when
// given no place; `useTimePlace` re-renders a screen when it changes.
import { bridgeStore, reloadOn } from './bridge-store';
import { setTimePlace, timePlace, type TimePlace } from './format';

const usePlace = bridgeStore<TimePlace | null>(null, (client, set, get) =>
  reloadOn(
    client,
    ['settings.changed', 'menu.changed', 'terminal.reset'],
    () => client.call('location.get', {}),
    ({ timezone, locale }) => {
      const known = get();
      const place = known?.timezone === timezone && known.locale === locale ? known : { timezone, locale };
      setTimePlace(place);
      set(place);
    },
    // The last place known stays: the screens say their own errors.
    () => undefined,
  ),
);

/** The location's zone and locale (until the core first answers: the last known, else this computer's zone in en-US). */
export function useTimePlace(): TimePlace {
  return usePlace() ?? timePlace();
}
