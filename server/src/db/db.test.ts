import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/test-db.ts';
import { buildUser } from '../../test/factories.ts';
import { migrateToLatest } from './migrate.ts';

let t: TestDb;
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
