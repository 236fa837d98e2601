// The answers of bridge commands that create something, kept by the page's request id (migration 16)
// so that a repeat (the screen retrying after "not answering", a second press) gets the first answer
// instead of a second order, payment or paid-out. docs/store.md, "Repeated commands".
//
// A request is reserved before its command runs and answered after; a reservation left by a run of
// the terminal that stopped part way is "interrupted": whether the command was done is unknown, so
// a repeat is refused with words rather than run again. Rows are kept 24 hours.
import type { SqlRunner } from './database';

const KEPT_MS = 24 * 60 * 60_000;

/** What the ledger holds of a request id. */
export type LedgerEntry =
  | { state: 'new' }
  /** Answered before: the stored result (JSON). */
  | { state: 'answered'; result: string }
  /** Reserved by this run of the terminal and not answered yet: the first call is still running. */
  | { state: 'running' }
  /** Reserved by a run that stopped before answering: the outcome is not known. */
  | { state: 'interrupted' }
  /** The id was used for another command or other details. */
  | { state: 'mismatch' };

interface LedgerRow {
  command: string;
  digest: string;
  run_id: string;
  result: string | null;
}

export class RequestLedger {
  constructor(
    private readonly sql: SqlRunner,
    private readonly transaction: <T>(fn: () => T) => T,
  ) {}

  /**
   * Reserves `requestId` for `command` with details `digest` when it is new (answering 'new'), or
   * says what an earlier call with the same id left. One transaction, so two calls at once cannot
   * both find it new.
   */
  reserve(requestId: string, command: string, digest: string, runId: string, now: number): LedgerEntry {
    return this.transaction(() => {
      this.sql.runSql('DELETE FROM bridge_requests WHERE at < ?', [now - KEPT_MS]);
      const row = this.sql.allSql<LedgerRow>('SELECT command, digest, run_id, result FROM bridge_requests WHERE request_id = ?', [requestId])[0];
      if (!row) {
        this.sql.runSql('INSERT INTO bridge_requests (request_id, command, digest, run_id, result, at) VALUES (?, ?, ?, ?, NULL, ?)', [requestId, command, digest, runId, now]);
        return { state: 'new' };
      }
      if (row.command !== command || row.digest !== digest) return { state: 'mismatch' };
      if (row.result !== null) return { state: 'answered', result: row.result };
      return row.run_id === runId ? { state: 'running' } : { state: 'interrupted' };
    });
  }

  /** The command succeeded: later repeats get `result`. */
  answer(requestId: string, result: string): void {
    this.sql.runSql('UPDATE bridge_requests SET result = ? WHERE request_id = ?', [result, requestId]);
  }

  /** The command was refused (nothing done): the id is free again, so the same request may be tried anew. */
  release(requestId: string): void {
    this.sql.runSql('DELETE FROM bridge_requests WHERE request_id = ? AND result IS NULL', [requestId]);
  }
}
