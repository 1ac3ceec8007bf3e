/**
 * The daily purge (issue 12): "account data deleted within 30 days of account deletion" — rows of
 * a user that no longer exists go at the next run, short-lived rows once their time is up, and
 * everything still needed stays.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { purgeJob } from './purge.job.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const DAY = 24 * 60 * 60_000;
const run = () => purgeJob().run(t.deps as never, { isStopping: () => false });

async function ids(table: 'busy_intervals' | 'replication_conflicts'): Promise<string[]> {
  return (await t.db.selectFrom(table).select('id').execute()).map((r) => r.id).sort();
}

describe('purge job', () => {
  it('deletes rows left by deleted users, old conflict logs, stale consents and codes; keeps the rest', async () => {
    const now = Date.parse('2030-05-01T10:00:00Z');
    t.clock.set(now);
    const owner = await buildUser(t, { password: 'the password 1', verified: false });
    const uid = owner.user.id;
    const connId = crypto.randomUUID();
    await t.db
      .insertInto('calendar_connections')
      .values({ id: connId, user_id: uid, provider: 'ics', name: 'Feed', status: 'active', account: null, secret_enc: null, sync_state_json: null, warnings_json: null, last_error: null, last_synced_at: null, connected_at: now, updated_at: now, next_sync_at: null, sync_lease_until: null, sync_lease_owner: null })
      .execute();
    // busy_intervals has no foreign key to users: a row naming a user that does not exist is an orphan.
    const interval = (id: string, userId: string) => ({ id, user_id: userId, connection_id: connId, start_ms: now, end_ms: now + 3_600_000, depends_on_owner_zone: 0 });
    await t.db.insertInto('busy_intervals').values([interval('kept-interval', uid), interval('orphan-interval', 'deleted-user-id')]).execute();
    const conflict = (id: string, createdAt: number) => ({ id, user_id: uid, collection: 'busy_blocks', doc_id: 'd', winner_json: '{}', loser_json: '{"note":"dentist"}', reason: 'latest_edit', device_id: 'dev', created_at: createdAt });
    await t.db.insertInto('replication_conflicts').values([conflict('old-conflict', now - 31 * DAY), conflict('recent-conflict', now - 29 * DAY)]).execute();
    await t.db
      .insertInto('oauth_states')
      .values([
        { state_hash: 'stale-state', user_id: uid, provider: 'google', code_verifier_enc: 'x', created_at: now - 2 * DAY },
        { state_hash: 'fresh-state', user_id: uid, provider: 'google', code_verifier_enc: 'x', created_at: now - 5 * 60_000 },
      ])
      .execute();
    await t.db.insertInto('email_verifications').values({ user_id: uid, code_hash: 'h', expires_at: now - 2 * DAY, attempts: 0, last_sent_at: now - 2 * DAY, created_at: now - 2 * DAY }).execute();

    const counts = (await run()) as { orphans: Record<string, number>; replicationConflicts: number; oauthStates: number; emailVerifications: number };

    expect(await ids('busy_intervals')).toEqual(['kept-interval']);
    expect(counts.orphans).toEqual({ busy_intervals: 1 });
    expect(await ids('replication_conflicts')).toEqual(['recent-conflict']);
    expect((await t.db.selectFrom('oauth_states').select('state_hash').execute()).map((r) => r.state_hash)).toEqual(['fresh-state']);
    expect(await t.db.selectFrom('email_verifications').select('user_id').where('user_id', '=', uid).execute()).toEqual([]);
    expect(counts).toMatchObject({ replicationConflicts: 1, oauthStates: 1, emailVerifications: 1 });
    // The owner and their connection are untouched; a second run finds nothing more.
    expect(await t.db.selectFrom('users').select('id').where('id', '=', uid).execute()).toHaveLength(1);
    expect(await run()).toMatchObject({ orphans: {}, replicationConflicts: 0, oauthStates: 0, emailVerifications: 0 });
    t.clock.reset();
  });
});
