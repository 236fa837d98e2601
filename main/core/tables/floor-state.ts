// Each table's state, derived from the floor and the store's checks (docs/tables.md, "States").
// Nothing about a table's occupancy is stored: a check names its table, so the state is the same on
// every till that holds the same checks, and it can never disagree with them.
import type { Order } from '../../../bridge/contract';
import type { FloorView, TableCheck, TableState, TableView } from '../../../bridge/tables/contract';
import { nameKey, type SectionDoc, type TableDoc, type TableMarks } from '../../../store/index';

export interface FloorInputs {
  sections: readonly SectionDoc[];
  tables: readonly TableDoc[];
  marks: readonly TableMarks[];
  /** Open orders (any service: only dine-in ones with a table are placed). */
  open: readonly Order[];
  /** When each table's latest check was completed this business day, by table name key (ms). */
  lastClosedAt: ReadonlyMap<string, number>;
  /** The open checks whose latest bill shows them as they are now (TablesDesk); a check not here has none, or an out-of-date one. */
  billCurrent: ReadonlySet<string>;
}

/** The table an order sits at, as the floor names tables; null for an order not at a table. */
export function tableKeyOf(order: Pick<Order, 'service'>): string | null {
  if (order.service.type !== 'dine_in' && order.service.type !== null) return null;
  return order.service.table === null || order.service.table.trim() === '' ? null : nameKey(order.service.table);
}

function checkOf(order: Order): TableCheck {
  return {
    orderId: order.id,
    label: order.label,
    total: order.total,
    due: Math.max(0, order.total - order.paidAmount),
    guests: order.service.guests,
    server: order.staff,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
  };
}

function stateOf(orders: readonly Order[], billCurrent: ReadonlySet<string>, marks: TableMarks | undefined, closedAt: number | undefined): TableState {
  if (orders.length === 0) return closedAt !== undefined && closedAt > (marks?.cleared_at ?? Number.NEGATIVE_INFINITY) ? 'needs_clearing' : 'free';
  const unpaid = orders.filter((o) => o.total > o.paidAmount);
  if (unpaid.length === 0) return 'paid';
  // A bill that no longer shows the check (a round added since, a discount) is out of date: the guests have not seen what they owe.
  return unpaid.every((o) => billCurrent.has(o.id)) ? 'check_printed' : 'seated';
}

export function floorView(inputs: FloorInputs): FloorView {
  const byKey = new Map<string, Order[]>();
  for (const order of inputs.open) {
    const key = tableKeyOf(order);
    if (key === null) continue;
    const list = byKey.get(key) ?? [];
    list.push(order);
    byKey.set(key, list);
  }
  const marks = new Map(inputs.marks.map((m) => [m.table_id, m]));
  const onFloor = new Set<string>();
  const tables: TableView[] = inputs.tables.map((t) => {
    const key = nameKey(t.name);
    onFloor.add(key);
    const orders = (byKey.get(key) ?? []).slice().sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    const checks = orders.map(checkOf);
    const closed = inputs.lastClosedAt.get(key);
    const state = stateOf(orders, inputs.billCurrent, marks.get(t.id), closed);
    const guests = checks.some((c) => c.guests !== null) ? checks.reduce((sum, c) => sum + (c.guests ?? 0), 0) : null;
    return {
      id: t.id,
      sectionId: t.section_id,
      name: t.name,
      seats: t.seats,
      shape: t.shape,
      x: t.x,
      y: t.y,
      width: t.width,
      height: t.height,
      state,
      checks,
      guests,
      seatedAt: checks[0]?.createdAt ?? null,
      server: checks[0]?.server ?? null,
      closedAt: state === 'needs_clearing' && closed !== undefined ? new Date(closed).toISOString() : null,
    };
  });
  const elsewhere = [...byKey.entries()]
    .filter(([key]) => !onFloor.has(key))
    .flatMap(([, orders]) => orders.map((o) => ({ ...checkOf(o), table: o.service.table ?? '' })))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return { sections: inputs.sections.map((s) => ({ id: s.id, name: s.name, position: s.position })), tables, elsewhere };
}
