/**
 * Online backup and restore of the embedded SQLite database (`npm run backup`, `npm run restore`).
 *
 * - Backup uses SQLite's online backup API (https://www.sqlite.org/backup.html, better-sqlite3's
 *   `db.backup`): a consistent copy while the server keeps running and writing; the copy is then
 *   checked (`PRAGMA integrity_check`). The key file (`DATA_DIR/secret.key`, which decrypts the
 *   stored calendar credentials) is copied beside it. Everything is 0600 in a 0700 folder
 *   `<dest>/avail-backup-<UTC timestamp>/`.
 * - Restore checks the backup first (it opens, integrity_check is ok), refuses to overwrite an
 *   existing database unless `force`, then writes the database file (and the key) in place via a
 *   temporary file and a rename, removing a stale WAL/shared-memory pair. Stop the server first.
 * - PostgreSQL (DATABASE_URL set) is not handled here: use `pg_dump` / `pg_restore` (README).
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Config } from '../config.ts';

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

const DB_FILE = 'avail.sqlite';
const KEY_FILE = 'secret.key';

function assertSqlite(config: Pick<Config, 'DATABASE_URL'>): void {
  if (config.DATABASE_URL) {
    throw new BackupError('DATABASE_URL is set (PostgreSQL): back up with pg_dump -Fc "$DATABASE_URL" -f avail.dump, restore with pg_restore -d "$DATABASE_URL" --clean avail.dump.');
  }
}

/** `ok` when SQLite's integrity_check of `file` passes; otherwise the problems it reports. */
export function integrityOf(file: string): string {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma('integrity_check') as Array<{ integrity_check: string }>;
    return rows.map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

/**
 * Copies the live database (and the key file, when the key lives in one) into a new folder under
 * `destRoot`; returns that folder. `now` names it (UTC ms). Throws BackupError on PostgreSQL, with
 * no database yet, or when the copy fails its integrity check.
 */
export async function backupSqlite(config: Pick<Config, 'DATABASE_URL' | 'SQLITE_PATH' | 'DATA_DIR'>, destRoot: string, now = Date.now()): Promise<string> {
  assertSqlite(config);
  if (!existsSync(config.SQLITE_PATH)) throw new BackupError(`No database at ${config.SQLITE_PATH} yet: nothing to back up.`);
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
  const dir = path.join(path.resolve(destRoot), `avail-backup-${stamp}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const target = path.join(dir, DB_FILE);
  const live = new SQLite(config.SQLITE_PATH, { fileMustExist: true });
  try {
    live.pragma('busy_timeout = 5000');
    // SQLite restarts an online backup whenever another connection writes between two steps; under
    // a steady stream of writes small steps never finish (and a step of "the pages left" after a
    // restart is still one step short). So every page is copied in one step (sqlite3_backup_step
    // with the largest count better-sqlite3 passes): one read snapshot in WAL mode, writers are not
    // blocked, and a write between steps cannot restart it.
    await live.backup(target, { progress: () => 0x7fffffff });
  } finally {
    live.close();
  }
  chmodSync(target, 0o600);
  const check = integrityOf(target);
  if (check !== 'ok') throw new BackupError(`The copy failed its integrity check: ${check}`);
  const key = path.join(config.DATA_DIR, KEY_FILE);
  if (existsSync(key)) {
    copyFileSync(key, path.join(dir, KEY_FILE));
    chmodSync(path.join(dir, KEY_FILE), 0o600);
  }
  return dir;
}

/**
 * Puts the backup in `backupDir` back as the database of `config` (and its key file when the
 * backup has one). Throws BackupError when the backup is missing or damaged, on PostgreSQL, or when
 * a database exists and `force` is not set. The server must not be running.
 */
export function restoreSqlite(config: Pick<Config, 'DATABASE_URL' | 'SQLITE_PATH' | 'DATA_DIR'>, backupDir: string, opts: { force?: boolean } = {}): void {
  assertSqlite(config);
  const source = path.join(path.resolve(backupDir), DB_FILE);
  if (!existsSync(source)) throw new BackupError(`${source} does not exist: not an Avail backup folder.`);
  const check = integrityOf(source);
  if (check !== 'ok') throw new BackupError(`The backup failed its integrity check: ${check}`);
  if (existsSync(config.SQLITE_PATH) && !opts.force) {
    throw new BackupError(`A database already exists at ${config.SQLITE_PATH}. Stop the server, then run again with --force to replace it.`);
  }
  mkdirSync(path.dirname(config.SQLITE_PATH), { recursive: true, mode: 0o700 });
  const temp = `${config.SQLITE_PATH}.restoring`;
  copyFileSync(source, temp);
  chmodSync(temp, 0o600);
  rmSync(`${config.SQLITE_PATH}-wal`, { force: true });
  rmSync(`${config.SQLITE_PATH}-shm`, { force: true });
  renameSync(temp, config.SQLITE_PATH);
  const key = path.join(path.resolve(backupDir), KEY_FILE);
  if (existsSync(key)) {
    const dest = path.join(config.DATA_DIR, KEY_FILE);
    copyFileSync(key, `${dest}.restoring`);
    chmodSync(`${dest}.restoring`, 0o600);
    renameSync(`${dest}.restoring`, dest);
  }
}
