/**
 * Issue 12 (7): a change signal whose pg_notify fails is retried, then counted and logged — and
 * the listeners of this instance hear it regardless (they never depend on the database).
 */
import { Kysely, PostgresDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../db/schema.ts';
import type { Db } from '../db/kysely.ts';
import { ChangeBus } from './change-bus.ts';

/** A bus on a PostgreSQL-looking handle whose pg_notify fails `failures` times. */
class FlakyBus extends ChangeBus {
  calls = 0;
  constructor(private failures: number) {
    super({} as Db, { connectionString: 'postgres://unused.invalid/none', schema: 'flaky' } as never);
  }
  protected override async notify(): Promise<void> {
    this.calls++;
    if (this.failures-- > 0) throw new Error('connection terminated');
  }
}

/** Records the pg_notify lines (the subscriptions' unreachable LISTEN host is logged too, and tested below). */
function recordingLogger() {
  const lines: Array<{ obj: Record<string, unknown>; msg: string }> = [];
  return {
    lines,
    warn: (obj: object, msg: string) => {
      if (msg.includes('pg_notify')) lines.push({ obj: obj as Record<string, unknown>, msg });
    },
  };
}

describe('change bus: pg_notify failures', () => {
  it('a failed notify is retried and, once it goes through, nothing is logged', async () => {
    const bus = new FlakyBus(2);
    const log = recordingLogger();
    await bus.publish('u1', ['availability_rules'], log);
    expect(bus.calls).toBe(3);
    expect(bus.notifyFailures).toBe(0);
    expect(log.lines).toEqual([]);
  });

  it('a notify that keeps failing is counted and logged (ids only), and local listeners still hear the change', async () => {
    const bus = new FlakyBus(99);
    const log = recordingLogger();
    const heard: unknown[] = [];
    const owners: unknown[] = [];
    const off = bus.subscribe('u1', (s) => heard.push(s));
    const offOwners = bus.subscribeOwners((u) => owners.push(u));
    // (Subscribing also tries a LISTEN connection to the unreachable host: its loss is a resync.)
    await bus.publish('u1', ['busy_blocks'], log);
    expect(heard).toContainEqual({ collections: ['busy_blocks'] });
    expect(owners).toContain('u1');
    expect(bus.calls).toBe(3);
    expect(bus.notifyFailures).toBe(1);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0].msg).toBe('change signal to other instances (pg_notify) failed');
    expect(log.lines[0].obj).toMatchObject({ userId: 'u1', collections: ['busy_blocks'], errName: 'Error', attempts: 3 });
    off();
    offOwners();
  });

  it('through a real Kysely handle whose PostgreSQL pool fails every query: retried, counted, logged without the payload; local listeners still hear it', async () => {
    // A pool that hands out clients whose every query fails, as when the server dropped the connection.
    const queries: string[] = [];
    const pool = {
      connect: async () => ({
        query: async (q: { text?: string } | string) => {
          queries.push(typeof q === 'string' ? q : String(q.text ?? ''));
          throw Object.assign(new Error('Connection terminated unexpectedly'), { name: 'Error' });
        },
        release: () => undefined,
      }),
      end: async () => undefined,
    };
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pool as never }) }) as unknown as Db;
    const bus = new ChangeBus(db, { connectionString: 'postgres://127.0.0.1:1/none', schema: 'failing' });
    const log = recordingLogger();
    const heard: unknown[] = [];
    const owners: unknown[] = [];
    const off = bus.subscribe('user-7', (sig) => heard.push(sig));
    const offOwners = bus.subscribeOwners((u) => owners.push(u));
    await bus.publish('user-7', ['calendar_events', 'calendar_events'], log);
    expect(heard).toContainEqual({ collections: ['calendar_events'] });
    expect(owners).toContain('user-7');
    expect(queries.filter((q) => q.includes('pg_notify'))).toHaveLength(3);
    expect(bus.notifyFailures).toBe(1);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]!.obj).toEqual({ userId: 'user-7', collections: ['calendar_events'], errName: 'Error', attempts: 3 });
    expect(JSON.stringify(log.lines)).not.toContain(bus.instanceId); // the notify payload is not logged
    // The next change is published (and heard locally) as before: a failure does not wedge the bus.
    await bus.publish('user-7', ['busy_blocks'], log);
    expect(heard).toContainEqual({ collections: ['busy_blocks'] });
    expect(bus.notifyFailures).toBe(2);
    off();
    offOwners();
    await db.destroy();
  });

  it('a LISTEN connection that cannot be opened is logged once per outage (error name only) and counted, however often it retries', async () => {
    const bus = new ChangeBus({} as Db, { connectionString: 'postgres://avail:s3cret-pw@127.0.0.1:1/none', schema: 'listen_down' });
    const lines: Array<{ obj: Record<string, unknown>; msg: string }> = [];
    bus.setLogger({ warn: (obj, msg) => void lines.push({ obj: obj as Record<string, unknown>, msg }), info: (obj, msg) => void lines.push({ obj: obj as Record<string, unknown>, msg }) });
    const heard: unknown[] = [];
    const off = bus.subscribe('u9', (sig) => heard.push(sig));
    await bus.ready();
    // The refused connection made the subscriber resync and was reported.
    expect(heard).toContainEqual({ resync: true });
    expect(bus.listenFailures).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.msg).toBe('change bus: LISTEN connection lost; subscribers resync and it reconnects every second');
    expect(lines[0]!.obj).toMatchObject({ channel: 'avail_changes_listen_down', subscribers: 1 });
    expect(JSON.stringify(lines)).not.toContain('s3cret-pw');
    // The reconnect (1 s later) fails again: same outage, no new line.
    const resyncs = heard.length;
    for (let i = 0; i < 200 && heard.length === resyncs; i++) await new Promise((r) => setTimeout(r, 25));
    expect(heard.length).toBeGreaterThan(resyncs);
    expect(bus.listenFailures).toBe(1);
    expect(lines).toHaveLength(1);
    off();
  });
});
