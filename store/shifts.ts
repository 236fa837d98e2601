// Shifts of the cash drawers, the cash moved in and out of them, and who did what on which
// business day (migration 14). Local to this terminal: nothing here is sent to the cloud. The
// figures (expected cash, the Z report) are computed by the core from these rows and the orders.
import type { SqlRunner } from './database';
import { StoreError } from './errors';

export interface CashCountDoc {
  value: number;
  count: number;
}

export interface ShiftDoc {
  id: string;
  /** 'till' when the till has one drawer, else the cashier's staff id. */
  drawer: string;
  business_day: string;
  opened_at: number;
  opened_by: string;
  currency: string;
  float_count: CashCountDoc[];
  float_total: number;
  closed_at: number | null;
  closed_by: string | null;
  count: CashCountDoc[] | null;
  counted_total: number | null;
  expected: number | null;
  note: string;
  /** Set when part of the stored record cannot be read (a damaged count): why, for the report that leaves it out. */
  unreadable?: string;
}

interface ShiftRow extends Omit<ShiftDoc, 'float_count' | 'count'> {
  float_count: string;
  count: string | null;
}

/** A stored count, or null when it is not one (the row was damaged): one bad row must not stop every read of the day. */
function parseCount(text: string): CashCountDoc[] | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as CashCountDoc[]) : null;
  } catch {
    return null;
  }
}

function fromRow(r: ShiftRow): ShiftDoc {
  const floatCount = parseCount(r.float_count);
  const count = r.count === null ? null : parseCount(r.count);
  const damaged = [floatCount === null ? 'its float count' : null, r.count !== null && count === null ? 'its closing count' : null].filter((d) => d !== null);
  return { ...r, float_count: floatCount ?? [], count, ...(damaged.length > 0 ? { unreadable: `${damaged.join(' and ')} cannot be read` } : {}) };
}

/** An order closed with money still due, a manager's decision (migration 17). */
export interface WalkoutDoc {
  order_id: string;
  /** Who closed it. */
  staff_id: string;
  /** The manager or owner whose PIN approved it; null when the one who closed it may. */
  approved_by: string | null;
  reason: string;
  /** What was due when it was closed: written off, never a sale. */
  unpaid: number;
  business_day: string;
  at: number;
}

export interface CashMovementDoc {
  id: string;
  shift_id: string;
  kind: 'paid_out' | 'drop';
  amount: number;
  reason: string;
  staff_id: string;
  at: number;
}

export type AttributionKind = 'order' | 'payment' | 'refund' | 'void';

export interface AttributionDoc {
  entity_kind: AttributionKind;
  entity_id: string;
  staff_id: string;
  shift_id: string | null;
  business_day: string;
  at: number;
}

export class ShiftBook {
  constructor(private readonly sql: SqlRunner) {}

  open(doc: Omit<ShiftDoc, 'closed_at' | 'closed_by' | 'count' | 'counted_total' | 'expected' | 'note'>): ShiftDoc {
    if (this.openShift(doc.drawer)) throw new StoreError('conflict', 'this drawer already has an open shift');
    this.sql.runSql(
      'INSERT INTO shifts (id, drawer, business_day, opened_at, opened_by, currency, float_count, float_total) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [doc.id, doc.drawer, doc.business_day, doc.opened_at, doc.opened_by, doc.currency, JSON.stringify(doc.float_count), doc.float_total],
    );
    return this.get(doc.id)!;
  }

  anyOpen(): boolean {
    return this.sql.allSql('SELECT 1 FROM shifts WHERE closed_at IS NULL LIMIT 1', []).length > 0;
  }

  get(id: string): ShiftDoc | undefined {
    const row = this.sql.allSql<ShiftRow>('SELECT * FROM shifts WHERE id = ?', [id])[0];
    return row ? fromRow(row) : undefined;
  }

  openShift(drawer: string): ShiftDoc | undefined {
    const row = this.sql.allSql<ShiftRow>('SELECT * FROM shifts WHERE drawer = ? AND closed_at IS NULL', [drawer])[0];
    return row ? fromRow(row) : undefined;
  }

