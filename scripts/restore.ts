/**
 * `npm run restore -- <backup-folder> [--force]`: checks the backup, then puts it back as the
 * database of DATA_DIR (and its key file). Stop the server first; --force replaces an existing
 * database. With DATABASE_URL set it prints the pg_restore command and exits 1.
 */
import { loadConfig } from '../server/src/config.ts';
import { BackupError, restoreSqlite } from '../server/src/db/backup.ts';

process.umask(0o077);
const args = process.argv.slice(2);
const folder = args.find((a) => !a.startsWith('--'));
if (!folder) {
  console.error('Usage: npm run restore -- <backup-folder> [--force]');
  process.exit(1);
}
const config = loadConfig();
try {
  restoreSqlite(config, folder, { force: args.includes('--force') });
  console.log(`Restored ${folder} into ${config.SQLITE_PATH}`);
} catch (err) {
  console.error(err instanceof BackupError ? err.message : err);
  process.exit(1);
}
