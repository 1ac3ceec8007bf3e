/**
 * Test data factories. They write straight to the database (no HTTP), so they are fast and
 * independent of the auth endpoints.
 *
 *   const { user, token, auth } = await buildUser(t, { timezone: 'America/New_York', username: 'alice' });
 *   await request(t.app).get('/api/me').set(auth);
 */
import type { Db } from '../src/db/kysely.ts';
import type { Insertable } from 'kysely';
import type { Database, UserRow } from '../src/db/schema.ts';
import { issueToken } from '../src/http/authenticate.ts';
import { encryptSecret, secretFingerprint } from '../src/lib/crypto.ts';
import { hashPassword } from '../src/modules/auth/password.ts';

export interface BuildUserOverrides {
  name?: string;
  email?: string;
  /** Default 'password123'. */
  password?: string;
  timezone?: string;
  /** Sets username + username_lower (username_changed_at stays null unless given). */
  username?: string | null;
  username_changed_at?: number | null;
  /** Default true (email_verified_at = now). */
  verified?: boolean;
  created_at?: number;
}

export interface BuiltUser {
  user: UserRow;
  /** A valid bearer token of this user. */
  token: string;
  password: string;
  /** `{ Authorization: 'Bearer …' }` for supertest's `.set()`. */
  auth: { Authorization: string };
}

let seq = 0;
const hashCache = new Map<string, Promise<string>>();

/** Inserts a user (verified by default) and issues a bearer token. */
export async function buildUser(
  ctx: { db: Db; now?: () => number } | { db: Db; clock: { now(): number } },
  overrides: BuildUserOverrides = {},
): Promise<BuiltUser> {
  const now = 'clock' in ctx ? ctx.clock.now() : (ctx.now ?? Date.now)();
  seq += 1;
  const n = `${Date.now().toString(36)}${seq}`;
  const password = overrides.password ?? 'password123';
  if (!hashCache.has(password)) hashCache.set(password, hashPassword(password));
  const username = overrides.username === undefined ? null : overrides.username;
  const row: UserRow = {
    id: crypto.randomUUID(),
    name: overrides.name ?? `Test User ${seq}`,
    email: (overrides.email ?? `user${n}@example.com`).toLowerCase(),
    password_hash: await hashCache.get(password)!,
    timezone: overrides.timezone ?? 'Europe/Brussels',
    username,
    username_lower: username ? username.toLowerCase() : null,
    username_changed_at: overrides.username_changed_at ?? null,
    email_verified_at: overrides.verified === false ? null : now,
    created_at: overrides.created_at ?? now,
    updated_at: now,
    repl_clock: now,
    plain_link_off: 0,
    intro: null,
    avatar_version: null,
    format_locale: null,
    hour12: null,
    week_start: null,
    proposal_target: null,
    two_factor_enabled_at: null,
  };
  await ctx.db.insertInto('users').values(row).execute();
  const token = await issueToken({ db: ctx.db, now: () => now }, row.id);
  return { user: row, token, password, auth: { Authorization: `Bearer ${token}` } };
}

/**
 * Inserts `n` owners, each with one ICS connection to `urlOf(i)` that has never synced, stored the
 * way the app stores them (feed URL encrypted with `key` in secret_enc, `{ sourceId, url_hmac }`
 * config), 1,000 rows per transaction — fast enough for 10,000 (tests and the P6 bench).
 * @returns the connection ids, index i = feed i.
 */
export async function seedIcsConnections(db: Db, key: Uint8Array, n: number, urlOf: (i: number) => string, now: number = Date.now()): Promise<string[]> {
  const ids: string[] = [];
  for (let from = 0; from < n; from += 1000) {
    const users: Insertable<Database['users']>[] = [];
    const conns: Insertable<Database['calendar_connections']>[] = [];
    for (let i = from; i < Math.min(n, from + 1000); i++) {
      const userId = crypto.randomUUID();
      const id = crypto.randomUUID();
      ids.push(id);
      users.push({
        id: userId,
        name: `Owner ${i}`,
        email: `seed-${i}-${id.slice(0, 8)}@example.com`,
        password_hash: 'not-a-hash',
        timezone: 'Europe/Brussels',
        username: null,
        username_lower: null,
        username_changed_at: null,
        email_verified_at: now,
        created_at: now,
        updated_at: now,
        repl_clock: now,
      });
      conns.push({
        id,
        user_id: userId,
        provider: 'ics' as const,
        name: `Feed ${i}`,
        status: 'active' as const,
        account: new URL(urlOf(i)).host,
        config_json: JSON.stringify({ sourceId: `ics:${id}`, url_hmac: secretFingerprint(urlOf(i), key) }),
        secret_enc: encryptSecret(urlOf(i), key),
        sync_state_json: null,
        warnings_json: null,
        last_error: null,
        last_synced_at: null,
        connected_at: now,
        updated_at: now,
      });
    }
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(users).execute();
      await trx.insertInto('calendar_connections').values(conns).execute();
    });
  }
  return ids;
}
