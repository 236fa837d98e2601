// Corruption detection that does not make every launch read the whole file. On open: the header
// must agree with the file's size, and the schema and the register's small tables are checked;
// the whole file is read (PRAGMA quick_check) only when the last session did not end with a clean
// close. The whole-file check of a cleanly closed file runs after start, in a worker thread with
// its own read-only connection, and never writes to the file. See docs/store.md.
import { closeSync, fsyncSync, openSync, readFileSync, readSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import { StoreError } from './errors';

/** The tables the register reads at start, bounded by the menu's size, not by the orders': checked on every open. */
const REGISTER_TABLES = ['locations', 'categories', 'modifiers', 'menu_items', 'settings', 'sync_cursors', 'repriced_orders', 'dead_letters'];
const HEADER_BYTES = 100;

export type IntegrityReport = { status: 'ok' } | { status: 'corrupt'; problems: string[] } | { status: 'not_checked'; reason: string };

function corrupt(file: string, why: string, cause?: unknown): StoreError {
  return new StoreError('corrupt_database', `the store ${file} ${why}; it was left untouched — restore it from a backup or move it aside`, cause === undefined ? undefined : { cause });
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * A file shorter than the page count its header states, or not a whole number of pages, was cut
 * short. Only meaningful when no write-ahead log holds pages not yet copied back (a crash during a
 * checkpoint may leave the file short until the log is replayed): `hasLog` skips it then.
 */
export function checkHeaderAgreesWithSize(file: string, hasLog: boolean): void {
  const size = sizeOf(file);
  if (size === 0 || hasLog) return;
  const header = Buffer.alloc(HEADER_BYTES);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, header, 0, HEADER_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  const rawPageSize = header.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65_536 : rawPageSize;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) throw corrupt(file, `has an invalid page size (${rawPageSize}) in its header`);
  if (size % pageSize !== 0) throw corrupt(file, `is not a whole number of ${pageSize}-byte pages (${size} bytes: truncated)`);
  // The header's page count is valid only when its version-valid-for number equals the change counter.
  const pages = header.readUInt32BE(28);
  if (pages > 0 && header.readUInt32BE(92) === header.readUInt32BE(24) && size < pages * pageSize) {
    throw corrupt(file, `is shorter than its header says (${size} bytes for ${pages} pages of ${pageSize}: truncated)`);
  }
}

/** A write-ahead log with frames in it: the last session did not close cleanly, or another connection is open. */
export function hasWriteAheadLog(file: string): boolean {
  return sizeOf(`${file}-wal`) > 0;
}

/** Reads only: the problems PRAGMA quick_check reports, or a StoreError when SQLite cannot even read the pages. */
function quickCheck(db: Database, file: string, table?: string): string[] {
  try {
    const rows = db.pragma(table === undefined ? 'quick_check' : `quick_check(${table})`) as { quick_check: string }[];
    return rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
  } catch (error) {
    throw corrupt(file, `is corrupt (${(error as Error).message})`, error);
  }
}

/** The whole file: seconds at a year of orders. */
export function checkWholeFile(db: Database, file: string): void {
  const problems = quickCheck(db, file);
  if (problems.length > 0) throw corrupt(file, `failed its integrity check (${problems.slice(0, 3).join('; ')})`);
}

/** The schema and the register's tables with their indexes: milliseconds whatever the number of orders. */
export function checkRegisterTables(db: Database, file: string): void {
  let tables: string[];
  try {
    tables = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).pluck().all() as string[];
  } catch (error) {
    throw corrupt(file, `has an unreadable schema (${(error as Error).message})`, error);
  }
  const problems = ['sqlite_schema', ...REGISTER_TABLES.filter((t) => tables.includes(t))].flatMap((t) => quickCheck(db, file, t));
  if (problems.length > 0) throw corrupt(file, `failed its integrity check (${problems.slice(0, 3).join('; ')})`);
}

// ---- the clean-close marker ----

