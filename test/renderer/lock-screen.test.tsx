// @vitest-environment happy-dom
// The lock screen and sign-in as the whole app shows them, on a real core with the test staff: the
// first run asks for the owner (no PIN-less default), sign-in by the keypad and by the keyboard, a
// wrong PIN said next to the PIN, the lockout counted down with entry disabled, the tabs a role may
// see (Alt+n following them), the lock (button and Alt+L) keeping the ticket being rung up for
// whoever signs in next, a lock from the core bringing the lock screen back; then, on a stub
// client, the idle helper (activity at most every 20 s, the lock after the idle time) and the
// client that asks for the session again when a command finds the till locked.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StaffSession } from '../../bridge/staff/contract';
import { weakPinReason } from '../../bridge/staff/roles';
import { App } from '../../renderer/App';
import { BridgeCallError, type BridgeClient } from '../../renderer/lib/bridge-client';
import { BridgeContext } from '../../renderer/lib/hooks';
import { SessionProvider, useIdleLock, useSession, watchSignIn } from '../../renderer/lib/session';
import { ITEMS, STAFF } from '../core/fixtures';
import { coreForEachTest, renderWith } from './with-core';

const { start: withCore, core } = coreForEachTest();

/** The message a field points at (aria-describedby), if it is an alert. */
function fieldError(input: HTMLElement): string | null {
  const note = document.getElementById(input.getAttribute('aria-describedby') ?? '');
  return note?.getAttribute('role') === 'alert' ? note.textContent : null;
}

type SignInAs = 'owner' | 'manager' | 'cashier' | 'cashier2' | null;

async function renderApp(signIn: SignInAs, config?: Parameters<typeof withCore>[0]): Promise<BridgeClient> {
  const client = await withCore(config, undefined, { signIn });
  renderWith(client, <App />);
  return client;
}

const keypad = () => within(screen.getByRole('group', { name: 'Keypad' }));
const dots = () => Number(screen.getByTestId('pin-dots').getAttribute('data-count'));
const signInButton = () => screen.getByRole('button', { name: /^Sign in/ });
const type = (keys: string) => {
  for (const key of keys) fireEvent.keyDown(document.body, { key });
};
const tabs = () => within(screen.getByRole('navigation', { name: 'Screens' })).getAllByRole('button').map((b) => b.textContent);
const tile = (id: string) => document.querySelector(`.menu-grid .tile[data-item-id="${id}"]`) as HTMLElement;

async function signedInAs(name: string, role: string) {
  const bar = await screen.findByTestId('staff-bar');
  await waitFor(() => expect(bar.textContent).toContain(name));
  expect(bar.textContent).toContain(role);
}

describe('the first run', () => {
  it('asks for the owner before anything else, refuses an easy or mistyped PIN next to its field, then signs the owner in', async () => {
    await renderApp(null, { staff: { members: [] } });
    await screen.findByRole('heading', { name: 'Set up the owner' });
    expect(screen.getByText(/There is no default PIN and no way in without one/)).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Screens' })).toBeNull();
    const name = screen.getByLabelText('Your name');
    const pin = screen.getByLabelText('PIN (4 to 8 digits)');
    const again = screen.getByLabelText('PIN again');
    const submit = screen.getByRole('button', { name: 'Set up and sign in' });

    fireEvent.click(submit);
    await waitFor(() => expect(fieldError(name)).toBe('Give your name: it names what you do at the till.'));
    fireEvent.change(name, { target: { value: 'Olga Owner' } });
    fireEvent.change(pin, { target: { value: '1111' } });
    fireEvent.change(again, { target: { value: '1111' } });
    fireEvent.click(submit);
    await waitFor(() => expect(fieldError(pin)).toBe(weakPinReason('1111')));
    fireEvent.change(pin, { target: { value: '3971' } });
    fireEvent.change(again, { target: { value: '3917' } });
    fireEvent.click(submit);
    await waitFor(() => expect(fieldError(again)).toBe('The two PINs are not the same. Type it again.'));
    expect((await core().call('staff.session', {})).setupNeeded).toBe(true);

    fireEvent.change(again, { target: { value: '3971' } });
    fireEvent.click(submit);
    await signedInAs('Olga Owner', 'Owner');
    expect(tabs()).toEqual(['Register Alt+1', 'Tables Alt+8', 'Orders Alt+2', 'Menu Alt+3', 'Shift Alt+4', 'Reports Alt+5', 'Staff Alt+6', 'Settings Alt+7']);

    // A reset wipes the staff with everything else: the first run starts again.
    await core().call('terminal.reset', { confirmPendingLoss: true });
    await screen.findByRole('heading', { name: 'Set up the owner' });
  });
});

