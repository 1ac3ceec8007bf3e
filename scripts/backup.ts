/**
 * `npm run backup -- <folder>`: a consistent online copy of the SQLite database (safe while the
 * server runs) plus the key file, in `<folder>/avail-backup-<timestamp>/` (default folder:
 * `DATA_DIR/backups`). With DATABASE_URL set it prints the pg_dump command and exits 1.
 */
import path from 'node:path';
import { loadConfig } from '../server/src/config.ts';
import { BackupError, backupSqlite } from '../server/src/db/backup.ts';

process.umask(0o077);
const config = loadConfig();
const dest = process.argv[2] ?? path.join(config.DATA_DIR, 'backups');
try {
  const dir = await backupSqlite(config, dest);
  console.log(`Backup written to ${dir}`);
  if (process.env.AVAIL_SECRET_KEY) console.log('The key comes from AVAIL_SECRET_KEY: keep it with the backup (it is not in the folder).');
} catch (err) {
  console.error(err instanceof BackupError ? err.message : err);
  process.exit(1);
}
