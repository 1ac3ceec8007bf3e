/**
 * "Why is this time blocked?" (issue 14 item 6): GET /api/me/calendar/events/:id/source explains an
 * event of the owner's week — connection, calendar, title, UID, single / recurring / override —
 * with the connection's parse warnings; owner-only.
 */
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.ts';
import { icsTestApp } from '../../../test/ics-app.ts';
import { calendarLabel } from './calendar-events.service.ts';

const NOW = Date.parse('2030-01-06T12:00:00Z'); // a Sunday

const ctx = icsTestApp(NOW);

const FEED = [
  'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//avail-test//EN', 'X-WR-CALNAME:Work feed',
  'BEGIN:VEVENT', 'UID:one-off@test', 'DTSTAMP:20300101T000000Z', 'DTSTART:20300107T090000Z', 'DTEND:20300107T100000Z', 'SUMMARY:Dentist', 'END:VEVENT',
  'BEGIN:VEVENT', 'UID:standup@test', 'DTSTAMP:20300101T000000Z', 'DTSTART:20300107T120000Z', 'DTEND:20300107T121500Z', 'RRULE:FREQ=DAILY;COUNT=3', 'EXRULE:FREQ=WEEKLY', 'SUMMARY:Standup', 'END:VEVENT',
  'BEGIN:VEVENT', 'UID:standup@test', 'DTSTAMP:20300101T000000Z', 'RECURRENCE-ID:20300108T120000Z', 'DTSTART:20300108T150000Z', 'DTEND:20300108T151500Z', 'SUMMARY:Standup (moved)', 'END:VEVENT',
  'END:VCALENDAR', '',
].join('\r\n');

describe('GET /api/me/calendar/events/:id/source', () => {
  it('names the connection, calendar, title, UID and origin of each event, with the parse warnings', async () => {
    const username = `why${Math.random().toString(36).slice(2, 8)}`;
    const owner = await buildUser(ctx.t, { timezone: 'Europe/Brussels', username });
    ctx.srv.set(`/why-${owner.user.id}.ics`, { ics: FEED });
    const connect = await request(ctx.t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: ctx.srv.url(`/why-${owner.user.id}.ics`) });
    expect(connect.status).toBe(201);
    const events = (await request(ctx.t.app).get('/api/me/calendar/events').query({ start_date: '2030-01-07', end_date: '2030-01-09' }).set(owner.auth)).body.events as Array<{ id: string; title: string }>;
    expect(events.map((e) => e.title)).toEqual(['Dentist', 'Standup', 'Standup (moved)', 'Standup']);

    const sources = await Promise.all(events.map(async (e) => (await request(ctx.t.app).get(`/api/me/calendar/events/${e.id}/source`).set(owner.auth)).body));
    expect(sources.map((s) => [s.event.title, s.event.uid, s.event.origin])).toEqual([
      ['Dentist', 'one-off@test', 'single'],
      ['Standup', 'standup@test', 'recurring'],
      ['Standup (moved)', 'standup@test', 'override'],
      ['Standup', 'standup@test', 'recurring'],
    ]);
    expect(sources[0]).toMatchObject({
      event: { start: '2030-01-07T09:00:00.000Z', end: '2030-01-07T10:00:00.000Z', all_day: false, is_busy: true },
      calendar: 'Work feed',
      connection: { id: connect.body.connection.id, name: 'Work feed', provider: 'ics', status: 'active', last_error: null },
    });
    expect(sources[0].connection.warnings).toEqual(['EXRULE is not supported (event standup@test); ignored']);
    expect(JSON.stringify(sources)).not.toContain('/why-'); // never the feed's address

    // Nothing of it on the public path.
    const pub = await request(ctx.t.app).get(`/api/public/${username}/availability`).query({ range: '2030-01-07..2030-01-09' });
    expect(pub.status).toBe(200);
    expect(pub.text).not.toMatch(/standup@test|one-off@test|Dentist|Standup|recurring|override/);
  });

  it("answers 404 for another owner's event and 401 without a session", async () => {
    const owner = await buildUser(ctx.t, { timezone: 'Europe/Brussels' });
    ctx.srv.set(`/why2-${owner.user.id}.ics`, { ics: FEED });
    await request(ctx.t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: ctx.srv.url(`/why2-${owner.user.id}.ics`) });
    const [ev] = (await request(ctx.t.app).get('/api/me/calendar/events').query({ start_date: '2030-01-07', end_date: '2030-01-07' }).set(owner.auth)).body.events;
    const other = await buildUser(ctx.t);
    const foreign = await request(ctx.t.app).get(`/api/me/calendar/events/${ev.id}/source`).set(other.auth);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('Event not found');
    expect(JSON.stringify(foreign.body)).not.toContain('Dentist');
    expect((await request(ctx.t.app).get(`/api/me/calendar/events/${ev.id}/source`)).status).toBe(401);
  });
});

describe('calendarLabel', () => {
  it('gives a readable calendar name per provider, never a feed address', () => {
    expect(calendarLabel('ics', 'ics:abc', 'Team feed')).toBe('Team feed');
    expect(calendarLabel('google', 'primary', 'Google')).toBe('Primary calendar');
    expect(calendarLabel('google', 'team@group.calendar.google.com', 'Google')).toBe('team@group.calendar.google.com');
    expect(calendarLabel('caldav', 'https://dav.example.com/u/alice/Work%20Calendar/', 'x')).toBe('Work Calendar');
    expect(calendarLabel('microsoft', 'AAMkAGI2TAAA=', 'x')).toBe('Outlook calendar …2TAAA=');
    expect(calendarLabel('caldav', null, 'x')).toBeNull();
  });
});
