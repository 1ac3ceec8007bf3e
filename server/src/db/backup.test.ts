/**
 * Issue 12 (5): an online backup while another connection keeps writing, restored into a fresh
 * data folder: it opens, passes integrity_check and holds every row written before the backup
 * began; restore refuses to overwrite without --force; files are 0600 in a 0700 folder.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { backupSqlite, BackupError, integrityOf, restoreSqlite } from './backup.ts';

function dataDir(): { DATA_DIR: string; SQLITE_PATH: string; DATABASE_URL: undefined } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'avail-backup-test-'));
  return { DATA_DIR: dir, SQLITE_PATH: path.join(dir, 'avail.sqlite'), DATABASE_URL: undefined };
}

describe('SQLite backup and restore', () => {
  it('copies a live database consistently while it is written, and restores it', async () => {
    const from = dataDir();
    writeFileSync(path.join(from.DATA_DIR, 'secret.key'), 'a-key\n', { mode: 0o600 });
    const db = new SQLite(from.SQLITE_PATH);
    db.pragma('journal_mode = WAL');
    db.exec('create table t (id integer primary key, v text not null)');
    const insert = db.prepare('insert into t (v) values (?)');
    for (let i = 0; i < 5_000; i++) insert.run(`row ${i} ${'x'.repeat(100)}`);
    const acknowledged = 5_000;
    // A writer keeps going during the backup (another connection, as the server would).
    const writer = new SQLite(from.SQLITE_PATH);
    writer.pragma('busy_timeout = 5000');
    const more = writer.prepare('insert into t (v) values (?)');
    let written = 0;
    const loop = setInterval(() => {
      for (let i = 0; i < 50; i++) more.run(`later ${written++}`);
    }, 1);
    const dest = mkdtempSync(path.join(os.tmpdir(), 'avail-backups-'));
    let folder: string;
    try {
      folder = await backupSqlite(from, dest, Date.parse('2030-01-02T03:04:05Z'));
    } finally {
      clearInterval(loop);
    }
    expect(written).toBeGreaterThan(0); // the writer really ran during the backup
    expect(path.basename(folder)).toBe('avail-backup-20300102T030405Z');
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(folder, 'avail.sqlite')).mode & 0o777).toBe(0o600);
    expect(readFileSync(path.join(folder, 'secret.key'), 'utf8')).toBe('a-key\n');

    const to = dataDir();
    restoreSqlite(to, folder);
    expect(integrityOf(to.SQLITE_PATH)).toBe('ok');
    const restored = new SQLite(to.SQLITE_PATH, { readonly: true });
    const n = (restored.prepare('select count(*) as n from t').get() as { n: number }).n;
    expect(n).toBeGreaterThanOrEqual(acknowledged);
    expect(n).toBeLessThanOrEqual(acknowledged + written);
    expect((restored.prepare("select count(*) as n from t where v like 'row %'").get() as { n: number }).n).toBe(acknowledged);
    restored.close();
    expect(readFileSync(path.join(to.DATA_DIR, 'secret.key'), 'utf8')).toBe('a-key\n');

    // Over an existing database: refused without --force, done with it.
    expect(() => restoreSqlite(to, folder)).toThrow(BackupError);
    expect(() => restoreSqlite(to, folder)).toThrow(/--force/);
    restoreSqlite(to, folder, { force: true });
    expect(integrityOf(to.SQLITE_PATH)).toBe('ok');
    writer.close();
    db.close();
  });

  it('refuses a damaged backup and explains PostgreSQL', async () => {
    const bad = mkdtempSync(path.join(os.tmpdir(), 'avail-bad-backup-'));
    writeFileSync(path.join(bad, 'avail.sqlite'), 'not a database at all, just text'.repeat(200));
    expect(() => restoreSqlite(dataDir(), bad)).toThrow();
    expect(() => restoreSqlite(dataDir(), path.join(bad, 'missing'))).toThrow(/not an Avail backup folder/);
    await expect(backupSqlite({ ...dataDir(), DATABASE_URL: 'postgres://x/y' } as never, bad)).rejects.toThrow(/pg_dump/);
  });
});