describe('signing in', () => {
  it('by the keypad: masked dots, Clear and ⌫, then a cashier sees no Reports or Staff tab', async () => {
    await renderApp(null);
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(screen.queryByTestId('lock-ticket')).toBeNull();
    expect((signInButton() as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(keypad().getByRole('button', { name: '9' }));
    fireEvent.click(keypad().getByRole('button', { name: '9' }));
    expect(dots()).toBe(2);
    expect(screen.getByTestId('pin-dots').textContent).toContain('2 digits entered');
    expect(screen.getByTestId('pin-dots').textContent).not.toContain('9');
    fireEvent.click(keypad().getByRole('button', { name: 'Delete last digit' }));
    expect(dots()).toBe(1);
    fireEvent.click(keypad().getByRole('button', { name: 'Clear' }));
    expect(dots()).toBe(0);
    for (const digit of STAFF.cashier.pin) fireEvent.click(keypad().getByRole('button', { name: digit }));
    expect(dots()).toBe(4);
    fireEvent.click(signInButton());
    await signedInAs(STAFF.cashier.name, 'Cashier');
    expect(tabs()).toEqual(['Register Alt+1', 'Tables Alt+8', 'Orders Alt+2', 'Menu Alt+3', 'Shift Alt+4', 'Settings Alt+7']);
    // Each screen keeps its key whoever signs in: Alt+5 (Reports) says who may open it, Alt+7 is Settings.
    fireEvent.keyDown(window, { key: '5', code: 'Digit5', altKey: true });
    expect((await screen.findByTestId('screen-key-refusal')).textContent).toBe('Reports (Alt+5) needs a manager: ask one to sign in.');
    fireEvent.keyDown(window, { key: '7', code: 'Digit7', altKey: true });
    await screen.findByTestId('ask-manager');
  });

  it('by the keyboard: digits, Backspace and Enter; a manager gets Reports and Staff, their Alt+n in order', async () => {
    await renderApp(null);
    await screen.findByRole('heading', { name: 'Sign in' });
    type('12');
    fireEvent.keyDown(document.body, { key: 'Backspace' });
    fireEvent.keyDown(document.body, { key: 'Backspace' });
    expect(dots()).toBe(0);
    type(STAFF.manager.pin);
    expect(dots()).toBe(4);
    fireEvent.keyDown(document.body, { key: 'Enter' });
    await signedInAs(STAFF.manager.name, 'Manager');
    expect(tabs()).toEqual(['Register Alt+1', 'Tables Alt+8', 'Orders Alt+2', 'Menu Alt+3', 'Shift Alt+4', 'Reports Alt+5', 'Staff Alt+6', 'Settings Alt+7']);
    fireEvent.keyDown(window, { key: '6', code: 'Digit6', altKey: true });
    await screen.findByRole('form', { name: 'Add a staff member' });
    expect(screen.getByRole('button', { name: /^Staff/ }).getAttribute('aria-current')).toBe('page');
  });

  it('says "That PIN is not right." next to the PIN and clears it; any key starts again', async () => {
    await renderApp(null);
    await screen.findByRole('heading', { name: 'Sign in' });
    type('1357');
    fireEvent.keyDown(document.body, { key: 'Enter' });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('That PIN is not right.');
    expect(screen.getByRole('group', { name: 'PIN' }).getAttribute('aria-describedby')).toBe(alert.id);
    expect(dots()).toBe(0);
    type('4');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(dots()).toBe(1);
    expect((await core().call('staff.session', {})).signedIn).toBeNull();
  });

  it('after 5 wrong PINs counts the wait down with entry disabled', async () => {
    await renderApp(null);
    await screen.findByRole('heading', { name: 'Sign in' });
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      type('1357');
      fireEvent.keyDown(document.body, { key: 'Enter' });
      if (attempt < 5) await waitFor(() => expect(screen.queryByRole('alert')?.textContent).toBe('That PIN is not right.'));
    }
    const lockout = await screen.findByTestId('lockout');
    const seconds = () => Number(/Try again in (\d+) s\./.exec(screen.getByTestId('lockout').textContent ?? '')?.[1]);
    expect(lockout.textContent).toMatch(/^Too many wrong PINs\. Try again in \d+ s\.$/);
    expect(seconds()).toBeGreaterThan(25);
    expect(seconds()).toBeLessThanOrEqual(30);
    for (const digit of '0123456789') expect((keypad().getByRole('button', { name: digit }) as HTMLButtonElement).disabled).toBe(true);
    expect((signInButton() as HTMLButtonElement).disabled).toBe(true);
    type(STAFF.manager.pin);
    expect(dots()).toBe(0);
    const first = seconds();
    await waitFor(() => expect(seconds()).toBeLessThan(first), { timeout: 2500 });
  });

  it('lets the owner lift the wait with their PIN on the same keypad (another PIN is a wrong one); the Staff screen tells of the wrong PINs', async () => {
    await renderApp(null);
    await screen.findByRole('heading', { name: 'Sign in' });
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      type('1357');
      fireEvent.keyDown(document.body, { key: 'Enter' });
      if (attempt < 5) await waitFor(() => expect(screen.queryByRole('alert')?.textContent).toBe('That PIN is not right.'));
    }
    await screen.findByTestId('lockout');
    fireEvent.click(screen.getByRole('button', { name: 'Owner: lift the wait' }));
    expect(screen.getByTestId('lockout').textContent).toContain('Owner: type your PIN to lift the wait.');
    expect((keypad().getByRole('button', { name: '1' }) as HTMLButtonElement).disabled).toBe(false);
    type(STAFF.manager.pin);
    fireEvent.keyDown(document.body, { key: 'Enter' });
    await waitFor(() => expect(screen.queryByRole('alert')?.textContent).toBe('That PIN is not right.'));
    type(STAFF.owner.pin);
    fireEvent.click(screen.getByRole('button', { name: /^Lift the wait/ }));
    await signedInAs(STAFF.owner.name, 'Owner');
    expect((await core().call('staff.session', {})).lockedOutForMs).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: /^Staff/ }));
    await screen.findByRole('heading', { name: 'Staff', level: 2 });
    expect((await screen.findByTestId('pin-guessing')).textContent).toMatch(/^6 wrong PINs since .+: someone may be guessing PINs\./);
  });
});

