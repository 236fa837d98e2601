import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import type { StaffSession } from '../../bridge/staff/contract';
import { STAFF_PIN, weakPinReason } from '../../bridge/staff/roles';
import { ErrorNote } from '../components/Dialog';
import { describedBy, FieldError } from '../components/FieldError';
import { describeError, useBridge } from '../lib/hooks';
import { splitRefusal } from '../lib/issues';
import { useSession } from '../lib/session';
import { StaffNameField } from '../components/StaffNameField';

const MAX_PIN = 8;
const MIN_PIN = 4;

function itemsText(count: number): string {
  return `${count} ${count === 1 ? 'item' : 'items'}`;
}

/**
 * What the till shows while no one is signed in: on the first run the owner's set-up, otherwise
 * the PIN keypad. `ticketItems`: units on the ticket being rung up, which stays for whoever signs in.
 */
export function LockScreen({ session, ticketItems, locationName }: { session: StaffSession; ticketItems: number; locationName: string }) {
  return (
    <main className="lock-screen">
      <div className="lock-card">
        {locationName ? <p className="lock-location">{locationName}</p> : null}
        {session.setupNeeded ? <SetupOwner /> : <PinSignIn />}
        {ticketItems > 0 ? (
          <p className="lock-ticket" data-testid="lock-ticket">
            A ticket with {itemsText(ticketItems)} is open: it stays for whoever signs in.
          </p>
        ) : null}
      </div>
    </main>
  );
}

/**
 * Seconds left of a lockout the core announced (`until`, a Date.now() time; `wholeMs`, how long it
 * said), ticking; `onOver` when it is over.
 */
