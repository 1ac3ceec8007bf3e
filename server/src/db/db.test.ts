import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { buildUser } from '../../test/factories.ts';
import { Migrator, type Kysely } from 'kysely';
import { migrateToLatest, migrations } from './migrate.ts';

let t: TestDb;

/** A Kysely Migrator over the project's migrations for a test database (its own schema on PostgreSQL). */
function migratorFor(d: TestDb) {
  return new Migrator({
    db: d.db,
    provider: { getMigrations: async () => migrations },
    ...(d.dialect === 'postgres' ? { migrationTableSchema: d.location } : {}),
  });
}
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t.destroy();
});

describe(`database layer (${process.env.TEST_POSTGRES_URL ? 'postgres' : 'sqlite'})`, () => {
  it('migrates a second database (another schema on PostgreSQL) independently', async () => {
    const other = await createTestDb();
    try {
      const { user } = await buildUser({ db: other.db });
      expect(await other.db.selectFrom('users').select('id').execute()).toEqual([{ id: user.id }]);
      expect(await t.db.selectFrom('users').select('id').where('id', '=', user.id).execute()).toEqual([]);
    } finally {
      await other.destroy();
    }
  });

  it('0002_replication keeps existing data (edited_at = updated_at, device "server", repl_clock past every stamp) and migrates down', async () => {
    const d = await createTestDb();
    try {
      const migrator = migratorFor(d);
      const down = await migrator.migrateTo('0001_initial');
      expect(down.error).toBeUndefined();
      const db = d.db as unknown as Kysely<any>;
      const now = 1_800_000_000_000;
      await db.insertInto('users').values({ id: 'u1', name: 'A', email: 'a@example.com', password_hash: 'h', created_at: now, updated_at: now }).execute();
      await db.insertInto('availability_rules').values({ id: 'r1', user_id: 'u1', weekday: 0, start_time_local: '09:00', end_time_local: '17:00', created_at: now, updated_at: now + 5 }).execute();
      await db.insertInto('calendar_connections').values({ id: 'c1', user_id: 'u1', provider: 'ics', name: 'x', status: 'active', connected_at: now, updated_at: now + 9 }).execute();
      await db.insertInto('calendar_events').values({ id: 'e1', user_id: 'u1', connection_id: 'c1', uid: 'x', title: 't', start_ms: now, end_ms: now + 1, all_day: 0, is_busy: 1, depends_on_owner_zone: 0 }).execute();

      // Every later migration runs too (e.g. 0003_oauth_push, 0004_reset_proposals).
      expect(await migrateToLatest(d.db)).toEqual(Object.keys(migrations).filter((name) => name > '0001_initial'));
      expect(await d.db.selectFrom('users').select('repl_clock').where('id', '=', 'u1').executeTakeFirstOrThrow()).toEqual({ repl_clock: now + 9 });
      expect(await d.db.selectFrom('availability_rules').select(['edited_at', 'device_id', 'updated_at']).executeTakeFirstOrThrow()).toEqual({
        edited_at: now + 5,
        device_id: 'server',
        updated_at: now + 5,
      });
      expect(await d.db.selectFrom('calendar_events').select('updated_at').executeTakeFirstOrThrow()).toEqual({ updated_at: 0 });
      expect(await d.db.selectFrom('replication_tombstones').selectAll().execute()).toEqual([]);
    } finally {
      await d.destroy();
    }
  });

  it('0003_oauth_push keeps existing connections (no back-off, no lease, 0 failures), enforces unique channel ids, and migrates down', async () => {
    const d = await createTestDb();
    try {
      const migrator = migratorFor(d);
      expect((await migrator.migrateTo('0002_replication')).error).toBeUndefined();
      const db = d.db as unknown as Kysely<any>;
      const now = 1_800_000_000_000;
      await db.insertInto('users').values({ id: 'u1', name: 'A', email: 'a@example.com', password_hash: 'h', created_at: now, updated_at: now }).execute();
      await db.insertInto('calendar_connections').values({ id: 'c1', user_id: 'u1', provider: 'ics', name: 'x', status: 'active', connected_at: now, updated_at: now }).execute();

      expect(await migrateToLatest(d.db)).toEqual(Object.keys(migrations).filter((name) => name > '0002_replication'));
      expect(
        await d.db.selectFrom('calendar_connections').select(['next_sync_at', 'failure_count', 'sync_lease_until', 'sync_lease_owner']).executeTakeFirstOrThrow(),
      ).toEqual({ next_sync_at: null, failure_count: 0, sync_lease_until: null, sync_lease_owner: null });
      const channel = { user_id: 'u1', connection_id: 'c1', provider: 'google', channel_id: 'ch1', resource_id: 'r', calendar_id: 'primary', token_hash: 'h', expires_at: now, created_at: now };
      await d.db.insertInto('push_channels').values({ id: 'p1', ...channel } as never).execute();
      await expect(d.db.insertInto('push_channels').values({ id: 'p2', ...channel } as never).execute()).rejects.toThrow();
      await d.db.insertInto('oauth_states').values({ state_hash: 'x', user_id: 'u1', provider: 'google', code_verifier_enc: 'v1.a.b.c', created_at: now }).execute();

      expect((await migrator.migrateTo('0002_replication')).error).toBeUndefined();
      expect(await db.selectFrom('calendar_connections').selectAll().executeTakeFirstOrThrow()).not.toHaveProperty('next_sync_at');
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
    } finally {
      await d.destroy();
    }
  });

  it('0004_reset_proposals: reset codes and proposals belong to a user (one reset row each, cascade on delete) and migrate down', async () => {
    const d = await createTestDb();
    try {
      const migrator = migratorFor(d);
      const now = 1_800_000_000_000;
      await d.db.insertInto('users').values({ id: 'u1', name: 'A', email: 'a@example.com', password_hash: 'h', created_at: now, updated_at: now }).execute();
      const resetRow = { user_id: 'u1', code_hash: 'h', expires_at: now + 1_800_000, attempts: 0, created_at: now };
      await d.db.insertInto('password_resets').values(resetRow).execute();
      await expect(d.db.insertInto('password_resets').values(resetRow).execute()).rejects.toThrow();
      await d.db
        .insertInto('proposals')
        .values({ id: 'p1', user_id: 'u1', start_ms: now, end_ms: now + 1_800_000, name: 'V', email: 'v@example.com', visitor_timezone: 'UTC', created_at: now })
        .execute();
      expect(await d.db.selectFrom('proposals').select(['note', 'start_ms']).executeTakeFirstOrThrow()).toEqual({ note: '', start_ms: now });
      await d.db.deleteFrom('users').where('id', '=', 'u1').execute();
      expect(await d.db.selectFrom('password_resets').selectAll().execute()).toEqual([]);
      expect(await d.db.selectFrom('proposals').selectAll().execute()).toEqual([]);

      expect((await migrator.migrateTo('0003_oauth_push')).error).toBeUndefined();
      await expect(d.db.selectFrom('proposals').selectAll().execute()).rejects.toThrow();
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await d.db.selectFrom('password_resets').selectAll().execute()).toEqual([]);
    } finally {
      await d.destroy();
    }
  });

  it('0005_busy_blocks: blocks belong to a user (cascade on delete), keep epoch ms and a null note, and migrate down', async () => {
    const d = await createTestDb();
    try {
      const migrator = migratorFor(d);
      const now = 1_800_000_000_000;
      await d.db.insertInto('users').values({ id: 'u1', name: 'A', email: 'a@example.com', password_hash: 'h', created_at: now, updated_at: now }).execute();
      const row = { id: 'b1', user_id: 'u1', start_ms: now, end_ms: now + 3_600_000, note: null, edited_at: now, device_id: 'd-1', updated_at: now };
      await d.db.insertInto('busy_blocks').values(row).execute();
      await expect(d.db.insertInto('busy_blocks').values({ ...row, user_id: 'nobody', id: 'b2' }).execute()).rejects.toThrow();
      expect(await d.db.selectFrom('busy_blocks').selectAll().execute()).toEqual([{ ...row, is_deleted: 0 }]);
      await d.db.deleteFrom('users').where('id', '=', 'u1').execute();
      expect(await d.db.selectFrom('busy_blocks').selectAll().execute()).toEqual([]);

      expect((await migrator.migrateTo('0004_reset_proposals')).error).toBeUndefined();
      await expect(d.db.selectFrom('busy_blocks').selectAll().execute()).rejects.toThrow();
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await d.db.selectFrom('busy_blocks').selectAll().execute()).toEqual([]);
    } finally {
      await d.destroy();
    }
  });

  it('migrating twice is a no-op', async () => {
    expect(await migrateToLatest(t.db)).toEqual([]);
  });

  it('reads epoch-ms bigint columns back as JS numbers beyond 2^31', async () => {
    const { user } = await buildUser(t);
    const conn = await t.db
      .insertInto('calendar_connections')
      .values({ id: crypto.randomUUID(), user_id: user.id, provider: 'ics', name: 'Work', status: 'active', connected_at: 1_800_000_000_123, updated_at: 1_800_000_000_123 })
      .returning(['id', 'config_json', 'calendars_count'])
      .executeTakeFirstOrThrow();
    expect(conn.config_json).toBe('{}');
    expect(conn.calendars_count).toBe(0);
    await t.db
      .insertInto('busy_intervals')
      .values({ id: crypto.randomUUID(), user_id: user.id, connection_id: conn.id, start_ms: 1_774_252_800_000, end_ms: 1_774_256_400_000, depends_on_owner_zone: 0 })
      .execute();
    const row = await t.db.selectFrom('busy_intervals').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.start_ms).toBe(1_774_252_800_000);
    expect(typeof row.end_ms).toBe('number');
    const { count } = await t.db
      .selectFrom('busy_intervals')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(1);
  });

  it('deleting a user cascades to tokens, rules, connections and their busy intervals', async () => {
    const { user } = await buildUser(t);
    const now = Date.now();
    await t.db.insertInto('availability_rules').values({ id: crypto.randomUUID(), user_id: user.id, weekday: 0, start_time_local: '09:00', end_time_local: '17:00', created_at: now, updated_at: now }).execute();
    const connId = crypto.randomUUID();
    await t.db.insertInto('calendar_connections').values({ id: connId, user_id: user.id, provider: 'caldav', name: 'x', status: 'active', connected_at: now, updated_at: now }).execute();
    await t.db.insertInto('busy_intervals').values({ id: crypto.randomUUID(), user_id: user.id, connection_id: connId, start_ms: now, end_ms: now + 1, depends_on_owner_zone: 0 }).execute();
    await t.db.deleteFrom('users').where('id', '=', user.id).execute();
    for (const table of ['auth_tokens', 'availability_rules', 'calendar_connections'] as const) {
      const rows = await t.db.selectFrom(table).select('id').where('user_id', '=', user.id).execute();
      expect(rows, table).toHaveLength(0);
    }
    expect(await t.db.selectFrom('busy_intervals').select('id').where('connection_id', '=', connId).execute()).toHaveLength(0);
  });

  it('refuses a second user with the same username_lower or e-mail', async () => {
    await buildUser(t, { username: 'Alice-1', email: 'a1@example.com' });
    await expect(buildUser(t, { username: 'alice-1' })).rejects.toThrow();
    await expect(buildUser(t, { email: 'a1@example.com' })).rejects.toThrow();
  });

  it('counts a page view once per visitor per day', async () => {
    const { user } = await buildUser(t);
    const row = { user_id: user.id, day: '2026-03-23', visitor_hash: 'h', created_at: 1 };
    await t.db.insertInto('page_views').values(row).execute();
    await t.db.insertInto('page_views').values(row).onConflict((oc) => oc.columns(['user_id', 'day', 'visitor_hash']).doNothing()).execute();
    const rows = await t.db.selectFrom('page_views').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(1);
  });
});