describe('locking', () => {
  it('keeps the ticket being rung up for whoever signs in next (Lock button, then Alt+L)', async () => {
    await renderApp('cashier');
    await signedInAs(STAFF.cashier.name, 'Cashier');
    await waitFor(() => expect(tile(ITEMS.burger)).toBeTruthy());
    fireEvent.click(tile(ITEMS.burger));
    fireEvent.click(tile(ITEMS.burger));
    fireEvent.click(tile(ITEMS.fries));
    const total = screen.getByTestId('ticket-total').textContent;

    fireEvent.click(screen.getByRole('button', { name: /Lock \/ Switch staff/ }));
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(screen.getByTestId('lock-ticket').textContent).toBe('A ticket with 3 items is open: it stays for whoever signs in.');
    expect((await core().call('staff.session', {})).signedIn).toBeNull();

    type(STAFF.manager.pin);
    fireEvent.keyDown(document.body, { key: 'Enter' });
    await signedInAs(STAFF.manager.name, 'Manager');
    expect(screen.getByTestId('ticket-total').textContent).toBe(total);
    expect(within(screen.getByRole('region', { name: 'Ticket' })).getByText('Burger')).toBeTruthy();

    fireEvent.keyDown(window, { key: 'l', code: 'KeyL', altKey: true });
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(screen.getByTestId('lock-ticket').textContent).toBe('A ticket with 3 items is open: it stays for whoever signs in.');
  });

  it('shows the lock screen as soon as the core locks (the idle lock, or another window)', async () => {
    await renderApp('owner');
    await signedInAs(STAFF.owner.name, 'Owner');
    await core().call('staff.lock', {});
    await screen.findByRole('heading', { name: 'Sign in' });
  });
});