function useLockout(until: number | null, wholeMs: number, onOver: () => void): number {
  const [tick, setTick] = useState<{ until: number; now: number } | null>(null);
  const over = useRef(onOver);
  useEffect(() => {
    over.current = onOver;
  });
  useEffect(() => {
    if (until === null) return;
    const update = () => {
      const at = Date.now();
      setTick({ until, now: at });
      if (at >= until) {
        clearInterval(timer);
        over.current();
      }
    };
    const first = setTimeout(update, 0);
    const timer = setInterval(update, 250);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [until]);
  if (until === null) return 0;
  // Before the first tick of this lockout, the whole wait is left.
  const left = tick?.until === until ? until - tick.now : wholeMs;
  return Math.max(0, Math.ceil(left / 1000));
}

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'] as const;

/**
 * Sign-in by PIN alone: a keypad for touch, the digits, Backspace and Enter for a keyboard. While
 * PIN entry waits after too many wrong PINs, the owner can lift the wait with their PIN on the same
 * keypad (staff.liftLockout: a few tries of its own; any other PIN is refused as wrong).
 */
function PinSignIn() {
  const client = useBridge();
  const { session, apply, refresh, lockedOutUntil } = useSession();
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [ownerLift, setOwnerLift] = useState(false);
  const errorId = useId();
  const secondsLeft = useLockout(lockedOutUntil, session?.lockedOutForMs ?? 0, () => {
    setError(null);
    setOwnerLift(false);
    refresh();
  });
  const locked = secondsLeft > 0;
  const lifting = locked && ownerLift;
  const entryOff = (locked && !lifting) || busy;

  const press = useCallback(
    (digit: string) => {
      setError(null);
      setPin((current) => (current.length >= MAX_PIN ? current : current + digit));
    },
    [],
  );
  const back = useCallback(() => setPin((current) => current.slice(0, -1)), []);
  const clear = useCallback(() => {
    setPin('');
    setError(null);
  }, []);

  const signIn = useCallback(async () => {
    if (busy || (locked && !lifting) || !STAFF_PIN.test(pin)) return;
    setBusy(true);
    setError(null);
    try {
      // The one call: its answer is the session the screens open on (the owner's, after a lift).
      apply(await client.call(lifting ? 'staff.liftLockout' : 'staff.signIn', { pin }));
    } catch (caught) {
      setPin('');
      setError(describeError(caught));
      setBusy(false);
      // A lockout may have started: the session says for how long.
      refresh();
    }
  }, [apply, busy, client, lifting, locked, pin, refresh]);

  const latest = useRef({ press, back, clear, signIn, entryOff });
  // Layout effects, not passive ones: they run in the commit that shows the keypad, so a digit
  // typed as soon as the screen appears is never dropped before the listener is there.
  useLayoutEffect(() => {
    latest.current = { press, back, clear, signIn, entryOff };
  });
  useLayoutEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const keys = latest.current;
      if (/^[0-9]$/.test(event.key)) {
        event.preventDefault();
        if (!keys.entryOff) keys.press(event.key);
      } else if (event.key === 'Backspace') {
        event.preventDefault();
        if (!keys.entryOff) keys.back();
      } else if (event.key === 'Escape' || event.key === 'Delete') {
        event.preventDefault();
        if (!keys.entryOff) keys.clear();
      } else if (event.key === 'Enter') {
        // Enter never also presses the keypad button that has the focus.
        event.preventDefault();
        void keys.signIn();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void signIn();
  };

  return (
    <form className="pin-sign-in" onSubmit={submit} aria-label="Sign in">
      <h1>Sign in</h1>
      <p className="muted">Enter your PIN on the keypad or the keyboard.</p>
      <div className="pin-display" role="group" aria-label="PIN" aria-describedby={error && !locked ? errorId : undefined}>
        <p className="pin-dots" data-testid="pin-dots" data-count={pin.length} aria-live="polite">
          <span aria-hidden="true">
            {Array.from({ length: Math.max(MIN_PIN, pin.length) }, (_, i) => (
              <span key={i} className={i < pin.length ? 'pin-dot filled' : 'pin-dot'} />
            ))}
          </span>
          <span className="visually-hidden">{pin.length === 1 ? '1 digit entered' : `${pin.length} digits entered`}</span>
        </p>
      </div>
      {/* While PIN entry waits, the countdown says why (the core's refusal said the same). */}
      <FieldError id={errorId} message={locked && !lifting ? null : error} />
      {locked ? (
        <p className="warning-note lockout" role="status" data-testid="lockout">
          Too many wrong PINs. Try again in {secondsLeft} s.
          {lifting ? ' Owner: type your PIN to lift the wait.' : null}
        </p>
      ) : null}
      {locked ? (
        <button
          type="button"
          className="secondary"
          data-testid="owner-lift"
          onClick={() => {
            setOwnerLift(!lifting);
            setPin('');
            setError(null);
          }}
        >
          {lifting ? 'Cancel' : 'Owner: lift the wait'}
        </button>
      ) : null}
      <div className="keypad" role="group" aria-label="Keypad">
        {KEYS.map((digit) => (
          <button key={digit} type="button" className="key" disabled={entryOff} onClick={() => press(digit)}>
            {digit}
          </button>
        ))}
        <button type="button" className="key key-small" disabled={entryOff || pin === ''} onClick={clear}>
          Clear
        </button>
        <button type="button" className="key" disabled={entryOff} onClick={() => press('0')}>
          0
        </button>
        <button type="button" className="key key-small" aria-label="Delete last digit" disabled={entryOff || pin === ''} onClick={back}>
          ⌫
        </button>
      </div>
      <button type="submit" className="primary big sign-in" disabled={entryOff || pin.length < MIN_PIN}>
        {busy ? (lifting ? 'Lifting…' : 'Signing in…') : lifting ? 'Lift the wait' : 'Sign in'} <kbd>Enter</kbd>
      </button>
    </form>
  );
}

type SetupField = 'name' | 'pin' | 'repeat';

/** A new PIN's password box under its label, with its refusal right under it. */
function NewPinField({ label, value, onChange, errorId, error }: { label: string; value: string; onChange: (value: string) => void; errorId: string; error: string | null }) {
  return (
    <>
      <label>
        {label}
        <input
          className="big-input"
          type="password"
          inputMode="numeric"
          autoComplete="new-password"
          maxLength={MAX_PIN}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          {...describedBy(errorId, error)}
        />
      </label>
      <FieldError id={errorId} message={error} />
    </>
  );
}

/** The first run: the owner's name and PIN, before anything else. There is no PIN-less default. */
function SetupOwner() {
  const client = useBridge();
  const { apply } = useSession();
  const [name, setName] = useState('');
  const [pin, setPin] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<Partial<Record<SetupField, string>>>({});
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { name: useId(), pin: useId(), repeat: useId() };
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), [errors]);
  const fieldError = (field: SetupField) => errors[field] ?? null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setNote(null);
    const found: Partial<Record<SetupField, string>> = {};
    if (name.trim() === '') found.name = 'Give your name: it names what you do at the till.';
    const weak = weakPinReason(pin);
    if (weak) found.pin = weak;
    else if (repeat !== pin) found.repeat = 'The two PINs are not the same. Type it again.';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      apply(await client.call('staff.setupOwner', { name: name.trim(), pin }));
    } catch (caught) {
      const refusal = splitRefusal(caught, ['name', 'pin'] as const);
      setErrors(refusal.fields);
      setNote(refusal.note);
      setBusy(false);
    }
  };

  return (
    <form className="setup-owner" onSubmit={(event) => void submit(event)} aria-label="Set up the owner" ref={formRef} noValidate>
      <h1>Set up the owner</h1>
      <p>
        This terminal has no staff yet. The owner signs in first, then adds everyone else on the Staff screen. There is no default PIN and no way in without
        one: choose a PIN of 4 to 8 digits that is not easy to guess, and keep it to yourself.
      </p>
      <StaffNameField label="Your name" value={name} onChange={setName} error={fieldError('name')} errorId={ids.name} focus={{ autoFocus: true }} />
      <NewPinField label="PIN (4 to 8 digits)" value={pin} onChange={setPin} errorId={ids.pin} error={fieldError('pin')} />
      <NewPinField label="PIN again" value={repeat} onChange={setRepeat} errorId={ids.repeat} error={fieldError('repeat')} />
      <ErrorNote message={note} />
      <div className="dialog-actions">
        <button type="submit" className="primary big" disabled={busy}>
          {busy ? 'Setting up…' : 'Set up and sign in'}
        </button>
      </div>
    </form>
  );
}
