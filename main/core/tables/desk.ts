// The tables room's use cases (docs/tables.md): the floor with each table's state, the manager's
// layout edits (permission 'floor.edit', audited), the bill for a table and clearing it. The room
// reads checks through the cashier's views and never writes an order: a check is seated at a table
// by naming the table in its service, as any order does.
import type { Order } from '../../../bridge/contract';
import { FLOOR_LIMITS, type Course, type FloorConfig, type FloorView, type TablePlacement } from '../../../bridge/tables/contract';
import { placementIssues } from '../../../bridge/tables/layout';
import type { Clock } from '../../../common/clock';
import { newId } from '../../../common/ids';
import { nameKey, type Store } from '../../../store/index';
import { CoreError } from '../errors';
import { StaffDesk, type Act } from '../staff/desk';
import { floorView, tableKeyOf } from './floor-state';

export interface TablesDeskDeps {
  store: Store;
  staff: StaffDesk;
  clock: Clock;
  /** The open orders as the cashier shows them (views with what is paid). */
  openOrders(): Order[];
  /** When the business day began (ms), for the tables whose checks closed today. */
  businessDayStart(): number;
  /** Prints the bill of an open check (the cashier's reprint: an unpaid check prints as a bill). */
  printBill(orderId: string): void;
  /** Whether the latest bill of a check, wherever it was asked for, shows the check as it is now; null: none printed. */
  billShows(order: Order): boolean | null;
  /** The floor changed in a way the checks do not show (layout, a bill, a table cleared). */
  changed(): void;
  /** The store's courses changed. */
  coursesChanged(): void;
}

const OPEN_CHECKS_READ = 500;

export class TablesDesk {
  constructor(private readonly deps: TablesDeskDeps) {}

