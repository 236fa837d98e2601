import { useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { CommandInput } from '../../bridge/contract';
import { FLOOR_GRID, type FloorView, type TablePlacement, type TableShape, type TableView } from '../../bridge/tables/contract';
import { ErrorNote } from '../components/Dialog';
import { describedBy, FieldError } from '../components/FieldError';
import { BridgeCallError } from '../lib/bridge-client';
import { describeError, useBridge } from '../lib/hooks';
import { CoursesEditor } from './CoursesEditor';
import { useTileFit } from './tile-fit';

type Draft = Omit<TablePlacement, 'seats' | 'x' | 'y' | 'width' | 'height'> & { seats: string; x: number; y: number; width: number; height: number };
const SHAPES: readonly { value: TableShape; label: string }[] = [
  { value: 'square', label: 'Square' },
  { value: 'round', label: 'Round' },
  { value: 'rect', label: 'Long' },
];

const draftOf = (t: TableView): Draft => ({ sectionId: t.sectionId, name: t.name, seats: String(t.seats), shape: t.shape, x: t.x, y: t.y, width: t.width, height: t.height });

/**
 * A new table's size in cells: 3×3 is the smallest tile that shows a seated table's name, state,
 * guests and time at 1024×768 (a 2×2 one shows its name and state only: tile-fit.ts).
 */
const NEW_TABLE = { width: 3, height: 3 } as const;

/** The first free place of a section for a new table, scanning rows then columns; null when the section is full. */
function freePlace(tables: readonly TableView[], sectionId: string): { x: number; y: number } | null {
  const { width, height } = NEW_TABLE;
  const taken = (x: number, y: number) => tables.some((t) => t.sectionId === sectionId && x < t.x + t.width && t.x < x + width && y < t.y + t.height && t.y < y + height);
  for (let y = 0; y + height <= FLOOR_GRID.rows; y += 1) for (let x = 0; x + width <= FLOOR_GRID.columns; x += 1) if (!taken(x, y)) return { x, y };
  return null;
}

/**
 * The manager's floor editor: sections, and tables placed by touch (drag a table to a cell) or by
 * keyboard (arrows move the selected table, Shift+arrows resize it). Each change is saved at once;
 * a refusal stays next to its field and the floor stays as it was.
 */
export function FloorEditor({ floor, onDone }: { floor: FloorView; onDone: () => void }) {
  const client = useBridge();
  const id = useId();
  const [sectionId, setSectionId] = useState<string | null>(floor.sections[0]?.id ?? null);
  const [selected, setSelected] = useState<string | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [issues, setIssues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [sectionName, setSectionName] = useState('');
  const [sectionError, setSectionError] = useState<string | null>(null);
  const grid = useRef<HTMLDivElement>(null);
  const section = floor.sections.find((s) => s.id === sectionId) ?? floor.sections[0] ?? null;
  const tables = floor.tables.filter((t) => t.sectionId === section?.id);

  const call = async <C extends 'tables.saveTable' | 'tables.removeTable' | 'tables.saveSection' | 'tables.removeSection'>(
    command: C,
    payload: CommandInput<C>,
    onIssues: (byField: Record<string, string>, message: string) => void,
  ): Promise<FloorView | null> => {
    setError(null);
    try {
      // The screen shows the floor as 'floor.changed' brings it; the answer says where a new table went.
      return (await client.call(command, payload)) as FloorView;
    } catch (caught) {
      const byField = caught instanceof BridgeCallError ? Object.fromEntries((caught.issues ?? []).map((i) => [i.path, i.message])) : {};
      onIssues(byField, describeError(caught));
      return null;
    }
  };

  const select = (table: TableView | null) => {
    setSelected(table?.id ?? null);
    setDraft(table ? draftOf(table) : null);
    setIssues({});
  };
  /** Saves a table: `tableId` null adds it. */
  const save = async (next: Draft, tableId: string | null) => {
    setDraft(next);
    const seats = Number(next.seats);
    const saved = await call('tables.saveTable', { ...next, seats: Number.isInteger(seats) ? seats : -1, ...(tableId ? { id: tableId } : {}) }, (byField, message) => {
      setIssues(Object.keys(byField).length > 0 ? byField : { name: message });
    });
    if (saved) {
      setIssues({});
      const table = saved.tables.find((t) => (tableId ? t.id === tableId : t.name === next.name.trim()));
      if (table) {
        setSelected(table.id);
        setDraft(draftOf(table));
      }
    }
  };
  const addTable = () => {
    if (!section) return;
    const place = freePlace(floor.tables, section.id);
    if (!place) {
      setError(`${section.name} has no free place for another table. Make room or use another section.`);
      return;
    }
    const taken = new Set(floor.tables.map((t) => t.name.toLowerCase()));
    let n = floor.tables.length + 1;
    while (taken.has(String(n))) n += 1;
    setSelected(null);
    void save({ sectionId: section.id, name: String(n), seats: '4', shape: 'square', x: place.x, y: place.y, ...NEW_TABLE }, null);
  };
  const onKey = (event: KeyboardEvent) => {
    if (!draft || !selected) return;
    const moves: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    const [dx, dy] = move;
    void save(event.shiftKey ? { ...draft, width: Math.max(1, draft.width + dx), height: Math.max(1, draft.height + dy) } : { ...draft, x: Math.max(0, draft.x + dx), y: Math.max(0, draft.y + dy) }, selected);
  };
  /** The grid cell under the pointer. */
  const cellAt = (event: PointerEvent): { x: number; y: number } | null => {
    const box = grid.current?.getBoundingClientRect();
    if (!box || box.width === 0 || box.height === 0) return null;
    return { x: Math.floor(((event.clientX - box.left) / box.width) * FLOOR_GRID.columns), y: Math.floor(((event.clientY - box.top) / box.height) * FLOOR_GRID.rows) };
  };
  /** Where in the table the finger took hold, so the table moves by what the finger moved. */
  const grip = useRef<{ dx: number; dy: number } | null>(null);
  const lift = (event: PointerEvent, table: TableView) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    const cell = cellAt(event);
    grip.current = cell ? { dx: cell.x - table.x, dy: cell.y - table.y } : null;
  };
  const drop = (event: PointerEvent, table: TableView) => {
    const cell = cellAt(event);
    const held = grip.current;
    grip.current = null;
    if (!cell || !held) return;
    const x = Math.max(0, cell.x - held.dx);
    const y = Math.max(0, cell.y - held.dy);
    if (x === table.x && y === table.y) return;
    setSelected(table.id);
    void save({ ...draftOf(table), x, y }, table.id);
  };

  return (
    <section className="floor-screen floor-editor" aria-label="Edit the floor">
      <div className="floor-bar">
        <div className="floor-sections" role="tablist" aria-label="Sections">
          {floor.sections.map((s) => (
            <button
              key={s.id}
              type="button"
              role="tab"
              className="floor-section-tab"
              aria-selected={s.id === section?.id}
              onClick={() => {
                setSectionId(s.id);
                select(null);
              }}
            >
              {s.name}
            </button>
          ))}
        </div>
        <form
          className="floor-add-section"
          onSubmit={(event) => {
            event.preventDefault();
            void call('tables.saveSection', { name: sectionName }, (byField, message) => setSectionError(byField.name ?? message)).then((next) => {
              if (!next) return;
              setSectionName('');
              setSectionError(null);
              setSectionId(next.sections.find((s) => s.name.toLowerCase() === sectionName.trim().toLowerCase())?.id ?? null);
            });
          }}
        >
          <label>
            New section
            <input
              value={sectionName}
              maxLength={30}
              placeholder="Patio"
              onChange={(event) => {
                setSectionName(event.target.value);
                setSectionError(null);
              }}
              {...describedBy(`${id}-section`, sectionError)}
            />
          </label>
          <button type="submit">Add section</button>
          <FieldError id={`${id}-section`} message={sectionError} />
        </form>
        <button type="button" className="primary" onClick={onDone}>
          Done
        </button>
      </div>
      <ErrorNote message={error} />
      <div className="floor-editor-body">
        <div
          ref={grid}
          className="floor-grid floor-grid-edit"
          style={{ gridTemplateColumns: `repeat(${FLOOR_GRID.columns}, 1fr)`, gridTemplateRows: `repeat(${FLOOR_GRID.rows}, 1fr)` }}
          onKeyDown={onKey}
          aria-label={`${section?.name ?? 'No section'}: select a table, then arrows move it and Shift+arrows resize it`}
        >
          {tables.map((t) => (
            <EditTile key={t.id} table={t} selected={t.id === selected} onSelect={() => select(t)} onLift={(event) => lift(event, t)} onDrop={(event) => drop(event, t)} />
          ))}
        </div>
        <aside className="floor-editor-panel card" aria-label="Table">
          {!section ? (
            <p className="muted">Add a section first (Main, Patio, Bar…).</p>
          ) : (
            <>
              <button type="button" className="big" onClick={addTable}>
                Add a table to {section.name}
              </button>
              {!draft ? (
                <p className="muted">Select a table to name it, seat it, move it (arrows) or resize it (Shift+arrows).</p>
              ) : (
                <form
                  className="floor-table-form"
                  onSubmit={(event) => {
                    event.preventDefault();
                    void save(draft, selected);
                  }}
                >
                  <label>
                    Name
                    <input value={draft.name} maxLength={12} onChange={(event) => setDraft({ ...draft, name: event.target.value })} {...describedBy(`${id}-name`, issues.name ?? null)} />
                  </label>
                  <FieldError id={`${id}-name`} message={issues.name ?? null} />
                  <label>
                    Seats
                    <input value={draft.seats} inputMode="numeric" maxLength={3} onChange={(event) => setDraft({ ...draft, seats: event.target.value })} {...describedBy(`${id}-seats`, issues.seats ?? null)} />
                  </label>
                  <FieldError id={`${id}-seats`} message={issues.seats ?? null} />
                  <fieldset className="floor-shapes">
                    <legend>Shape</legend>
                    {SHAPES.map((shape) => (
                      <label key={shape.value}>
                        <input type="radio" name={`${id}-shape`} checked={draft.shape === shape.value} onChange={() => void save({ ...draft, shape: shape.value }, selected)} />
                        {shape.label}
                      </label>
                    ))}
                  </fieldset>
                  <FieldError id={`${id}-place`} message={issues.x ?? issues.width ?? issues.height ?? issues.sectionId ?? null} />
                  <div className="dialog-actions">
                    <button type="submit" className="primary">
                      Save
                    </button>
                    <button
                      type="button"
                      className="danger"
                      onClick={() =>
                        void call('tables.removeTable', { id: selected! }, (_f, message) => setError(message)).then((next) => {
                          if (next) select(null);
                        })
                      }
                    >
                      Remove table
                    </button>
                  </div>
                </form>
              )}
              {tables.length === 0 ? (
                <button type="button" className="link" onClick={() => void call('tables.removeSection', { id: section.id }, (_f, message) => setError(message))}>
                  Remove the section {section.name}
                </button>
              ) : null}
            </>
          )}
          <CoursesEditor />
        </aside>
      </div>
    </section>
  );
}

/** A table on the editor's grid: its name and seats, fitted to its tile as on the floor (tile-fit.ts). */
function EditTile({
  table,
  selected,
  onSelect,
  onLift,
  onDrop,
}: {
  table: TableView;
  selected: boolean;
  onSelect: () => void;
  onLift: (event: PointerEvent) => void;
  onDrop: (event: PointerEvent) => void;
}) {
  const lines = useRef<HTMLSpanElement>(null);
  useTileFit(lines, null, `${table.shape} ${table.name} ${table.seats}`);
  return (
    <button
      type="button"
      className={`floor-table floor-table-main shape-${table.shape}`}
      aria-pressed={selected}
      data-testid={`edit-table-${table.name}`}
      title={`Table ${table.name}, ${table.seats} ${table.seats === 1 ? 'seat' : 'seats'}`}
      style={{ gridColumn: `${table.x + 1} / span ${table.width}`, gridRow: `${table.y + 1} / span ${table.height}`, touchAction: 'none' }}
      onClick={onSelect}
      onPointerDown={onLift}
      onPointerUp={onDrop}
    >
      <span className="floor-table-lines" ref={lines}>
        <span className="floor-table-name">{table.name}</span>
        <span className="floor-table-detail" data-line="detail">
          {table.seats} {table.seats === 1 ? 'seat' : 'seats'}
        </span>
      </span>
    </button>
  );
}