/**
 * Beside the store, hidden (`.terminal.db.clean-close`): written, and synced, after a clean close;
 * removed before the first write of a session. Not data: deleting it only costs one full check.
 */
export function cleanCloseMarker(file: string): string {
  return join(dirname(file), `.${basename(file)}.clean-close`);
}

interface Fingerprint {
  size: number;
  mtimeMs: number;
}

function fingerprint(file: string): Fingerprint {
  const { size, mtimeMs } = statSync(file);
  return { size, mtimeMs };
}

/** Syncs a folder so that a file created or removed in it stays so after a power cut. Not every platform can. */
function syncFolder(folder: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(folder, 'r');
    fsyncSync(fd);
  } catch {
    // Windows cannot open a folder: the marker may then survive a power cut it should not, which
    // costs nothing but the full check being skipped once; the bounded checks still run.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The marker exists and describes the file as it is now (same size and modification time, no log). */
export function closedCleanly(file: string): boolean {
  try {
    const marker = JSON.parse(readFileSync(cleanCloseMarker(file), 'utf8')) as Fingerprint;
    const now = fingerprint(file);
    return !hasWriteAheadLog(file) && marker.size === now.size && marker.mtimeMs === now.mtimeMs;
  } catch {
    return false; // no marker, an unreadable one, or no file: read everything
  }
}

export function writeCleanCloseMarker(file: string): void {
  const marker = cleanCloseMarker(file);
  const fd = openSync(marker, 'w');
  try {
    writeFileSync(fd, JSON.stringify(fingerprint(file)));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  syncFolder(dirname(marker));
}

/**
 * Best effort: a marker that cannot be removed is still caught by its fingerprint once the session
 * writes to the file (the log, then the file's size or time, no longer match).
 */
export function removeCleanCloseMarker(file: string): void {
  try {
    unlinkSync(cleanCloseMarker(file));
  } catch {
    return; // none (the usual case after a crash), or the folder refuses
  }
  syncFolder(dirname(file));
}

// ---- the whole-file check after start ----

/**
 * The check's page cache, in KiB (SQLite's default here is 16 MB): it reads every page once, and what its
 * thread allocated stays with the process after it ends (glibc keeps a thread's arena): with 16 MB, a till
 * that checked 200,000 orders settled 15 MB higher (docs/store-mode-memory.md); the check takes as long.
 */
const CHECK_CACHE_KIB = 1_024;

/** Runs in the worker: CommonJS, given the driver's resolved path (the app's bundle keeps better-sqlite3 outside). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let report;
try {
  const Database = require(workerData.driver);
  const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('cache_size = -' + workerData.cacheKib);
    const problems = db.pragma('quick_check').map((r) => r.quick_check).filter((r) => r !== 'ok');
    report = problems.length === 0 ? { status: 'ok' } : { status: 'corrupt', problems };
  } finally {
    db.close();
  }
} catch (error) {
  const message = String((error && error.message) || error);
  report = /malformed|corrupt|not a database/i.test(message) ? { status: 'corrupt', problems: [message] } : { status: 'not_checked', reason: message };
}
parentPort.postMessage(report);
`;

/**
 * PRAGMA quick_check of the whole file on a second, read-only connection in a worker thread: the
 * till keeps selling meanwhile (WAL lets a reader and the writer run together).
 */
export function checkWholeFileInWorker(file: string): Promise<IntegrityReport> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  return new Promise((resolve) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, cacheKib: CHECK_CACHE_KIB } });
    let settled = false;
    const settle = (report: IntegrityReport) => {
      if (settled) return;
      settled = true;
      resolve(report);
    };
    worker.once('message', (report: IntegrityReport) => settle(report));
    worker.once('error', (error) => settle({ status: 'not_checked', reason: error.message }));
    worker.once('exit', (code) => settle({ status: 'not_checked', reason: `the check stopped (exit code ${code})` }));
  });
}
