/** SQL for the users table (shared by auth and profile). */
import type { Db } from '../../db/kysely.ts';
import type { NewUser, UserRow, UserUpdate } from '../../db/schema.ts';

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The user whose username matches `slug` case-insensitively. */
export function findUserBySlug(db: Db, slug: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('username_lower', '=', slug.toLowerCase()).executeTakeFirst();
}

export async function insertUser(db: Db, user: NewUser): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

export async function updateUser(db: Db, id: string, patch: UserUpdate): Promise<void> {
  await db.updateTable('users').set(patch).where('id', '=', id).execute();
}
