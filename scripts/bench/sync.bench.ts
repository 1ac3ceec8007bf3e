/** Sync: an ICS feed of 300 single events + 20 weekly series → stored busy intervals (POST …/ics/connect, in-process app). */
import request from 'supertest';
import { createTestApp } from '../../server/test/test-app.ts';
import { buildUser } from '../../server/test/factories.ts';
import { startIcsServer } from '../../server/test/ics-server.ts';
import type { Log } from './util.ts';

export async function runSyncBench(log: Log): Promise<Record<string, unknown>> {
  const t = await createTestApp({ env: { ALLOW_PRIVATE_CALENDAR_HOSTS: 'true' } });
  const feed = await startIcsServer();
  try {
    const now = Date.now();
    const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Avail//bench//EN'];
    const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    for (let i = 0; i < 300; i++) {
      const s = now + (i - 20) * 7 * 3_600_000;
      lines.push('BEGIN:VEVENT', `UID:bench-${i}@avail`, `DTSTAMP:${stamp(now)}`, `DTSTART:${stamp(s)}`, `DTEND:${stamp(s + 3_600_000)}`, `SUMMARY:Private meeting ${i}`, 'END:VEVENT');
    }
    for (let i = 0; i < 20; i++) {
      lines.push('BEGIN:VEVENT', `UID:bench-series-${i}@avail`, `DTSTAMP:${stamp(now)}`, `DTSTART;TZID=Europe/Brussels:2024010${(i % 9) + 1}T${String(8 + (i % 9)).padStart(2, '0')}0000`, `DTEND;TZID=Europe/Brussels:2024010${(i % 9) + 1}T${String(8 + (i % 9)).padStart(2, '0')}3000`, 'RRULE:FREQ=WEEKLY', `SUMMARY:Series ${i}`, 'END:VEVENT');
    }
    lines.push('END:VCALENDAR');
    feed.set('/bench.ics', { ics: lines.join('\r\n') + '\r\n' });
    const owner = await buildUser(t, { username: 'benchowner' });
    await request(t.app).post('/api/me/availability-rules').set(owner.auth).send({ rules: [0, 1, 2, 3, 4].map((weekday) => ({ weekday, start_time_local: '08:00', end_time_local: '18:00' })) });
    const t0 = performance.now();
    const connect = await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: feed.url('/bench.ics') });
    const ms = +(performance.now() - t0).toFixed(1);
    if (connect.status !== 201) throw new Error(`ICS connect failed: ${connect.status} ${JSON.stringify(connect.body)}`);
    const busyCount = await t.db.selectFrom('busy_intervals').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    log(`sync: ICS connect ${ms} ms, ${Number(busyCount.n)} busy intervals`);
    return { sync_ics_connect_ms: ms, sync_ics_busy_intervals: Number(busyCount.n) };
  } finally {
    await feed.close();
    await t.close();
  }
}
