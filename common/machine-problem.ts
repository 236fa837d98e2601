// Failures where the machine, not the request, is the problem: the disk is full, the data folder
// is read-only or not ours to write, the disk itself failed. Told apart by the error's code, as
// SQLite (better-sqlite3's SqliteError) and Node's file system calls state it, so each surface
// (a bridge refusal, the start-up line, a printer's status) can say what to do in plain words
// instead of "something went wrong".

export type MachineProblem = 'disk_full' | 'read_only' | 'not_permitted' | 'disk_failed';

const BY_CODE: Record<string, MachineProblem> = {
  SQLITE_FULL: 'disk_full',
  ENOSPC: 'disk_full',
  EDQUOT: 'disk_full',
  EROFS: 'read_only',
  EACCES: 'not_permitted',
  EPERM: 'not_permitted',
  SQLITE_PERM: 'not_permitted',
  EIO: 'disk_failed',
};

function codeOf(error: unknown): string | undefined {
  const code = error !== null && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** What is wrong with the machine, if that is why `error` happened (its cause chain is followed); null otherwise. */
export function machineProblemOf(error: unknown): MachineProblem | null {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    const code = codeOf(current);
    if (code !== undefined) {
      const known = BY_CODE[code];
      if (known) return known;
      // SQLite's extended codes: SQLITE_READONLY_DBMOVED, SQLITE_IOERR_WRITE, SQLITE_IOERR_FSYNC…
      if (code.startsWith('SQLITE_READONLY')) return 'read_only';
      if (code.startsWith('SQLITE_IOERR')) return 'disk_failed';
    }
    current = current instanceof Error ? current.cause : undefined;
  }
  return null;
}

/** The problem in a few words, to finish "…: " in a message naming what could not be written. */
export const MACHINE_PROBLEM_WORDS: Record<MachineProblem, string> = {
  disk_full: 'the disk is full',
  read_only: 'the disk or folder is read-only',
  not_permitted: 'this program is not allowed to write there',
  disk_failed: 'the disk could not be written (an input/output error)',
};
