// What the Shift and Reports screens share: the drawer's shift kept live, and how a count's result
// and an approval refusal are put to the person at the till.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ShiftView } from '../../bridge/staff/contract';
import { BridgeCallError } from './bridge-client';
import { money } from './format';
import { describeError, useBridge } from './hooks';

/** "Over $2.00", "Short $1.50" or "Balanced": counted − expected as a person says it. */
export function overShortText(overShort: number, currency: string): string {
  if (overShort > 0) return `Over ${money(overShort, currency)}`;
  if (overShort < 0) return `Short ${money(-overShort, currency)}`;
  return 'Balanced';
}

export function overShortClass(overShort: number | null): string {
  if (overShort === null) return 'over-short';
  return overShort === 0 ? 'over-short balanced' : overShort > 0 ? 'over-short over' : 'over-short short';
}

/** An approving PIN as the contract takes it. */
export const APPROVAL_PIN = /^\d{4,8}$/;

/** The core's sentence when the command needs someone else's PIN (or the PIN given was not right). */
export function approvalRefusal(caught: unknown): string | null {
  return caught instanceof BridgeCallError && caught.code === 'needs_manager' ? caught.message : null;
}

/** The core's sentence about one field of the payload (`invalid_command` issues), if any. */
export function issueAt(caught: unknown, ...paths: string[]): string | null {
  if (!(caught instanceof BridgeCallError)) return null;
  return caught.issues?.find((issue) => paths.some((path) => issue.path === path || issue.path.startsWith(`${path}.`)))?.message ?? null;
}

export type CurrentShift = { loaded: false; shift: null } | { loaded: true; shift: ShiftView | null };

/**
 * The shift of the drawer the signed-in person works, asked again whenever a shift, an order or
 * who is signed in changes; `take` keeps a view a command just answered with.
 */
export function useCurrentShift(): { current: CurrentShift; error: string | null; take: (shift: ShiftView | null) => void } {
  const client = useBridge();
  const [current, setCurrent] = useState<CurrentShift>({ loaded: false, shift: null });
  const [error, setError] = useState<string | null>(null);
  const generation = useRef(0);

  useEffect(() => {
    let live = true;
    const load = () => {
      const mine = ++generation.current;
      client.call('shift.current', {}).then(
        (shift) => {
          if (!live || mine !== generation.current) return;
          setCurrent({ loaded: true, shift });
          setError(null);
        },
        (caught: unknown) => {
          if (live && mine === generation.current) setError(describeError(caught));
        },
      );
    };
    load();
    const offs = (['shift.changed', 'orders.changed', 'staff.session', 'terminal.reset'] as const).map((event) => client.on(event, load));
    return () => {
      live = false;
      offs.forEach((off) => off());
    };
  }, [client]);

  const take = useCallback((shift: ShiftView | null) => {
    // An answer in hand beats any query still on its way.
    generation.current += 1;
    setCurrent({ loaded: true, shift });
    setError(null);
  }, []);
  return { current, error, take };
}
