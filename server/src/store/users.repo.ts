/** SQL for the users table (shared by auth and profile). */
import type { Db } from '../db/kysely.ts';
import type { NewUser, UserRow, UserUpdate } from '../db/schema.ts';

/** The user with this e-mail (compared lower-cased; e-mails are stored lower-cased), or undefined. */
export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

/** The user with this id, or undefined. */
export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The user whose username matches `slug` case-insensitively. */
export function findUserBySlug(db: Db, slug: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('username_lower', '=', slug.toLowerCase()).executeTakeFirst();
}

/** Inserts a user (give `repl_clock: updated_at`); throws a unique violation (see db/errors.ts) for a taken e-mail or username. */
export async function insertUser(db: Db, user: NewUser): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

/** Applies `patch` to the user (no-op when the id does not exist). */
export async function updateUser(db: Db, id: string, patch: UserUpdate): Promise<void> {
  await db.updateTable('users').set(patch).where('id', '=', id).execute();
}

/**
 * Replaces name and password of a still-unverified registration, only while the row still holds
 * `expectedPasswordHash` (compare-and-set against a concurrent replacement or verification).
 * @returns false when the row changed meanwhile or is verified (nothing written).
 */
export async function replaceUnverifiedRegistration(
  db: Db,
  id: string,
  expectedPasswordHash: string,
  patch: Pick<UserUpdate, 'name' | 'password_hash' | 'updated_at'>,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set(patch)
    .where('id', '=', id)
    .where('password_hash', '=', expectedPasswordHash)
    .where('email_verified_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Marks the e-mail verified, only while the row still holds `expectedPasswordHash`: a registration
 * replaced between the code check and this write is not verified with the new password.
 * @returns false when the password changed meanwhile (nothing written).
 */
export async function markVerifiedIfUnchanged(
  db: Db,
  id: string,
  expectedPasswordHash: string,
  now: number,
  /** Replication stamp of the profile document (store/repl-clock.repo.ts). */
  stamp: number,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ email_verified_at: now, updated_at: stamp })
    .where('id', '=', id)
    .where('password_hash', '=', expectedPasswordHash)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Sets the username fields only while the row still holds `expected` (username and last change as
 * read): a compare-and-set, so two concurrent changes cannot both pass the 14-day rule.
 * @returns false when the row changed meanwhile (nothing written). Unique violations are thrown.
 */
export async function updateUsernameIfUnchanged(
  db: Db,
  id: string,
  expected: Pick<UserRow, 'username' | 'username_changed_at'>,
  patch: Pick<UserUpdate, 'username' | 'username_lower' | 'username_changed_at' | 'updated_at'>,
): Promise<boolean> {
  let q = db.updateTable('users').set(patch).where('id', '=', id);
  q = expected.username == null ? q.where('username', 'is', null) : q.where('username', '=', expected.username);
  q =
    expected.username_changed_at == null
      ? q.where('username_changed_at', 'is', null)
      : q.where('username_changed_at', '=', expected.username_changed_at);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The fields of a connection's owner a sync needs (`id`, `email`, IANA `timezone`), or undefined. */
export function findSyncOwner(db: Db, userId: string) {
  return db.selectFrom('users').select(['id', 'email', 'timezone']).where('id', '=', userId).executeTakeFirst();
}
