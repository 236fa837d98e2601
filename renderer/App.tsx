import { useEffect, useState } from 'react';
import type { Order } from '../bridge/contract';
import { ErrorNote } from './components/Dialog';
import { PrinterIndicator } from './components/PrinterIndicator';
import { SyncIndicator } from './components/SyncIndicator';
import { useBridge, useMenu, useQuery, useShortcuts, useSyncStatus, useUpdateStatus } from './lib/hooks';
import { emptyTicket, ticketFromOrder, type Ticket } from './lib/ticket';
import { MenuManager } from './screens/MenuManager';
import { Orders } from './screens/Orders';
import { Register } from './screens/Register';
import { Settings } from './screens/Settings';
import { Shift } from './screens/Shift';

const SCREENS = [
  { id: 'register', label: 'Register' },
  { id: 'orders', label: 'Orders' },
  { id: 'menu', label: 'Menu' },
  { id: 'shift', label: 'Shift' },
  { id: 'settings', label: 'Settings' },
] as const;
type ScreenId = (typeof SCREENS)[number]['id'];

export function App() {
  const [screen, setScreen] = useState<ScreenId>('register');
  const [ticket, setTicketState] = useState<Ticket>(emptyTicket);
  const { menu, error } = useMenu();
  const { data: location } = useQuery('location.get', {}, ['settings.changed']);
  const { status: sync } = useSyncStatus();
  const appUpdate = useUpdateStatus();
  const client = useBridge();
  // After a reset the ticket's items and the order being edited no longer exist.
  useEffect(() => client.on('terminal.reset', () => setTicketState(emptyTicket)), [client]);

  useShortcuts(Object.fromEntries(SCREENS.map((s, i) => [`Alt+${i + 1}`, () => setScreen(s.id)])));

  // Closing the tab while changes wait to sync: the browser asks first (Electron asks itself).
  const pending = sync?.pending ?? 0;
  useEffect(() => {
    if (pending === 0) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [pending]);

  const setTicket = (update: (ticket: Ticket) => Ticket) => setTicketState(update);
  const editOrder = (order: Order) => {
    setTicketState(ticketFromOrder(order));
    setScreen('register');
  };

  return (
    <div className="app">
      <header className="topbar">
        <nav className="screens" aria-label="Screens">
          {SCREENS.map((s, i) => (
            <button key={s.id} type="button" className="screen-tab" aria-current={screen === s.id ? 'page' : undefined} onClick={() => setScreen(s.id)}>
              {s.label} <kbd>Alt+{i + 1}</kbd>
            </button>
          ))}
        </nav>
        {appUpdate && appUpdate.phase !== 'idle' ? (
          <span className="update-status" role="status">
            {appUpdate.message}
          </span>
        ) : null}
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
        ) : screen === 'register' ? (
          <Register menu={menu} ticket={ticket} setTicket={setTicket} active />
        ) : screen === 'orders' ? (
          <Orders onEdit={editOrder} checkout={menu.checkout} />
        ) : screen === 'menu' ? (
          <MenuManager menu={menu} />
        ) : screen === 'shift' ? (
          <Shift />
        ) : (
          <Settings currency={menu.currency} />
        )}
      </main>
    </div>
  );
}