  floor(): FloorView {
    const { store } = this.deps;
    const open = this.deps.openOrders();
    const billCurrent = new Set<string>();
    for (const order of open) if (tableKeyOf(order) !== null && order.total > order.paidAmount && this.deps.billShows(order) === true) billCurrent.add(order.id);
    return floorView({ sections: store.floor.sections(), tables: store.floor.tables(), marks: store.floor.marks(), open, lastClosedAt: this.#closedToday(), billCurrent });
  }

  saveSection(act: Act, section: { id?: string | undefined; name: string; position?: number | undefined }): FloorView {
    const approvedBy = this.deps.staff.require(act, 'floor.edit');
    const { store, clock } = this.deps;
    const now = clock.now();
    const sections = store.floor.sections();
    const existing = section.id === undefined ? undefined : sections.find((s) => s.id === section.id);
    if (section.id !== undefined && !existing) throw notOnFloor('section');
    if (!existing && sections.length >= FLOOR_LIMITS.sections) {
      throw new CoreError('invalid_command', `A floor has at most ${FLOOR_LIMITS.sections} sections. Remove one you no longer use first.`, [{ path: 'name', message: `At most ${FLOOR_LIMITS.sections} sections.` }]);
    }
    const id = existing?.id ?? newId('sec_', now);
    const position = section.position ?? existing?.position ?? sections.length;
    store.transaction(() => {
      this.#nameFree('section', sections, id, section.name);
      store.floor.saveSection({ id, name: section.name, position }, act.by.id, now);
      store.cashier.recordAudit(act.by.id, existing ? 'floor.section.change' : 'floor.section.add', { id, name: section.name, position, ...StaffDesk.approval(approvedBy) });
    });
    return this.#changed();
  }

  removeSection(act: Act, id: string): FloorView {
    const approvedBy = this.deps.staff.require(act, 'floor.edit');
    const { store, clock } = this.deps;
    const section = store.floor.sections().find((s) => s.id === id);
    if (!section) throw notOnFloor('section');
    const tables = store.floor.tables().filter((t) => t.section_id === id);
    if (tables.length > 0) {
      throw new CoreError('conflict', `${section.name} still has ${tables.length === 1 ? 'a table' : `${tables.length} tables`}. Move or remove ${tables.length === 1 ? 'it' : 'them'} first.`);
    }
    store.transaction(() => {
      store.floor.removeSection(id, act.by.id, clock.now());
      store.cashier.recordAudit(act.by.id, 'floor.section.remove', { id, name: section.name, ...StaffDesk.approval(approvedBy) });
    });
    return this.#changed();
  }

  saveTable(act: Act, table: TablePlacement & { id?: string | undefined }): FloorView {
    const approvedBy = this.deps.staff.require(act, 'floor.edit');
    const { store, clock } = this.deps;
    const now = clock.now();
    const { id: givenId, ...placement } = table;
    const tables = store.floor.tables();
    const existing = givenId === undefined ? undefined : tables.find((t) => t.id === givenId);
    if (givenId !== undefined && !existing) throw notOnFloor('table');
    if (!existing && tables.length >= FLOOR_LIMITS.tables) {
      throw new CoreError('invalid_command', `A floor has at most ${FLOOR_LIMITS.tables} tables.`, [{ path: 'name', message: `At most ${FLOOR_LIMITS.tables} tables.` }]);
    }
    const id = existing?.id ?? newId('tbl_', now);
    const issues = placementIssues(
      { id, ...placement },
      store.floor.sections().map((s) => s.id),
      tables.map((t) => ({ id: t.id, sectionId: t.section_id, name: t.name, x: t.x, y: t.y, width: t.width, height: t.height })),
    );
    if (issues.length > 0) throw new CoreError('invalid_command', `${issues[0]!.message} Nothing was saved.`, issues);
    // A check names its table: renaming a table with open checks would leave them at no table.
    if (existing && nameKey(existing.name) !== nameKey(placement.name) && this.#openChecksAt(existing.name) > 0) {
      const message = `Table ${existing.name} has an open check. Rename it when the table is free.`;
      throw new CoreError('conflict', message, [{ path: 'name', message }]);
    }
    store.transaction(() => {
      this.#nameFree('table', tables, id, placement.name);
      store.floor.saveTable(
        { id, section_id: placement.sectionId, name: placement.name, seats: placement.seats, shape: placement.shape, x: placement.x, y: placement.y, width: placement.width, height: placement.height },
        act.by.id,
        now,
      );
      store.cashier.recordAudit(act.by.id, existing ? 'floor.table.change' : 'floor.table.add', { id, ...placement, ...StaffDesk.approval(approvedBy) });
    });
    return this.#changed();
  }

  removeTable(act: Act, id: string): FloorView {
    const approvedBy = this.deps.staff.require(act, 'floor.edit');
    const { store, clock } = this.deps;
    const table = store.floor.table(id);
    if (!table) throw notOnFloor('table');
    if (this.#openChecksAt(table.name) > 0) throw new CoreError('conflict', `Table ${table.name} has an open check. Remove it when the table is free.`);
    store.transaction(() => {
      store.floor.removeTable(id, act.by.id, clock.now());
      store.cashier.recordAudit(act.by.id, 'floor.table.remove', { id, name: table.name, ...StaffDesk.approval(approvedBy) });
    });
    return this.#changed();
  }

  /** The bill of every open check at the table; the table reads "check printed" until a check changes (a bill printed from Orders counts too). */
  printBill(act: Act, id: string): FloorView {
    const { store } = this.deps;
    const table = store.floor.table(id);
    if (!table) throw notOnFloor('table');
    const key = nameKey(table.name);
    const checks = this.deps.openOrders().filter((o) => tableKeyOf(o) === key);
    if (checks.length === 0) throw new CoreError('conflict', `Table ${table.name} has no open check to print.`);
    store.transaction(() => {
      for (const check of checks) this.deps.printBill(check.id);
      store.cashier.recordAudit(act.by.id, 'table.bill', { id, name: table.name, orders: checks.map((c) => c.id) });
    });
    return this.#changed();
  }

  /** The table is cleared and set for the next guests. */
  clear(act: Act, id: string): FloorView {
    const { store, clock } = this.deps;
    const table = store.floor.table(id);
    if (!table) throw notOnFloor('table');
    if (this.#openChecksAt(table.name) > 0) throw new CoreError('conflict', `Table ${table.name} still has an open check. Close it before clearing the table.`);
    store.transaction(() => {
      store.floor.markCleared(id, clock.now());
      store.cashier.recordAudit(act.by.id, 'table.clear', { id, name: table.name });
    });
    return this.#changed();
  }

  courses(): Course[] {
    return this.deps.store.floor.courses().map(({ id, name, position }) => ({ id, name, position }));
  }

  /**
   * The courses become `courses`, in that order (the bridge has checked the names): new ones get
   * an id, listed ones are renamed or moved, the others removed. A course an open check has a
   * line in stays; the refusal names it and nothing is saved.
   */
  saveCourses(act: Act, courses: readonly { id?: string | undefined; name: string }[]): Course[] {
    const approvedBy = this.deps.staff.require(act, 'floor.edit');
    const { store, clock } = this.deps;
    const now = clock.now();
    const current = store.floor.courses();
    courses.forEach((course, index) => {
      if (course.id !== undefined && !current.some((c) => c.id === course.id)) {
        const message = `${course.name} is no longer on the list (someone else removed it). Refresh and try again.`;
        throw new CoreError('not_found', message, [{ path: `courses.${index}.name`, message }]);
      }
    });
    const kept = new Set(courses.flatMap((c) => (c.id === undefined ? [] : [c.id])));
    const removed = current.filter((c) => !kept.has(c.id));
    if (removed.length > 0) {
      const inUse = new Set(this.deps.openOrders().flatMap((order) => order.lines.map((line) => line.course)));
      const busy = removed.find((c) => inUse.has(c.id));
      if (busy) throw new CoreError('conflict', `${busy.name} is on an open check. Remove it once no open check has an item in it.`);
    }
    const listed = courses.map((course) => ({ id: course.id ?? newId('crs_', now), name: course.name }));
    store.transaction(() => {
      store.floor.saveCourses(listed, act.by.id, now);
      store.cashier.recordAudit(act.by.id, 'floor.courses.change', { courses: listed, removed: removed.map((c) => c.id), ...StaffDesk.approval(approvedBy) });
    });
    this.deps.coursesChanged();
    return this.courses();
  }

  /**
   * The courses IT's configuration lists, while no person has changed the courses on this till:
   * a course already there keeps its id (matched by name); the rest are added or removed.
   */
  provisionCourses(courses: readonly { name: string }[]): boolean {
    const { store, clock } = this.deps;
    if (store.floor.coursesEdited()) return false;
    const now = clock.now();
    const current = store.floor.courses();
    const listed = courses.map((course) => ({ id: current.find((c) => nameKey(c.name) === nameKey(course.name))?.id ?? newId('crs_', now), name: course.name }));
    store.transaction(() => store.floor.saveCourses(listed, 'system', now));
    return true;
  }

  /**
   * The floor IT's configuration lays out (docs/config.md, "floor"), on a till whose floor is empty:
   * a floor a manager has laid out or changed is theirs, and stays. Answers whether it was applied.
   */
  provision(floor: FloorConfig): boolean {
    const { store, clock } = this.deps;
    if (store.floor.sections().length > 0 || store.floor.tables().length > 0) return false;
    const now = clock.now();
    store.transaction(() => {
      floor.sections.forEach((section, position) => {
        const sectionId = newId('sec_', now);
        store.floor.saveSection({ id: sectionId, name: section.name, position }, 'system', now);
        for (const t of section.tables) {
          store.floor.saveTable({ id: newId('tbl_', now), section_id: sectionId, name: t.name, seats: t.seats, shape: t.shape, x: t.x, y: t.y, width: t.width, height: t.height }, 'system', now);
        }
      });
      store.cashier.recordAudit('system', 'floor.provisioned', { sections: floor.sections.length, tables: floor.sections.reduce((n, s) => n + s.tables.length, 0) });
    });
    return true;
  }

  #openChecksAt(name: string): number {
    const key = nameKey(name);
    return this.deps.openOrders().filter((o) => tableKeyOf(o) === key).length;
  }

  /** The latest completion of a check at each table this business day, by table name key. */
  #closedToday(): Map<string, number> {
    const closed = new Map<string, number>();
    const docs = this.deps.store.cashier.listOrders({ status: 'fulfilled', createdFrom: this.deps.businessDayStart(), limit: OPEN_CHECKS_READ });
    for (const doc of docs) {
      const table = doc.service?.table;
      if (!table || (doc.service?.type !== 'dine_in' && doc.service?.type !== null)) continue;
      const key = nameKey(table);
      closed.set(key, Math.max(closed.get(key) ?? 0, doc.updated_at));
    }
    return closed;
  }

  #nameFree(what: 'table' | 'section', rows: readonly { id: string; name: string }[], id: string, name: string): void {
    const taken = rows.find((r) => r.id !== id && nameKey(r.name) === nameKey(name));
    if (taken) {
      const message = `Another ${what} is already called ${taken.name}. Choose another name.`;
      throw new CoreError('conflict', message, [{ path: 'name', message }]);
    }
  }

  #changed(): FloorView {
    this.deps.changed();
    return this.floor();
  }
}

function notOnFloor(what: 'table' | 'section'): CoreError {
  return new CoreError('not_found', `That ${what} is not on the floor any more. Refresh the floor and try again.`);
}
