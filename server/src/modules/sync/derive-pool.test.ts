/**
 * The derive worker pool: a real derivation runs in a worker thread (tsx registered by the
 * worker entry), and a worker that spins or eats memory is ended alone — its task gets an
 * owner-facing DeriveError, the process lives on and the next task runs in a fresh worker.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import os from 'node:os';
import { SYNC_WORKER_NICE } from '@avail/shared/constants.ts';
import { DerivePool } from './derive-pool.ts';
import { DeriveError } from './derive.ts';

const HOSTILE_WORKER = fileURLToPath(new URL('../../../test/hostile-derive-worker.mjs', import.meta.url));
const ICS = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'BEGIN:VEVENT', 'UID:a@test', 'DTSTART:20300107T090000Z', 'DTEND:20300107T100000Z', 'SUMMARY:x', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
const opts = (ownerZone: string) => ({ ownerZone, ownerEmails: [], now: Date.parse('2030-01-06T12:00:00Z') });

describe('DerivePool', () => {
  const pools: DerivePool[] = [];
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
  });

  it('derives in a worker thread with the real engine (TypeScript loaded by the worker entry)', async () => {
    const pool = new DerivePool({ threads: 1 });
    pools.push(pool);
    expect(threadId).toBe(0);
    const derived = await pool.run([{ icsText: ICS }], opts('UTC'));
    expect(derived.intervals).toEqual([{ start: Date.parse('2030-01-07T09:00:00Z'), end: Date.parse('2030-01-07T10:00:00Z'), dependsOnOwnerZone: false }]);
    expect(pool.threadCount).toBe(1);
    await expect(pool.run([{ icsText: 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\n' }], opts('UTC'))).rejects.toThrow(
      new DeriveError('Calendar data could not be read: truncated calendar: BEGIN:VEVENT is never closed'),
    );
  });

  it('runs derivations at the lowest CPU priority (Linux), while the request thread keeps its own', async () => {
    /** nice of every thread of this process (/proc/self/task/<tid>/stat, field 19). */
    const nices = () =>
      readdirSync('/proc/self/task').map((tid) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      });
    const before = nices().filter((n) => n === SYNC_WORKER_NICE).length;
    const pool = new DerivePool({ threads: 1 });
    pools.push(pool);
    await pool.run([{ icsText: ICS }], opts('UTC')); // the worker stays alive (idle timeout 5 s)
    expect(nices().filter((n) => n === SYNC_WORKER_NICE).length).toBe(before + 1);
    expect(os.getPriority()).toBe(0); // the request thread (and the process) are untouched
  });

  it('ends a worker past its time limit, with a clear error, and keeps serving', async () => {
    const pool = new DerivePool({ threads: 1, timeoutMs: 500, workerFile: HOSTILE_WORKER });
    pools.push(pool);
    const err = await pool.run([], opts('spin')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeriveError);
    expect((err as Error).message).toBe('This calendar took longer than 1 second to read, so it was not synced.');
    await expect(pool.run([], opts('UTC'))).resolves.toEqual({ events: [], intervals: [], warnings: [] });
  });

  it('ends a worker past its memory limit, with a clear error, and keeps serving', async () => {
    const pool = new DerivePool({ threads: 1, maxHeapMb: 32, timeoutMs: 20_000, workerFile: HOSTILE_WORKER });
    pools.push(pool);
    const err = await pool.run([], opts('eat')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeriveError);
    expect((err as Error).message).toBe('This calendar needs more than 32 MB of memory to read, so it was not synced.');
    await expect(pool.run([], opts('UTC'))).resolves.toEqual({ events: [], intervals: [], warnings: [] });
  });
});
