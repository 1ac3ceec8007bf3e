/**
 * Issue 12 (7): a change signal whose pg_notify fails is retried, then counted and logged — and
 * the listeners of this instance hear it regardless (they never depend on the database).
 */
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/kysely.ts';
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

function recordingLogger() {
  const lines: Array<{ obj: Record<string, unknown>; msg: string }> = [];
  return { lines, warn: (obj: object, msg: string) => void lines.push({ obj: obj as Record<string, unknown>, msg }) };
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
});
