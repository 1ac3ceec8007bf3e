/**
 * Busy rules per connection (issue 14 item 4): PUT /api/me/calendar/connections/:id/busy-rules
 * re-derives the connection at once and the public page follows; defaults are the semantics doc's.
 */
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { buildUser, type BuiltUser } from '../../../test/factories.ts';
import { icsTestApp } from '../../../test/ics-app.ts';

const NOW = Date.parse('2030-01-06T12:00:00Z'); // a Sunday; Brussels is UTC+1 in January

const ctx = icsTestApp(NOW);

function event(uid: string, start: string, end: string | null, title: string, extra: string[] = []): string {
  const times = end === null ? [`DTSTART;VALUE=DATE:${start}`] : [`DTSTART:${start}`, `DTEND:${end}`];
  return ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20300101T000000Z', ...times, `SUMMARY:${title}`, ...extra, 'END:VEVENT'].join('\r\n');
}

/** An owner with Mon and Tue 09:00–17:00 Brussels and one ICS feed holding one event of each kind. */
async function ownerWithFeed(): Promise<BuiltUser & { username: string; connectionId: string }> {
  const username = `rules${Math.random().toString(36).slice(2, 8)}`;
  const owner = await buildUser(ctx.t, { timezone: 'Europe/Brussels', username });
  for (const weekday of [0, 1]) {
    await request(ctx.t.app).post('/api/me/availability-rules').set(owner.auth).send({ weekday, start_time_local: '09:00', end_time_local: '17:00' });
  }
  const me = `ATTENDEE;PARTSTAT=%s:mailto:${owner.user.email.toUpperCase()}`;
  const path = `/rules-${owner.user.id}.ics`;
  ctx.srv.set(path, {
    ics: [
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//avail-test//EN',
      event('tentative@test', '20300107T090000Z', '20300107T100000Z', 'Maybe: vendor demo', [me.replace('%s', 'TENTATIVE')]),
      event('unanswered@test', '20300107T110000Z', '20300107T120000Z', 'Invite not answered', [me.replace('%s', 'NEEDS-ACTION')]),
      event('focus@test', '20300107T130000Z', '20300107T140000Z', 'FOCUS time (deep work)'),
      event('board@test', '20300107T140000Z', '20300107T150000Z', 'Board meeting', [me.replace('%s', 'ACCEPTED')]),
      event('declined@test', '20300107T150000Z', '20300107T153000Z', 'Declined lunch', [me.replace('%s', 'DECLINED')]),
      event('holiday@test', '20300108', null, 'Holiday'),
      'END:VCALENDAR', '',
    ].join('\r\n'),
  });
  const connect = await request(ctx.t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: ctx.srv.url(path) });
  expect(connect.status).toBe(201);
  return { ...owner, username, connectionId: connect.body.connection.id };
}

async function windows(username: string) {
  const res = await request(ctx.t.app).get(`/api/public/${username}/availability`).query({ range: '2030-01-07..2030-01-08' });
  expect(res.status).toBe(200);
  return res.body.availability.windows as Array<{ start: string; end: string }>;
}
const put = (o: BuiltUser, id: string, body: object) => request(ctx.t.app).put(`/api/me/calendar/connections/${id}/busy-rules`).set(o.auth).send(body);
const ALL_BUSY = { all_day: 'busy', tentative: 'busy', unanswered: 'busy', free_keywords: [] };

