// The kitchen display (docs/kitchen-display.md): the store's tickets as cards in arrival order across
// the screen, a header with the station, the all-day counts and the store in one line, and bump and
// recall by touch, keyboard or bump bar (1–9 select the n-th ticket, Enter or B bumps it, R recalls
// the last bumped). No one signs in: the display can do nothing else (the core refuses it). Not in the
// store yet (no store secret), it shows the form that joins it by a code instead (KitchenJoin).
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { KitchenSetup, KitchenTickets } from '../../bridge/kitchen/contract';
import type { StoreModeStatus } from '../../bridge/store-mode/contract';
import { formatAge } from '../lib/format';
import { describeError, useBridge } from '../lib/hooks';
import { useStoreModeRead, STORE_REFRESH_MS } from '../store-mode/polling';
import { QUIET_AFTER_MS } from '../store-mode/StoreSyncPart';
import { tillName } from '../store-mode/till-words';
import { KitchenJoin } from './KitchenJoin';
import { TicketCard } from './TicketCard';
import { ticketAge } from './ticket-age';
import { useTickets } from './use-tickets';
import './kitchen.css';

/** How long a recall's word or a refusal stays in the notice line. */
const NOTICE_SHOWN_MS = 8_000;

/** "Hearing Bar, Patio", "Hearing Bar · Patio not heard from for 6 min", in one line. */
export function storeLine(status: StoreModeStatus | null, now: number): string {
  if (status === null) return 'Store: connecting…';
  if (status.mode === 'off') return 'Store mode is off: no till can send tickets here.';
  if (status.peers.length === 0) return 'No till is configured to send tickets here (--store-peers).';
  const name = (peer: StoreModeStatus['peers'][number]) => (peer.tillId === null ? (peer.address ?? 'A till') : tillName(peer.name, peer.tillId));
  const silence = (peer: StoreModeStatus['peers'][number]) => (peer.lastHeardAt === null ? null : now - Date.parse(peer.lastHeardAt));
  const heard = status.peers.filter((peer) => (silence(peer) ?? Infinity) <= QUIET_AFTER_MS).map(name);
  const quiet = status.peers
    .filter((peer) => (silence(peer) ?? Infinity) > QUIET_AFTER_MS)
    .map((peer) => (peer.lastHeardAt === null ? `${name(peer)} not heard from yet` : `${name(peer)} not heard from for ${formatAge(silence(peer)!)}`));
  return [heard.length > 0 ? `Hearing ${heard.join(', ')}` : 'Hearing no till', ...quiet].join(' · ');
}

