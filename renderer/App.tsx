import { useEffect, useState } from 'react';
import type { Order } from '../bridge/contract';
import { leastRoleFor, type Permission } from '../bridge/staff/roles';
import { ConfirmDialog, ErrorNote } from './components/Dialog';
import { PrinterIndicator } from './components/PrinterIndicator';
import { StaffBar } from './components/StaffBar';
import { SyncIndicator } from './components/SyncIndicator';
import { useBridge, useMenu, useQuery, useShortcuts, useSyncStatus, useUpdateStatus } from './lib/hooks';
import { SessionProvider, useIdleLock, useSession } from './lib/session';
import { emptyTicket, ticketFromOrder, type Ticket } from './lib/ticket';
import { LockScreen } from './screens/LockScreen';
import { MenuManager } from './screens/MenuManager';
import { Orders } from './screens/Orders';
import { Register } from './screens/Register';
import { Reports } from './screens/Reports';
import { Settings } from './screens/Settings';
import { Shift } from './screens/Shift';
import { Staff } from './screens/Staff';
import { FloorScreen } from './tables/FloorScreen';

/**
 * Every screen, its key (the same whoever is signed in: a hand that learnt Alt+5 for Reports never
 * lands on Settings), and the permission it needs to be shown at all (none: everyone at the till).
 */
const SCREENS: readonly { id: string; label: string; key: string; permission?: Permission }[] = [
  { id: 'register', label: 'Register', key: 'Alt+1' },
  { id: 'tables', label: 'Tables', key: 'Alt+8' },
  { id: 'orders', label: 'Orders', key: 'Alt+2' },
  { id: 'menu', label: 'Menu', key: 'Alt+3' },
  { id: 'shift', label: 'Shift', key: 'Alt+4' },
  { id: 'reports', label: 'Reports', key: 'Alt+5', permission: 'reports.view' },
  { id: 'staff', label: 'Staff', key: 'Alt+6', permission: 'staff.manage' },
  { id: 'settings', label: 'Settings', key: 'Alt+7' },
] as const;
type ScreenId = 'register' | 'tables' | 'orders' | 'menu' | 'shift' | 'reports' | 'staff' | 'settings';

/** The till: one staff session for every screen (the lock screen while no one is signed in). */
export function App() {
  return (
    <SessionProvider>
      <Till />
    </SessionProvider>
  );
}

