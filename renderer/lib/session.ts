// Who is at the till, and what they may do. One session for the whole page (SessionProvider in
// App): fetched once, kept live by the core's 'staff.session' event, asked again after a reset or
// whenever the core refuses a command because no one is signed in. Components rendered outside the
// provider (a screen in a test) ask the core themselves with the same hook.
import { createContext, createElement, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { StaffSession } from '../../bridge/staff/contract';
import { leastRoleFor, PERMISSIONS, type Permission } from '../../bridge/staff/roles';
import { BridgeCallError, type BridgeClient } from './bridge-client';
import { BridgeContext, describeError, useBridge } from './hooks';

export interface SessionState {
  /** null until the core first answers. */
  session: StaffSession | null;
  /** When PIN entry opens again (Date.now() time), from the session's lockedOutForMs as it arrived; null when open. */
  lockedOutUntil: number | null;
  error: string | null;
  /** Whether the signed-in person may do it themselves (false while no one is signed in). */
  can: (permission: Permission) => boolean;
  /** Asks the core again. */
  refresh: () => void;
  /** Takes a session the core just answered with (sign-in, lock, set-up) without asking again. */
  apply: (session: StaffSession) => void;
}

const SessionContext = createContext<SessionState | null>(null);

/** "Manager PIN to approve", or "Owner PIN to approve" for what only the owner may do. */
export function approvalLabel(permission: Permission): string {
  return leastRoleFor(permission) === 'owner' ? 'Owner PIN to approve' : 'Manager PIN to approve';
}

/**
 * Said next to the approval PIN when the action is asked for before anyone approved it: the words
 * the core would refuse it with (main/core/staff/desk.ts), said before any question is asked.
 */
export function approvalAskedText(permission: Permission): string {
  return `${PERMISSIONS[permission]} needs ${leastRoleFor(permission) === 'owner' ? 'the owner' : 'a manager'}: they can approve it with their PIN.`;
}

/** An approval PIN as the core takes it. */
export const APPROVAL_PIN_FORM = /^\d{4,8}$/;

/**
 * What an action guarded by `permission` needs from the screen: `needed` when the signed-in
 * person may not do it alone (someone who may enters their PIN), with the field's label.
 */
export function useApproval(permission: Permission): { needed: boolean; label: string } {
  const { session, can } = useSession();
  // Until the session is known, nothing is asked: the core refuses with needs_manager if it must.
  return { needed: session !== null && !can(permission), label: approvalLabel(permission) };
}

function useSessionState(client: BridgeClient, enabled: boolean): SessionState {
  const [state, setState] = useState<{ session: StaffSession | null; lockedOutUntil: number | null }>({ session: null, lockedOutUntil: null });
  const [error, setError] = useState<string | null>(null);
  const generation = useRef(0);
  const setSession = useCallback((value: StaffSession) => {
    // The wait is counted from when the core said it, whenever the screen shows it.
    setState({ session: value, lockedOutUntil: value.lockedOutForMs !== null && value.lockedOutForMs > 0 ? Date.now() + value.lockedOutForMs : null });
  }, []);

  const refresh = useCallback(() => {
    if (!enabled) return;
    const mine = ++generation.current;
    client.call('staff.session', {}).then(
      (value) => {
        if (mine !== generation.current) return;
        setSession(value);
        setError(null);
      },
      (caught: unknown) => {
        if (mine === generation.current) setError(describeError(caught));
      },
    );
  }, [client, enabled, setSession]);

  const apply = useCallback(
    (value: StaffSession) => {
      // An answer in hand beats any query still on its way.
      generation.current += 1;
      setSession(value);
      setError(null);
    },
    [setSession],
  );

  useEffect(() => {
    if (!enabled) return;
    refresh();
    const offSession = client.on('staff.session', apply);
    const offReset = client.on('terminal.reset', refresh);
    return () => {
      offSession();
      offReset();
      generation.current += 1;
    };
  }, [client, enabled, refresh, apply]);

  const { session, lockedOutUntil } = state;
  const permissions = session?.signedIn ? session.permissions : null;
  const can = useCallback((permission: Permission) => permissions?.includes(permission) ?? false, [permissions]);
  return useMemo(() => ({ session, lockedOutUntil, error, can, refresh, apply }), [session, lockedOutUntil, error, can, refresh, apply]);
}

/** The session: the page's one (inside SessionProvider) or, outside it, this component's own. */
export function useSession(): SessionState {
  const shared = useContext(SessionContext);
  const own = useSessionState(useBridge(), shared === null);
  return shared ?? own;
}

/** The same client, telling `onSignedOut` whenever the core refuses a command because no one is signed in. */
export function watchSignIn(client: BridgeClient, onSignedOut: () => void): BridgeClient {
  return {
    async call(command, payload) {
      try {
        return await client.call(command, payload);
      } catch (caught) {
        if (caught instanceof BridgeCallError && caught.code === 'needs_sign_in') onSignedOut();
        throw caught;
      }
    },
    on: (event, listener) => client.on(event, listener),
    onConnection: (listener) => client.onConnection(listener),
  };
}

/**
 * The page's session, shared by every screen; the screens below get a client that brings the lock
 * screen back (by asking the session again) as soon as a command finds the till locked.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const outer = useBridge();
  const state = useSessionState(outer, true);
  const { refresh } = state;
  const client = useMemo(() => watchSignIn(outer, refresh), [outer, refresh]);
  return createElement(BridgeContext.Provider, { value: client }, createElement(SessionContext.Provider, { value: state }, children));
}

/** How often, at most, the till tells the core someone is still using it. */
export const ACTIVITY_EVERY_MS = 20_000;
const INPUT_EVENTS = ['pointerdown', 'keydown'] as const;

/**
 * While someone is signed in: touches and keys report use to the core ('staff.activity', at most
 * every 20 s, the last one always sent), and after `session.autoLockMs` without any the till locks
 * itself ('staff.lock').
 */
export function useIdleLock(): void {
  const client = useBridge();
  const { session, apply } = useSession();
  const signedInId = session?.signedIn?.id ?? null;
  const autoLockMs = session?.autoLockMs ?? 0;

  useEffect(() => {
    if (signedInId === null) return;
    const time = () => Date.now();
    // Signing in was use: the core counts from then.
    let lastInput = time();
    let lastSent = lastInput;
    let trailing: ReturnType<typeof setTimeout> | null = null;
    let lockTimer: ReturnType<typeof setTimeout> | null = null;
    let stopped = false;

    const send = () => {
      trailing = null;
      lastSent = time();
      client.call('staff.activity', {}).then(
        (value) => !stopped && apply(value),
        () => undefined,
      );
    };
    const scheduleLock = (delay: number) => {
      if (autoLockMs <= 0) return;
      if (lockTimer !== null) clearTimeout(lockTimer);
      lockTimer = setTimeout(checkIdle, Math.max(0, delay));
    };
    function checkIdle() {
      lockTimer = null;
      const idle = time() - lastInput;
      if (idle < autoLockMs) {
        scheduleLock(autoLockMs - idle);
        return;
      }
      stopped = true;
      if (trailing !== null) clearTimeout(trailing);
      client.call('staff.lock', {}).then(apply, () => undefined);
    }
    const onInput = () => {
      lastInput = time();
      const since = lastInput - lastSent;
      if (since >= ACTIVITY_EVERY_MS) send();
      else if (trailing === null) trailing = setTimeout(send, ACTIVITY_EVERY_MS - since);
    };

    scheduleLock(autoLockMs);
    for (const type of INPUT_EVENTS) window.addEventListener(type, onInput, { capture: true, passive: true });
    return () => {
      stopped = true;
      for (const type of INPUT_EVENTS) window.removeEventListener(type, onInput, { capture: true });
      if (trailing !== null) clearTimeout(trailing);
      if (lockTimer !== null) clearTimeout(lockTimer);
    };
  }, [client, apply, signedInId, autoLockMs]);
}