  /** Shifts opened on a business day, and those opened before it that took money on it, oldest first. */
  ofDay(day: string): ShiftDoc[] {
    return this.sql
      .allSql<ShiftRow>(
        `SELECT * FROM shifts WHERE business_day = ?
           OR id IN (SELECT shift_id FROM attributions WHERE business_day = ? AND shift_id IS NOT NULL)
         ORDER BY opened_at`,
        [day, day],
      )
      .map(fromRow);
  }

  close(id: string, close: { closed_at: number; closed_by: string; count: CashCountDoc[]; counted_total: number; expected: number; note: string }): ShiftDoc {
    const changed = this.sql.runSql(
      'UPDATE shifts SET closed_at = ?, closed_by = ?, count = ?, counted_total = ?, expected = ?, note = ? WHERE id = ? AND closed_at IS NULL',
      [close.closed_at, close.closed_by, JSON.stringify(close.count), close.counted_total, close.expected, close.note, id],
    );
    if (changed.changes === 0) throw new StoreError('conflict', 'this shift is already closed');
    return this.get(id)!;
  }

  addMovement(doc: CashMovementDoc): CashMovementDoc {
    this.sql.runSql('INSERT INTO cash_movements (id, shift_id, kind, amount, reason, staff_id, at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      doc.id,
      doc.shift_id,
      doc.kind,
      doc.amount,
      doc.reason,
      doc.staff_id,
      doc.at,
    ]);
    return doc;
  }

  movements(shiftId: string): CashMovementDoc[] {
    return this.sql.allSql<CashMovementDoc>('SELECT * FROM cash_movements WHERE shift_id = ? ORDER BY at, id', [shiftId]);
  }

  /** Records who did it; an order taken over is given to its new owner (the history is in the audit log). */
  attribute(doc: AttributionDoc): void {
    this.sql.runSql(
      `INSERT INTO attributions (entity_kind, entity_id, staff_id, shift_id, business_day, at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (entity_kind, entity_id) DO UPDATE SET staff_id = excluded.staff_id`,
      [doc.entity_kind, doc.entity_id, doc.staff_id, doc.shift_id, doc.business_day, doc.at],
    );
  }

  attributionsOf(kind: AttributionKind, ids: readonly string[]): Map<string, AttributionDoc> {
    if (ids.length === 0) return new Map();
    const rows = this.sql.allSql<AttributionDoc>('SELECT * FROM attributions WHERE entity_kind = ? AND entity_id IN (SELECT value FROM json_each(?))', [kind, JSON.stringify(ids)]);
    return new Map(rows.map((r) => [r.entity_id, r]));
  }

  ofShift(shiftId: string): AttributionDoc[] {
    return this.sql.allSql<AttributionDoc>('SELECT * FROM attributions WHERE shift_id = ? ORDER BY at', [shiftId]);
  }

  onDay(day: string): AttributionDoc[] {
    return this.sql.allSql<AttributionDoc>('SELECT * FROM attributions WHERE business_day = ? ORDER BY at', [day]);
  }

  recordWalkout(doc: WalkoutDoc): void {
    this.sql.runSql('INSERT INTO walkouts (order_id, staff_id, approved_by, reason, unpaid, business_day, at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      doc.order_id,
      doc.staff_id,
      doc.approved_by,
      doc.reason,
      doc.unpaid,
      doc.business_day,
      doc.at,
    ]);
  }

  /** The walkouts of a business day, oldest first. */
  walkoutsOn(day: string): WalkoutDoc[] {
    return this.sql.allSql<WalkoutDoc>('SELECT * FROM walkouts WHERE business_day = ? ORDER BY at, order_id', [day]);
  }

  /** Which of these orders were closed as walkouts (on any day). */
  walkoutsOf(orderIds: readonly string[]): Map<string, WalkoutDoc> {
    if (orderIds.length === 0) return new Map();
    const rows = this.sql.allSql<WalkoutDoc>('SELECT * FROM walkouts WHERE order_id IN (SELECT value FROM json_each(?))', [JSON.stringify(orderIds)]);
    return new Map(rows.map((r) => [r.order_id, r]));
  }

  /** Business days with anything recorded, newest first. */
  days(limit: number): string[] {
    return this.sql
      .allSql<{ day: string }>('SELECT day FROM (SELECT DISTINCT business_day AS day FROM attributions UNION SELECT business_day FROM shifts UNION SELECT business_day FROM walkouts) ORDER BY day DESC LIMIT ?', [limit])
      .map((r) => r.day);
  }
}