describe('PUT /api/me/calendar/connections/:id/busy-rules', () => {
  it("defaults to the semantics doc's rules, and each rule frees its events on the public page at once", async () => {
    const o = await ownerWithFeed();
    const list = await request(ctx.t.app).get('/api/me/calendar/connections').set(o.auth);
    expect(list.body.connections[0].busy_rules).toEqual(ALL_BUSY);
    // Mon 08:00–16:00Z minus tentative 09–10, unanswered 11–12, focus 13–14, board 14–15; declined 15–15:30 is free; Tue all-day busy.
    expect(await windows(o.username)).toEqual([
      { start: '2030-01-07T08:00:00Z', end: '2030-01-07T09:00:00Z' },
      { start: '2030-01-07T10:00:00Z', end: '2030-01-07T11:00:00Z' },
      { start: '2030-01-07T12:00:00Z', end: '2030-01-07T13:00:00Z' },
      { start: '2030-01-07T15:00:00Z', end: '2030-01-07T16:00:00Z' },
    ]);

    const tentative = await put(o, o.connectionId, { ...ALL_BUSY, tentative: 'free' });
    expect(tentative.status).toBe(200);
    expect(tentative.body.connection.busy_rules).toEqual({ ...ALL_BUSY, tentative: 'free' });
    expect((await windows(o.username)).slice(0, 2)).toEqual([
      { start: '2030-01-07T08:00:00Z', end: '2030-01-07T11:00:00Z' },
      { start: '2030-01-07T12:00:00Z', end: '2030-01-07T13:00:00Z' },
    ]);

    await put(o, o.connectionId, { all_day: 'free', tentative: 'free', unanswered: 'free', free_keywords: ['  focus ', 'FOCUS', ''] });
    expect(await windows(o.username)).toEqual([
      { start: '2030-01-07T08:00:00Z', end: '2030-01-07T14:00:00Z' },
      { start: '2030-01-07T15:00:00Z', end: '2030-01-07T16:00:00Z' },
      { start: '2030-01-08T08:00:00Z', end: '2030-01-08T16:00:00Z' },
    ]);
    const stored = (await request(ctx.t.app).get('/api/me/calendar/connections').set(o.auth)).body.connections[0].busy_rules;
    expect(stored).toEqual({ all_day: 'free', tentative: 'free', unanswered: 'free', free_keywords: ['focus'] });

    // Back to the defaults: the connection derives exactly as at first.
    await put(o, o.connectionId, ALL_BUSY);
    expect(await windows(o.username)).toHaveLength(4);
    const row = await ctx.t.db.selectFrom('calendar_connections').select('busy_rules_json').where('id', '=', o.connectionId).executeTakeFirstOrThrow();
    expect(row.busy_rules_json).toBeNull();
  });

  it('keeps the rules across the next sync of the feed', async () => {
    const o = await ownerWithFeed();
    await put(o, o.connectionId, { ...ALL_BUSY, all_day: 'free' });
    const sync = await request(ctx.t.app).post('/api/me/calendar/sync').set(o.auth);
    expect(sync.status).toBe(200);
    expect((await windows(o.username)).at(-1)).toEqual({ start: '2030-01-08T08:00:00Z', end: '2030-01-08T16:00:00Z' });
  });

  it('rules saved while a sync is fetching win: the sync does not write the old rules\' result over them', async () => {
    const o = await ownerWithFeed();
    const path = `/rules-${o.user.id}.ics`;
    // The feed changes (a new 08:00–08:30 stand-up) and answers slowly, so the sync derives after the save.
    const ics = ctx.srv.routes.get(path)!.ics!.replace('END:VCALENDAR', `${event('standup@test', '20300107T080000Z', '20300107T083000Z', 'Stand-up')}\r\nEND:VCALENDAR`);
    ctx.srv.set(path, { ics, delayMs: 700 });
    const before = ctx.srv.requests.filter((r) => r.path === path).length;
    const syncing = Promise.resolve(request(ctx.t.app).post('/api/me/calendar/sync').set(o.auth));
    await expect.poll(() => ctx.srv.requests.filter((r) => r.path === path).length, { timeout: 10_000, interval: 10 }).toBeGreaterThan(before);
    expect((await put(o, o.connectionId, { ...ALL_BUSY, tentative: 'free' })).status).toBe(200);
    expect((await syncing).status).toBe(200);
    // Both: the stand-up from the sync, and the tentative demo free from the rules.
    expect((await windows(o.username)).slice(0, 2)).toEqual([
      { start: '2030-01-07T08:30:00Z', end: '2030-01-07T11:00:00Z' },
      { start: '2030-01-07T12:00:00Z', end: '2030-01-07T13:00:00Z' },
    ]);
  });

  it('refuses a bad body with field errors and changes nothing; 404 for a connection that is not yours', async () => {
    const o = await ownerWithFeed();
    const bad = await put(o, o.connectionId, { all_day: 'maybe', tentative: 'free', unanswered: 'busy', free_keywords: ['x'.repeat(51)] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ all_day: 'all_day must be "busy" or "free"', 'free_keywords.0': 'A keyword can be at most 50 characters.' });
    const missing = await put(o, o.connectionId, { all_day: 'free' });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['free_keywords', 'tentative', 'unanswered']);
    const tooMany = await put(o, o.connectionId, { ...ALL_BUSY, free_keywords: Array.from({ length: 21 }, (_, i) => `k${i}`) });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors).toEqual({ free_keywords: 'At most 20 keywords.' });
    expect(await windows(o.username)).toHaveLength(4);

    const other = await buildUser(ctx.t);
    const foreign = await put(other, o.connectionId, ALL_BUSY);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('Calendar connection not found');
    expect((await request(ctx.t.app).put(`/api/me/calendar/connections/${o.connectionId}/busy-rules`).send(ALL_BUSY)).status).toBe(401);
  });
});
