import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app.ts';
import type { Deps } from '../../http/deps.ts';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
// Friday 2026-03-20 12:00 UTC (13:00 in Brussels). The next 14 days hold two Mondays: 23 March
// (Brussels UTC+1) and 30 March (after the switch to summer time on the 29th, UTC+2).
const NOW = Date.UTC(2026, 2, 20, 12);
beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
});
afterAll(async () => {
  await t.close();
});

let seq = 0;
const FALLBACK = (name: string, link: string) =>
  `Hi,\n\nHere are the times I'm free: ${link}\n\nPick a slot that works for you and propose it by replying to this email — I'll confirm.\n\nBest,\n${name}`;

/** An owner in Brussels with a Monday 09:00–17:00 rule (unless `rules: false`). */
async function owner(opts: { rules?: boolean; username?: string | null } = {}) {
  const username = opts.username === undefined ? `mail${++seq}x${Math.random().toString(36).slice(2, 6)}` : opts.username;
  const built = await buildUser(t, { username, timezone: 'Europe/Brussels', name: 'Olivia Owner' });
  if (opts.rules !== false) {
    const res = await request(t.app).post('/api/me/availability-rules').set(built.auth).send({ weekday: 0, start_time_local: '09:00', end_time_local: '17:00' });
    expect(res.status).toBeLessThan(300);
  }
  return { ...built, username, link: `http://avail.test/${username ?? 'username'}` };
}

async function addBusy(userId: string, start: string, end: string) {
  const connection_id = crypto.randomUUID();
  const now = t.clock.now();
  await t.db.insertInto('calendar_connections').values({ id: connection_id, user_id: userId, provider: 'ics', name: 'Work', status: 'active', connected_at: now, updated_at: now }).execute();
  await t.db.insertInto('busy_intervals').values({ id: crypto.randomUUID(), user_id: userId, connection_id, start_ms: Date.parse(start), end_ms: Date.parse(end), depends_on_owner_zone: 0 }).execute();
}

const generate = (app: TestApp['app'], auth: Record<string, string>, body: object) =>
  request(app).post('/api/me/profile/generate-email-text').set(auth).send(body);

describe('POST /api/me/profile/generate-email-text', () => {
  it("lists the next free windows in the owner's zone, with the context and the link", async () => {
    const o = await owner();
    const res = await generate(t.app, o.auth, { context: 'our project kickoff' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      default: false,
      text: [
        'Hi,',
        '',
        "I'd love to find a time for our project kickoff.",
        '',
        'Here are my next free times (Europe/Brussels):',
        '• Mon 23 Mar, 09:00–17:00',
        '• Mon 30 Mar, 09:00–17:00',
        '',
        `You can see all my free times and propose one here: ${o.link}`,
        '',
        'Nothing is booked until I confirm.',
        '',
        'Best,',
        'Olivia Owner',
      ].join('\n'),
    });
  });

  it('writes the same windows on the clock of the zone the owner picks', async () => {
    const o = await owner();
    const london = await generate(t.app, o.auth, { timezone: 'Europe/London' });
    // London is UTC+0 on the 23rd and UTC+1 on the 30th, one hour behind Brussels both times.
    expect(london.body.text).toContain('Here are my next free times (Europe/London):\n• Mon 23 Mar, 08:00–16:00\n• Mon 30 Mar, 08:00–16:00\n');
    // New York is already on summer time (UTC-4): five hours behind Brussels on the 23rd, six on the 30th.
    const ny = await generate(t.app, o.auth, { timezone: 'america/new_york' });
    expect(ny.body.text).toContain('Here are my next free times (America/New_York):\n• Mon 23 Mar, 04:00–12:00\n• Mon 30 Mar, 03:00–11:00\n');
    expect(ny.body.text).not.toContain("I'd love to find a time");
  });

  it('splits a window around busy time', async () => {
    const o = await owner();
    await addBusy(o.user.id, '2026-03-23T11:00:00Z', '2026-03-23T12:30:00Z'); // 12:00–13:30 in Brussels
    const res = await generate(t.app, o.auth, {});
    expect(res.body.default).toBe(false);
    expect(res.body.text).toContain('• Mon 23 Mar, 09:00–12:00\n• Mon 23 Mar, 13:30–17:00\n• Mon 30 Mar, 09:00–17:00\n');
  });

  it('answers the default text when there is no free time in the next 14 days', async () => {
    const o = await owner({ rules: false });
    const res = await generate(t.app, o.auth, { context: 'lunch' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, text: FALLBACK('Olivia Owner', o.link), default: true });
  });

  it('links to a placeholder before a username is chosen', async () => {
    const o = await owner({ username: null });
    const res = await generate(t.app, o.auth, {});
    expect(res.body.text).toContain('You can see all my free times and propose one here: http://avail.test/username\n');
  });

  it('falls back to the default text with the spec error when generation fails', async () => {
    const o = await owner();
    // The same app on a database whose schedule reads fail.
    const failingDb = new Proxy(t.db, {
      get(target, prop) {
        if (prop === 'selectFrom') {
          return (from: string) => {
            if (from === 'availability_rules') throw new Error('connection reset while reading Olivia Owner');
            return target.selectFrom(from as never);
          };
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const logged: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(line) });
    const failing = createApp({ ...t.deps, db: failingDb, logger } as Deps);
    const res = await generate(failing, o.auth, { context: 'lunch' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: false,
      text: FALLBACK('Olivia Owner', o.link),
      default: true,
      error: 'Failed to generate email text. Using default.',
    });
    // The log names the error, never its message (it could carry the owner's data).
    const failure = logged.map((l) => JSON.parse(l)).find((l) => l.msg === 'e-mail text generation failed');
    expect(failure).toMatchObject({ errName: 'Error', userId: o.user.id });
    expect(logged.join('\n')).not.toContain('Olivia');
  });

  it('refuses an unknown zone and a context over 200 characters (422)', async () => {
    const o = await owner();
    const zone = await generate(t.app, o.auth, { timezone: 'Mars/Olympus' });
    expect(zone.status).toBe(422);
    expect(zone.body).toMatchObject({ error: 'Unknown timezone', errors: { timezone: 'Unknown timezone' } });
    const long = await generate(t.app, o.auth, { context: 'x'.repeat(201) });
    expect(long.status).toBe(422);
    expect(long.body.error).toBe('Context must be at most 200 characters');
    // 200 characters after trimming are fine.
    const edge = await generate(t.app, o.auth, { context: ` ${'x'.repeat(200)} ` });
    expect(edge.status).toBe(200);
    expect(edge.body.text).toContain(`I'd love to find a time for ${'x'.repeat(200)}.`);
  });

  it('needs a signed-in, verified owner', async () => {
    expect((await request(t.app).post('/api/me/profile/generate-email-text').send({})).status).toBe(401);
    const { auth } = await buildUser(t, { verified: false });
    expect((await generate(t.app, auth, {})).status).toBe(403);
  });
});