// ---- the idle helper and the signed-out watch, on a stub client ----

const ADA = { id: 'stf_ada', name: 'Ada', role: 'cashier' as const, active: true, provisioned: false };
function session(signedIn: boolean, autoLockMs: number): StaffSession {
  return { signedIn: signedIn ? ADA : null, permissions: [], setupNeeded: false, lockedOutForMs: null, autoLockMs, drawerMode: 'shared' };
}

function stubClient(autoLockMs: number) {
  const calls: { command: string; at: number }[] = [];
  let current = session(true, autoLockMs);
  const client: BridgeClient = {
    call: (async (command: string) => {
      calls.push({ command, at: Date.now() });
      if (command === 'staff.lock') current = session(false, autoLockMs);
      if (command === 'orders.list') throw new BridgeCallError({ code: 'needs_sign_in', message: 'Sign in with your PIN first.' });
      return current;
    }) as BridgeClient['call'],
    on: () => () => undefined,
    onConnection: () => () => undefined,
  };
  return { client, calls, count: (command: string) => calls.filter((c) => c.command === command).length };
}

function Probe() {
  useIdleLock();
  const { session } = useSession();
  return <p data-testid="who">{session === null ? 'loading' : (session.signedIn?.name ?? 'locked')}</p>;
}

/** The probe under the session, on `client`. */
function renderProbe(client: BridgeClient) {
  render(
    <BridgeContext.Provider value={client}>
      <SessionProvider>
        <Probe />
      </SessionProvider>
    </BridgeContext.Provider>,
  );
}

describe('the idle helper', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

  it('reports use at most every 20 s (the last touch always) and locks after the idle time', async () => {
    vi.useFakeTimers();
    const stub = stubClient(60_000);
    renderProbe(stub.client);
    await advance(0);
    expect(screen.getByTestId('who').textContent).toBe('Ada');
    const start = Date.now();

    await advance(10_000);
    fireEvent.pointerDown(document.body);
    fireEvent.keyDown(document.body, { key: 'a' });
    expect(stub.count('staff.activity')).toBe(0);
    await advance(10_000); // 20 s after the sign-in: the touches are reported once
    expect(stub.count('staff.activity')).toBe(1);
    await advance(5_000);
    fireEvent.keyDown(document.body, { key: 'b' }); // at 25 s
    await advance(14_000);
    expect(stub.count('staff.activity')).toBe(1);
    await advance(1_000); // 20 s after the last report
    expect(stub.count('staff.activity')).toBe(2);

    // 60 s after the last key (at 25 s): locked, not a moment before.
    await advance(start + 84_000 - Date.now());
    expect(stub.count('staff.lock')).toBe(0);
    await advance(2_000);
    expect(stub.count('staff.lock')).toBe(1);
    expect(screen.getByTestId('who').textContent).toBe('locked');
    await advance(120_000);
    expect(stub.count('staff.lock')).toBe(1);
  });

  it('never locks by itself when the auto-lock is off (0)', async () => {
    vi.useFakeTimers();
    const stub = stubClient(0);
    renderProbe(stub.client);
    await advance(60 * 60_000);
    expect(stub.count('staff.lock')).toBe(0);
    expect(screen.getByTestId('who').textContent).toBe('Ada');
  });

  it('asks for the session again when a command finds the till locked', async () => {
    const stub = stubClient(0);
    let signedOut = 0;
    const watched = watchSignIn(stub.client, () => (signedOut += 1));
    await expect(watched.call('orders.list', {})).rejects.toMatchObject({ code: 'needs_sign_in' });
    expect(signedOut).toBe(1);
    await watched.call('staff.session', {});
    expect(signedOut).toBe(1);
  });
});