function Till() {
  const [chosen, setScreen] = useState<ScreenId>('register');
  /** The business day the Shift screen asked the report of; a tab opens today's. */
  const [reportDay, setReportDay] = useState<string | undefined>(undefined);
  const go = (id: ScreenId) => {
    setReportDay(undefined);
    setScreen(id);
  };
  const { session, error: sessionError, can } = useSession();
  const signedIn = session?.signedIn ?? null;
  useIdleLock();
  const [ticket, setTicketState] = useState<Ticket>(emptyTicket);
  const { menu, error } = useMenu();
  const { data: location } = useQuery('location.get', {}, ['settings.changed']);
  const { status: sync } = useSyncStatus();
  const appUpdate = useUpdateStatus();
  const client = useBridge();
  // After a reset the ticket's items and the order being edited no longer exist. The reset also
  // locks the till (the staff session went with the store): Settings says it was reset once
  // someone signs in again.
  const [resetDone, setResetDone] = useState(false);
  useEffect(
    () =>
      client.on('terminal.reset', () => {
        setTicketState(emptyTicket);
        setResetDone(true);
      }),
    [client],
  );

  // Only the screens this person may open are shown; each keeps its own key, and a hidden screen's
  // key says who may open it instead of opening another.
  const screens = SCREENS.filter((s) => !s.permission || can(s.permission));
  const screen: ScreenId = screens.some((s) => s.id === chosen) ? chosen : 'register';
  const [keyRefusal, setKeyRefusal] = useState<string | null>(null);
  useShortcuts(
    Object.fromEntries(
      SCREENS.map((s) => [
        s.key,
        () => {
          if (!s.permission || can(s.permission)) {
            setKeyRefusal(null);
            go(s.id as ScreenId);
          } else setKeyRefusal(`${s.label} (${s.key}) ${leastRoleFor(s.permission) === 'owner' ? 'needs the owner' : 'needs a manager'}: ask one to sign in.`);
        },
      ]),
    ),
    signedIn !== null,
  );

  // Closing the tab while changes wait to sync: the browser asks first (Electron asks itself).
  const pending = sync?.pending ?? 0;
  useEffect(() => {
    if (pending === 0) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [pending]);

  /**
   * The order the ticket edits, as the screen that opened it had it (null: a new ticket): the
   * register draws its courses' state with its lines, without asking the core again.
   */
  const [opened, setOpened] = useState<Order | null>(null);
  /** A ticket about to replace one being built that was never sent, with what replaces it in words. */
  const [replacing, setReplacing] = useState<{ next: Ticket; order: Order | null; what: string } | null>(null);
  const openOnRegister = (next: Ticket, order: Order | null) => {
    setTicketState(next);
    setOpened(order);
    setReplacing(null);
    setScreen('register');
  };
  /** Opens `next` on the register; a new ticket with items not sent yet is never dropped without asking. */
  const replaceTicket = (next: Ticket, order: Order | null, what: string) => {
    if (ticket.editingOrderId === null && ticket.lines.length > 0) setReplacing({ next, order, what });
    else openOnRegister(next, order);
  };
  const editOrder = (order: Order) => replaceTicket(ticketFromOrder(order), order, `Opening order ${order.label}`);
  /** A table seated from the floor: a fresh check at that table for that many guests. */
  const startAtTable = (table: string, guests: number) =>
    replaceTicket({ ...emptyTicket, service: { type: 'dine_in', table, guests: String(guests) } }, null, `Starting a check at table ${table}`);
  const unsentItems = ticket.lines.reduce((n, line) => n + line.quantity, 0);

  if (!session) {
    return (
      <main className="lock-screen">
        {sessionError ? <ErrorNote message={sessionError} /> : <p className="muted empty">Starting the till…</p>}
      </main>
    );
  }
  if (!signedIn) {
    // The ticket stays in this component's state: whoever signs in next finds it as it was.
    return <LockScreen session={session} ticketItems={ticket.lines.reduce((n, line) => n + line.quantity, 0)} locationName={location?.name ?? ''} />;
  }

  return (
    <div className="app">
      <header className="topbar">
        <nav className="screens" aria-label="Screens">
          {screens.map((s) => (
            <button
              key={s.id}
              type="button"
              className="screen-tab"
              aria-current={screen === s.id ? 'page' : undefined}
              aria-keyshortcuts={s.key}
              onClick={() => {
                setKeyRefusal(null);
                go(s.id as ScreenId);
              }}
            >
              {s.label} <kbd>{s.key}</kbd>
            </button>
          ))}
        </nav>
        {keyRefusal ? (
          <p className="screen-key-refusal" role="status" data-testid="screen-key-refusal">
            {keyRefusal}
          </p>
        ) : null}
        {appUpdate && appUpdate.phase !== 'idle' ? (
          <span className="update-status" role="status">
            {appUpdate.message}
          </span>
        ) : null}
        <StaffBar member={signedIn} />
        {/* Together at the right; when the row is full they move to a second row together. */}
        <div className="topbar-status">
          <span className="location-name">{location?.name ?? ''}</span>
          <PrinterIndicator />
          <SyncIndicator />
        </div>
      </header>
      <main className="content">
        <h1 className="visually-hidden">{SCREENS.find((s) => s.id === screen)?.label}</h1>
        {!menu ? (
          error ? <ErrorNote message={error} /> : <p className="muted empty">Loading the menu…</p>
        ) : (
          // The register stays mounted, hidden, while another screen shows: opening a check from the
          // floor or Orders then only swaps its ticket, with nothing to mount or fetch first.
          <Register menu={menu} ticket={ticket} setTicket={setTicketState} order={opened} active={screen === 'register'} />
        )}
        {!menu || screen === 'register' ? null : screen === 'tables' ? (
          <FloorScreen currency={menu.currency} onStart={startAtTable} onOpen={editOrder} />
        ) : screen === 'orders' ? (
          <Orders onEdit={editOrder} checkout={menu.checkout} />
        ) : screen === 'menu' ? (
          <MenuManager menu={menu} />
        ) : screen === 'shift' ? (
          <Shift
            onOpenReports={
              can('reports.view')
                ? (day) => {
                    setReportDay(day);
                    setScreen('reports');
                  }
                : undefined
            }
          />
        ) : screen === 'reports' ? (
          <Reports key={reportDay ?? 'today'} initialDay={reportDay} />
        ) : screen === 'staff' ? (
          <Staff />
        ) : (
          <Settings currency={menu.currency} resetDone={resetDone} />
        )}
        {replacing ? (
          <ConfirmDialog
            title="Drop the ticket on the register?"
            message={`The register holds a new ticket of ${unsentItems} ${unsentItems === 1 ? 'item' : 'items'}, not sent yet. ${replacing.what} drops it.`}
            confirmLabel="Drop it and go on"
            danger
            onConfirm={() => openOnRegister(replacing.next, replacing.order)}
            onClose={() => setReplacing(null)}
          />
        ) : null}
      </main>
    </div>
  );
}
