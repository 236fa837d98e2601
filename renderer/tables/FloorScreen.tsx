import { useEffect, useMemo, useRef, useState } from 'react';
import type { Order } from '../../bridge/contract';
import { FLOOR_GRID, type TableView } from '../../bridge/tables/contract';
import { ErrorNote } from '../components/Dialog';
import { describedBy, FieldError } from '../components/FieldError';
import { money } from '../lib/format';
import { describeError, useBridge } from '../lib/hooks';
import { useSession } from '../lib/session';
import { FloorEditor } from './FloorEditor';
import { useFloor } from './floor-source';
import { findTable, STATE_NAMES, tableTile } from './floor-text';
import { SeatDialog } from './SeatDialog';
import { TableSheet } from './TableSheet';
import { useTileFit } from './tile-fit';
import './tables.css';

/** How often the minutes since seated move on. */
const TICK_MS = 30_000;
/** A check asked for at a press serves the tap that ends it within this long. */
const PRESS_FRESH_MS = 1_500;

/**
 * The floor (docs/tables.md): the restaurant's tables by section, each in its state at a glance.
 * A free table starts a check (guests asked once); a seated one opens its check; the sheet of a
 * table holds the rest (its checks, the bill, clearing it). A manager lays the floor out here.
 */
export function FloorScreen({ currency, onStart, onOpen }: { currency: string; onStart: (table: string, guests: number) => void; onOpen: (order: Order) => void }) {
  const client = useBridge();
  const { session, can } = useSession();
  const me = session?.signedIn?.id ?? null;
  // Every change of the floor, here or on another screen, comes back as 'floor.changed' or 'orders.changed'.
  const { floor: view, error } = useFloor();
  const [sectionId, setSectionId] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  const [seating, setSeating] = useState<TableView | null>(null);
  const [sheet, setSheet] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [goTo, setGoTo] = useState('');
  const [goToError, setGoToError] = useState<string | null>(null);
  const [openError, setOpenError] = useState<string | null>(null);

  const sections = view?.sections ?? [];
  const section = sections.find((s) => s.id === sectionId) ?? sections[0] ?? null;
  const tables = useMemo(() => (view && section ? view.tables.filter((t) => t.sectionId === section.id) : []), [view, section]);
  const mine = useMemo(() => (view && me ? view.tables.filter((t) => t.server?.id === me && t.checks.length > 0) : []), [view, me]);
  const sheetTable = view?.tables.find((t) => t.id === sheet) ?? null;

  /**
   * A check asked for when a finger or the mouse goes down on its table, so it is here when the tap
   * ends: the register then opens on it at once. Used once, only for the check it was asked for, and
   * only by the tap of that press (a press left without a tap is not used seconds later).
   * `arrived`: the check once the core has answered.
   */
  const early = useRef<{ orderId: string; order: Promise<Order>; arrived: Order | null; at: number } | null>(null);
  /**
   * The open checks, asked for once the floor is drawn and again only when one of its checks is not
   * among them as the floor says it is now (changed, new): a tap then opens its check inside the click
   * with nothing to wait for. A check not current here is served by the press, as before.
   */
  const warm = useRef<Map<string, Order>>(new Map());
  const current = (check: TableView['checks'][number]): Order | undefined => {
    const held = warm.current.get(check.orderId);
    return held && held.updatedAt === check.updatedAt && held.total === check.total && held.total - held.paidAmount === check.due ? held : undefined;
  };
  useEffect(() => {
    if (!view || view.tables.every((t) => t.checks.every((check) => current(check) !== undefined))) return;
    let live = true;
    const timer = setTimeout(() => {
      client.call('orders.list', { status: 'open', limit: 500 }).then(
        (checks) => {
          if (live) warm.current = new Map(checks.map((check) => [check.id, check]));
        },
        () => undefined, // the press and the tap ask for the check themselves
      );
    }, 0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [client, view]);
  const currentCheck = (orderId: string): Order | undefined => {
    const check = view?.tables.flatMap((t) => t.checks).find((c) => c.orderId === orderId);
    return check ? current(check) : undefined;
  };
  /** `tappedAt`: the tap's event time, when a tap asks (the press's check may serve it). */
  const fetchCheck = (orderId: string, tappedAt: number | null): Order | Promise<Order> => {
    const pressed = early.current;
    early.current = null;
    const known = currentCheck(orderId);
    if (known) return known;
    const fresh = tappedAt !== null && pressed !== null && pressed.orderId === orderId && tappedAt - pressed.at < PRESS_FRESH_MS;
    return fresh ? (pressed.arrived ?? pressed.order) : client.call('orders.get', { id: orderId });
  };
  const openCheck = async (orderId: string, tappedAt: number | null = null) => {
    setOpenError(null);
    const check = fetchCheck(orderId, tappedAt);
    // Already here: opened within the tap's own event, so React draws the register in the same
    // task instead of queueing a render after it.
    if (!(check instanceof Promise)) {
      onOpen(check);
      return;
    }
    try {
      onOpen(await check);
    } catch (caught) {
      setOpenError(describeError(caught));
    }
  };
  /** The check a tap on the table opens by itself: its only check while it is being served. */
  const checkOpenedBy = (table: TableView): string | null =>
    table.checks.length === 1 && (table.state === 'seated' || table.state === 'check_printed') ? table.checks[0]!.orderId : null;
  const press = (table: TableView, at: number) => {
    const orderId = checkOpenedBy(table);
    if (orderId !== null && currentCheck(orderId) === undefined) {
      const order = client.call('orders.get', { id: orderId });
      const asked = { orderId, order, arrived: null as Order | null, at };
      order.then(
        (check) => (asked.arrived = check),
        () => undefined, // said when the tap uses it
      );
      early.current = asked;
    }
  };
  /** A table's tap: free → seat it; one check being served → open it; anything else → its sheet. */
  const tap = (table: TableView, at: number | null = null) => {
    const orderId = checkOpenedBy(table);
    if (table.state === 'free') setSeating(table);
    else if (orderId !== null) void openCheck(orderId, at);
    else setSheet(table.id);
  };

  if (editing && view) return <FloorEditor floor={view} onDone={() => setEditing(false)} />;
  return (
    <section className="floor-screen" aria-label="Tables">
      <div className="floor-bar">
        <div className="floor-sections" role="tablist" aria-label="Sections">
          {sections.map((s) => (
            <button key={s.id} type="button" role="tab" className="floor-section-tab" aria-selected={s.id === section?.id} onClick={() => setSectionId(s.id)}>
              {s.name}
              <span className="floor-section-count">{view!.tables.filter((t) => t.sectionId === s.id && t.checks.length > 0).length}</span>
            </button>
          ))}
        </div>
        <form
          className="floor-goto"
          onSubmit={(event) => {
            event.preventDefault();
            const table = view ? findTable(view.tables, goTo) : undefined;
            if (!table) {
              setGoToError(goTo.trim() === '' ? 'Type a table’s name, e.g. 12.' : `No table called ${goTo.trim()} on the floor.`);
              return;
            }
            setGoTo('');
            setGoToError(null);
            setSectionId(table.sectionId);
            tap(table);
          }}
        >
          <label>
            Table
            <input
              value={goTo}
              inputMode="text"
              maxLength={12}
              placeholder="12"
              {...describedBy('floor-goto-error', goToError)}
              onChange={(event) => {
                setGoTo(event.target.value);
                setGoToError(null);
              }}
            />
          </label>
          <button type="submit">Go</button>
          <FieldError id="floor-goto-error" message={goToError} />
        </form>
        {can('floor.edit') ? (
          <button type="button" className="secondary" onClick={() => setEditing(true)} disabled={!view}>
            Edit floor
          </button>
        ) : null}
      </div>
      <ErrorNote message={error ?? openError} />
      {mine.length > 0 ? (
        <div className="floor-mine" aria-label="Your tables">
          <span className="muted">Your tables</span>
          {mine.map((t) => (
            <button key={t.id} type="button" className={`floor-mine-table table-${t.state}`} onClick={() => tap(t)}>
              <strong>{t.name}</strong> {STATE_NAMES[t.state]} · {money(t.checks.reduce((sum, c) => sum + c.due, 0), currency)} due
            </button>
          ))}
        </div>
      ) : null}
      {!view ? (
        <p className="muted empty">Loading the floor…</p>
      ) : sections.length === 0 ? (
        <p className="muted empty">
          No tables on the floor yet. {can('floor.edit') ? 'Lay it out with Edit floor.' : 'A manager lays out the floor with Edit floor.'}
        </p>
      ) : (
        <div className="floor-grid" style={{ gridTemplateColumns: `repeat(${FLOOR_GRID.columns}, 1fr)`, gridTemplateRows: `repeat(${FLOOR_GRID.rows}, 1fr)` }} aria-label={`${section?.name ?? ''} floor`}>
          {tables.map((t) => (
            <TableTile key={t.id} table={t} now={now} onPress={(at) => press(t, at)} onTap={(at) => tap(t, at)} onMore={() => setSheet(t.id)} />
          ))}
        </div>
      )}
      {view && view.elsewhere.length > 0 ? (
        <p className="floor-elsewhere" role="note">
          Open at tables not on the floor:{' '}
          {view.elsewhere.map((c, i) => (
            <span key={c.orderId}>
              {i > 0 ? ', ' : ''}
              <button type="button" className="link" onClick={() => void openCheck(c.orderId)}>
                {c.table} ({c.label})
              </button>
            </span>
          ))}
        </p>
      ) : null}
      {seating ? (
        <SeatDialog
          table={seating}
          onClose={() => setSeating(null)}
          onSeat={(guests) => {
            setSeating(null);
            onStart(seating.name, guests);
          }}
        />
      ) : null}
      {sheetTable ? (
        <TableSheet
          table={sheetTable}
          tables={view?.tables ?? []}
          currency={currency}
          now={now}
          onClose={() => setSheet(null)}
          onOpen={(orderId) => {
            setSheet(null);
            void openCheck(orderId);
          }}
          onNewCheck={() => {
            setSheet(null);
            setSeating(sheetTable);
          }}
        />
      ) : null}
    </section>
  );
}

/**
 * A table's tile: its name, its state and one short line (guests beside a person icon and how long
 * they have been seated, the seats of a free table, how long it waits to be cleared) and its
 * server; the whole of it in full words is the tile's name (and its title, for a pointer that rests
 * on it). A tile too small for all of it shows what fits by the rule of tile-fit.ts (the name always,
 * smaller or on two lines if it must, then the state, the short line, the server), beside its ⋯
 * button rather than under it; a round tile's words and ⋯ stay inside its circle.
 */
function TableTile({ table, now, onPress, onTap, onMore }: { table: TableView; now: number; onPress: (at: number) => void; onTap: (at: number) => void; onMore: () => void }) {
  const words = tableTile(table, now);
  const lines = useRef<HTMLSpanElement>(null);
  const more = useRef<HTMLButtonElement>(null);
  useTileFit(lines, more, `${table.shape} ${words.label} ${words.detail} ${words.server ?? ''}`);
  return (
    <div className={`floor-table table-${table.state} shape-${table.shape}`} style={{ gridColumn: `${table.x + 1} / span ${table.width}`, gridRow: `${table.y + 1} / span ${table.height}` }}>
      <button
        type="button"
        className="floor-table-main"
        data-testid={`table-${table.name}`}
        aria-label={words.label}
        title={words.label}
        onPointerDown={(event) => onPress(event.timeStamp)}
        onClick={(event) => onTap(event.timeStamp)}
      >
        <span className="floor-table-lines" ref={lines}>
          <span className="floor-table-name">{table.name}</span>
          <span className="floor-table-state" data-line="state">
            {STATE_NAMES[table.state]}
          </span>
          <span className="floor-table-detail" data-line="detail">
            {words.guests !== null ? (
              <span className="floor-table-guests">
                <PersonIcon />
                {words.guests}
                <span className="visually-hidden"> {words.guests === 1 ? 'guest' : 'guests'}</span>
              </span>
            ) : null}
            {words.guests !== null && words.detail !== '' ? ' · ' : null}
            {words.detail}
          </span>
          {words.server !== null ? (
            <span className="floor-table-server" data-line="server">
              {words.server}
            </span>
          ) : null}
        </span>
      </button>
      {table.state !== 'free' ? (
        <button ref={more} type="button" className="floor-table-more" aria-label={`Table ${table.name}: checks and actions`} onClick={onMore}>
          ⋯
        </button>
      ) : null}
    </div>
  );
}

/** A person, beside a tile's count of guests (the count's word is in the tile's name). */
function PersonIcon() {
  return (
    <svg className="floor-person" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <circle cx="8" cy="4.5" r="3.5" />
      <path d="M1.5 16c0-4 2.9-6.5 6.5-6.5s6.5 2.5 6.5 6.5z" />
    </svg>
  );
}