/** The page's clock, moved on every second: ages count on between two answers. */
function useSecondTick(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function AllDay({ counts }: { counts: KitchenTickets['allDay'] }) {
  return (
    <section className="kds-allday" aria-labelledby="kds-allday-title">
      <h2 id="kds-allday-title">All day</h2>
      {counts.length === 0 ? (
        <p className="kds-allday-empty">Nothing to make</p>
      ) : (
        <ul>
          {counts.map((count) => (
            <li key={count.name}>
              <span className="kds-allday-qty">{count.quantity}</span> {count.name}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function KitchenApp({ setup }: { setup: KitchenSetup }) {
  const client = useBridge();
  const { data, receivedAt, error, refresh } = useTickets(setup.station);
  const { data: store, reload: reloadStore } = useStoreModeRead('storeMode.status', STORE_REFRESH_MS);
  const pageNow = useSecondTick();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ text: string; problem: boolean } | null>(null);
  const tickets = useMemo(() => data?.tickets ?? [], [data]);
  // The display's clock at the answer, moved on by the page's since: the ages count from the core's time.
  const displayNow = data === null ? pageNow : Date.parse(data.now) + Math.max(0, pageNow - receivedAt);
  // The first ticket is selected until another is chosen, and again once the chosen one is gone.
  const selected = tickets.find((ticket) => ticket.orderId === selectedId) ?? tickets[0] ?? null;

  const bump = useCallback(
    (orderId: string) => {
      setBusy(orderId);
      // What became of it is said under Recall (the last bumped); only a refusal needs the notice line.
      client.call('kitchen.bump', { orderId }).then(
        () => setNotice(null),
        (caught: unknown) => setNotice({ text: describeError(caught), problem: true }),
      ).finally(() => {
        setBusy(null);
        refresh();
      });
    },
    [client, refresh],
  );

  const recall = useCallback(() => {
    const last = data?.lastBumped;
    if (!last) {
      setNotice({ text: 'No bumped ticket to recall.', problem: true });
      return;
    }
    client.call('kitchen.recall', { orderId: last.orderId }).then(
      (recalled) => {
        setSelectedId(recalled.orderId);
        setNotice({ text: `${recalled.label} recalled.`, problem: false });
      },
      (caught: unknown) => setNotice({ text: describeError(caught), problem: true }),
    ).finally(refresh);
  }, [client, data, refresh]);

  // Long enough to be read across the kitchen, then the line is free again.
  useEffect(() => {
    if (notice === null) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // Typed into a field (the join form's), a key is that field's.
      if (event.altKey || event.ctrlKey || event.metaKey || event.target instanceof HTMLInputElement) return;
      const onButton = event.target instanceof HTMLButtonElement;
      if (/^[1-9]$/.test(event.key)) {
        const ticket = tickets[Number(event.key) - 1];
        if (ticket) setSelectedId(ticket.orderId);
      } else if (event.key === 'b' || event.key === 'B' || (event.key === 'Enter' && !onButton)) {
        // Enter on a focused button is that button's own press.
        if (selected && busy === null) bump(selected.orderId);
      } else if (event.key === 'r' || event.key === 'R') recall();
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [tickets, selected, busy, bump, recall]);

  const joined = useCallback(
    (sentence: string) => {
      setNotice({ text: sentence, problem: false });
      reloadStore();
    },
    [reloadStore],
  );

  // Store mode on without the store secret yet: the display joins the store by a code first.
  if (store?.mode === 'unpaired') return <KitchenJoin onJoined={joined} />;

  const stationName = setup.station === null ? 'All stations' : setup.station;
  return (
    <div className="kds" data-testid="kitchen-display">
      <header className="kds-header">
        <div className="kds-title">
          <h1>
            Kitchen · <span className="kds-station">{stationName}</span>
          </h1>
          <p className="kds-store" data-testid="kds-store">
            {storeLine(store, pageNow)}
          </p>
        </div>
        <AllDay counts={data?.allDay ?? []} />
        <div className="kds-tools">
          <button type="button" className="kds-recall" onClick={recall} disabled={!data?.lastBumped}>
            {data?.lastBumped ? `Recall ${data.lastBumped.label}` : 'Recall'}
          </button>
          {data?.lastBumped ? (
            <p className="kds-last" data-testid="kds-last-bumped" aria-live="polite">
              {`${data.lastBumped.label}: ${data.lastBumped.sentence}`}
            </p>
          ) : null}
          <p className="kds-keys">1–9 select · Enter or B bump · R recall</p>
        </div>
      </header>
      <p className={`kds-notice${notice?.problem ? ' kds-notice-problem' : ''}`} role="status">
        {error ?? notice?.text ?? ''}
      </p>
      <main className="kds-tickets" aria-label="Tickets">
        {data === null ? null : tickets.length === 0 ? (
          <p className="kds-empty">No tickets. New orders from the tills appear here by themselves.</p>
        ) : (
          tickets.map((ticket, index) => (
            <TicketCard
              key={ticket.orderId}
              ticket={ticket}
              position={index + 1}
              age={ticketAge(displayNow - Date.parse(ticket.placedAt), setup)}
              selected={ticket.orderId === selected?.orderId}
              onSelect={() => setSelectedId(ticket.orderId)}
              onBump={() => bump(ticket.orderId)}
              bumping={busy === ticket.orderId}
            />
          ))
        )}
      </main>
    </div>
  );
}
