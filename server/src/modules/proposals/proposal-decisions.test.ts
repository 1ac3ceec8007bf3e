/**
 * Issue 24 end to end through the API: a visitor proposes, the owner confirms / declines / cancels
 * (dashboard API, one-click link, a device's replicated request), against a real Radicale and the
 * Google and Graph fakes; e-mails parsed with ical.js; the public answer before and after.
 */
import ICAL from 'ical.js';
import request from 'supertest';
import { createDAVClient } from 'tsdav';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, type BuiltUser } from '../../../test/factories.ts';
import { start as startGoogleFake } from '../../../test/fakes/google-calendar-fake.ts';
import { start as startGraphFake } from '../../../test/fakes/microsoft-graph-fake.ts';
import { connectThroughConsent, listen, openAllWeek, publicWindows, utcDatePlus, waitFor } from '../../../test/oauth-kit.ts';
import { startRadicale, type RadicaleServer } from '../../../test/radicale.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { signProposalLink } from './proposal-links.service.ts';
import { REPLICATION_SCHEMA_VERSION } from '@avail/shared/rx/replication-protocol.ts';

const PASSWORD = 'radicale-pw-456';
const DAY = utcDatePlus(3);
const at = (hh: string) => `${DAY}T${hh}:00Z`;

let ipSeq = 0;
const freshIp = () => `203.0.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

async function propose(t: TestApp, slug: string, start: string, end: string, extra: Record<string, unknown> = {}) {
  const res = await request(t.app)
    .post(`/api/public/${slug}/proposals`)
    .set('X-Forwarded-For', freshIp())
    .send({ start, end, name: 'Vera Visitor', email: 'vera@example.org', note: 'About the roof', visitor_timezone: 'Europe/Berlin', ...extra });
  expect(res.status).toBe(201);
  const owner = await t.db.selectFrom('proposals').select(['id', 'user_id']).orderBy('created_at', 'desc').orderBy('id', 'desc').where('start_ms', '=', Date.parse(start)).executeTakeFirstOrThrow();
  return owner.id;
}

/** The VEVENT of an e-mail's iMIP part, parsed with ical.js. */
function imip(mail: MailMessage | undefined) {
  expect(mail?.icalEvent).toBeDefined();
  const comp = new ICAL.Component(ICAL.parse(mail!.icalEvent!.content));
  const ev = comp.getFirstSubcomponent('vevent')!;
  const attendee = ev.getFirstProperty('attendee')!;
  return {
    method: comp.getFirstPropertyValue('method'),
    partMethod: mail!.icalEvent!.method,
    uid: ev.getFirstPropertyValue('uid'),
    sequence: ev.getFirstPropertyValue('sequence'),
    organizer: String(ev.getFirstPropertyValue('organizer')).toLowerCase(),
    attendee: String(attendee.getFirstValue()).toLowerCase(),
    partstat: attendee.getParameter('partstat'),
    rsvp: String(attendee.getParameter('rsvp')).toUpperCase(),
    start: (ev.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString(),
    end: (ev.getFirstPropertyValue('dtend') as ICAL.Time).toJSDate().toISOString(),
    startIsUtc: (ev.getFirstPropertyValue('dtstart') as ICAL.Time).zone?.tzid === 'UTC',
  };
}

/** ORGANIZER and ATTENDEEs of a VEVENT with every parameter but SCHEDULE-AGENT (only the CalDAV copy has it, RFC 6638 §7.1). */
function peopleOf(ev: ICAL.Component) {
  const person = (prop: ICAL.Property) => {
    const { 'schedule-agent': _agent, ...params } = prop.toJSON()[1] as Record<string, unknown>;
    return { value: String(prop.getFirstValue()).toLowerCase(), params };
  };
  return { organizer: person(ev.getFirstProperty('organizer')!), attendees: ev.getAllProperties('attendee').map(person) };
}

const mailsTo = (t: TestApp, to: string) => t.outbox.filter((m) => m.to === to);

describe('confirm, cancel and decline against a real Radicale (CalDAV)', () => {
  let radicale: RadicaleServer;
  let t: TestApp;
  let owner: BuiltUser;
  let dav: Awaited<ReturnType<typeof createDAVClient>>;
  const slug = `radprop${Math.random().toString(36).slice(2, 7)}`;
  let calendarUrl: string;

  beforeAll(async () => {
    radicale = await startRadicale({ users: { bob: PASSWORD } });
    t = await createTestApp({ env: { ALLOW_PRIVATE_CALENDAR_HOSTS: 'true' } });
    owner = await buildUser(t, { timezone: 'UTC', username: slug, email: 'olga@example.net', name: 'Olga Owner' });
    await openAllWeek(t, owner.user.id);
    dav = await createDAVClient({ serverUrl: radicale.url, credentials: { username: 'bob', password: PASSWORD }, authMethod: 'Basic', defaultAccountType: 'caldav' });
    calendarUrl = `${radicale.url}bob/work/`;
    await dav.makeCalendar({ url: calendarUrl, props: { displayname: 'Work' } });
    const res = await request(t.app).post('/api/me/calendar/caldav/connect').set(owner.auth).send({ server_url: radicale.url, username: 'bob', password: PASSWORD });
    expect(res.status).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    await radicale?.stop();
  });

  const objects = async () => (await dav.fetchCalendarObjects({ calendar: { url: calendarUrl } })).map((o) => String(o.data));

  it('offers the writable calendar, confirms into it with the visitor as attendee, invites by iMIP, and the time is busy at once', async () => {
    const settings = (await request(t.app).get('/api/me/proposal-settings').set(owner.auth).expect(200)).body;
    expect(settings.target).toBeNull();
    expect(settings.effective).toMatchObject({ provider: 'caldav', calendar_id: calendarUrl, calendar_name: 'Work' });
    expect(settings.calendars).toHaveLength(1);

    const id = await propose(t, slug, at('10:00'), at('10:30'), { language: 'de' });
    expect(await publicWindows(t, slug, DAY)).toContain(`${DAY}T00:00:00Z/${DAY}T23:59:00Z`);

    const res = await request(t.app).post(`/api/me/proposals/${id}/confirm`).set(owner.auth).send({});
    expect(res.status).toBe(200);
    const p = res.body.proposal;
    expect(p).toMatchObject({ id, status: 'confirmed', sequence: 0, calendar: { name: 'Work', calendar_id: calendarUrl }, visitor_language: 'de' });
    expect(p.uid).toMatch(new RegExp(`^${id}@`));

    // In Radicale: one new object with our UID, the owner as ORGANIZER, the visitor as ATTENDEE.
    const stored = (await objects()).find((o) => o.includes(p.uid))!;
    expect(stored).toBeDefined();
    const ev = new ICAL.Component(ICAL.parse(stored)).getFirstSubcomponent('vevent')!;
    expect(String(ev.getFirstPropertyValue('organizer')).toLowerCase()).toBe('mailto:olga@example.net');
    const att = ev.getFirstProperty('attendee')!;
    expect(String(att.getFirstValue()).toLowerCase()).toBe('mailto:vera@example.org');
    expect(att.getParameter('partstat')).toBe('NEEDS-ACTION');
    expect(att.getParameter('schedule-agent')).toBe('CLIENT');
    expect(ev.getFirstPropertyValue('description')).toBe('About the roof');

    // The visitor's invitation: METHOD:REQUEST, same UID, SEQUENCE 0, times in UTC.
    const invite = imip(mailsTo(t, 'vera@example.org').at(-1));
    expect(invite).toMatchObject({ method: 'REQUEST', partMethod: 'REQUEST', uid: p.uid, sequence: 0, organizer: 'mailto:olga@example.net', attendee: 'mailto:vera@example.org', partstat: 'NEEDS-ACTION', rsvp: 'TRUE', startIsUtc: true });
    expect(invite.start).toBe(new Date(at('10:00')).toISOString());
    expect(invite.end).toBe(new Date(at('10:30')).toISOString());
    // One meeting whichever path writes it (lib/meeting-ical.ts meetingOf): the calendar's copy and the
    // invitation name the same people with the same CN, ROLE, CUTYPE, PARTSTAT and RSVP.
    const invited = new ICAL.Component(ICAL.parse(mailsTo(t, 'vera@example.org').at(-1)!.icalEvent!.content)).getFirstSubcomponent('vevent')!;
    expect(peopleOf(ev)).toEqual(peopleOf(invited));
    expect(peopleOf(ev).attendees[0]!.params).toMatchObject({ cn: 'Vera Visitor', partstat: 'NEEDS-ACTION', rsvp: 'TRUE' });

    // Busy on the public page at once (before any sync brought the calendar's copy).
    expect(await publicWindows(t, slug, DAY)).toEqual([`${DAY}T00:00:00Z/${DAY}T10:00:00Z`, `${DAY}T10:30:00Z/${DAY}T23:59:00Z`]);
    // Idempotent: confirming again writes nothing new and answers the same.
    const again = await request(t.app).post(`/api/me/proposals/${id}/confirm`).set(owner.auth).send({});
    expect(again.status).toBe(200);
    expect(again.body.proposal.uid).toBe(p.uid);
    expect((await objects()).filter((o) => o.includes(p.uid))).toHaveLength(1);
    // A decline now is refused and changes nothing.
    const late = await request(t.app).post(`/api/me/proposals/${id}/decline`).set(owner.auth).send({ message: 'no' });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'already_decided', error: 'This proposal was already confirmed.' });
  });

  it('refuses a time that is no longer free with the reason, and stays pending', async () => {
    const id = await propose(t, slug, at('12:00'), at('12:30'));
    await request(t.app).post('/api/me/blocks').set(owner.auth).send({ start_ms: Date.parse(at('11:45')), end_ms: Date.parse(at('12:15')) }).expect(201);
    const res = await request(t.app).post(`/api/me/proposals/${id}/confirm`).set(owner.auth).send({});
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'That time is no longer free: something in your calendars or a busy block now covers it.', code: 'not_free' });
    const list = (await request(t.app).get('/api/me/proposals').set(owner.auth)).body.proposals;
    expect(list.find((x: { id: string }) => x.id === id)).toMatchObject({ status: 'pending', uid: null });
  });

  it('cancel removes the event, sends METHOD:CANCEL with SEQUENCE 1 and frees the time', async () => {
    const confirmed = (await request(t.app).get('/api/me/proposals').set(owner.auth)).body.proposals.find((x: { status: string }) => x.status === 'confirmed');
    // Let the calendar's own copy arrive by sync: it is deduplicated by UID (still one busy interval).
    await request(t.app).post('/api/me/calendar/sync').set(owner.auth).expect(200);
    expect(await publicWindows(t, slug, DAY)).toEqual([`${DAY}T00:00:00Z/${DAY}T10:00:00Z`, `${DAY}T10:30:00Z/${DAY}T11:45:00Z`, `${DAY}T12:15:00Z/${DAY}T23:59:00Z`]);

    const res = await request(t.app).post(`/api/me/proposals/${confirmed.id}/cancel`).set(owner.auth).send({ message: 'Sorry, I am ill.' });
    expect(res.status).toBe(200);
    expect(res.body.proposal).toMatchObject({ status: 'cancelled', sequence: 1, message: 'Sorry, I am ill.' });
    expect((await objects()).some((o) => o.includes(confirmed.uid))).toBe(false);
    const cancel = imip(mailsTo(t, 'vera@example.org').at(-1));
    expect(cancel).toMatchObject({ method: 'CANCEL', partMethod: 'CANCEL', uid: confirmed.uid, sequence: 1 });
    expect(await publicWindows(t, slug, DAY)).toEqual([`${DAY}T00:00:00Z/${DAY}T11:45:00Z`, `${DAY}T12:15:00Z/${DAY}T23:59:00Z`]);
    // Cancel is idempotent; a pending proposal cannot be cancelled.
    expect((await request(t.app).post(`/api/me/proposals/${confirmed.id}/cancel`).set(owner.auth).send({})).status).toBe(200);
    const pending = await propose(t, slug, at('15:00'), at('15:30'));
    const refused = await request(t.app).post(`/api/me/proposals/${pending}/cancel`).set(owner.auth).send({});
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('not_confirmed');
  });

  it('once the calendar has answered, it is the truth: a meeting the owner deleted in the calendar frees the time', async () => {
    const id = await propose(t, slug, at('19:00'), at('19:30'));
    const p = (await request(t.app).post(`/api/me/proposals/${id}/confirm`).set(owner.auth).send({}).expect(200)).body.proposal;
    const busy19 = (ws: string[]) => !ws.some((w) => w.split('/')[0] <= at('19:00') && at('19:30') <= w.split('/')[1]);
    expect(busy19(await publicWindows(t, slug, DAY))).toBe(true);
    await request(t.app).post('/api/me/calendar/sync').set(owner.auth).expect(200);
    expect(busy19(await publicWindows(t, slug, DAY))).toBe(true); // the calendar's copy, by UID
    const object = (await dav.fetchCalendarObjects({ calendar: { url: calendarUrl } })).find((o) => String(o.data).includes(p.uid))!;
    await dav.deleteCalendarObject({ calendarObject: object });
    await request(t.app).post('/api/me/calendar/sync').set(owner.auth).expect(200);
    expect(busy19(await publicWindows(t, slug, DAY))).toBe(false);
  });

  it('two confirms of one proposal at once: one meeting, kept in the calendar, busy on the page', async () => {
    const id = await propose(t, slug, at('21:00'), at('21:30'));
    const [a, b] = await Promise.all([
      request(t.app).post(`/api/me/proposals/${id}/confirm`).set(owner.auth).send({}),
      request(t.app).post(`/api/me/proposals/${id}/confirm`).set(owner.auth).send({}),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.proposal.uid).toBe(b.body.proposal.uid);
    expect((await objects()).filter((o) => o.includes(a.body.proposal.uid))).toHaveLength(1);
    await request(t.app).post('/api/me/calendar/sync').set(owner.auth).expect(200);
    const ws = await publicWindows(t, slug, DAY);
    expect(ws.some((w) => w.split('/')[0] <= at('21:00') && at('21:30') <= w.split('/')[1])).toBe(false);
  });

  it('two overlapping proposals confirmed at once: one is confirmed, the other answers 409 and leaves no event behind', async () => {
    const first = await propose(t, slug, at('22:00'), at('22:30'));
    const second = await propose(t, slug, at('22:15'), at('22:45'));
    const before = (await objects()).length;
    const res = await Promise.all([first, second].map((id) => request(t.app).post(`/api/me/proposals/${id}/confirm`).set(owner.auth).send({})));
    expect(res.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = res.find((r) => r.status === 409)!;
    expect(refused.body.error).toMatch(/^That time is no longer free: /);
    expect((await objects()).length).toBe(before + 1);
    // A confirmed meeting cannot be dismissed: it is cancelled first.
    const confirmedId = res[0].status === 200 ? first : second;
    const dismiss = await request(t.app).delete(`/api/me/proposals/${confirmedId}`).set(owner.auth);
    expect(dismiss.status).toBe(409);
    expect(dismiss.body).toEqual({ error: 'A confirmed meeting cannot be dismissed. Cancel it first.', code: 'confirmed' });
  });

  it('decline mails the message and the next three free windows as links to the public page', async () => {
    const id = await propose(t, slug, at('16:00'), at('16:30'));
    const res = await request(t.app).post(`/api/me/proposals/${id}/decline`).set(owner.auth).send({ message: 'That day is full.' });
    expect(res.status).toBe(200);
    expect(res.body.proposal).toMatchObject({ status: 'declined', message: 'That day is full.' });
    const mail = mailsTo(t, 'vera@example.org').at(-1)!;
    expect(mail.icalEvent).toBeUndefined();
    expect(mail.text).toContain('That day is full.');
    const links = mail.text.match(new RegExp(`/${slug}\\?date=\\d{4}-\\d{2}-\\d{2}`, 'g')) ?? [];
    expect(links).toHaveLength(3);
  });
});

describe('confirm into Google Calendar and Microsoft Graph (fakes)', () => {
  it('Google: events.insert with our iCalUID, the attendee and sendUpdates none; cancel deletes it', async () => {
    const fake = await startGoogleFake({ autoApprove: true });
    const t = await createTestApp({ env: { ...(fake.env as Record<string, string>) } });
    const http = await listen(t);
    try {
      const slug = `gprop${Math.random().toString(36).slice(2, 7)}`;
      const owner = await buildUser(t, { username: slug, timezone: 'UTC', email: 'gina@example.net' });
      await openAllWeek(t, owner.user.id);
      expect((await connectThroughConsent(t, owner.auth, 'google')).callback.status).toBe(200);
      const id = await propose(t, slug, at('09:00'), at('10:00'));
      const res = await request(t.app).post(`/api/me/proposals/${id}/confirm`).set(owner.auth).send({});
      expect(res.status).toBe(200);
      const insert = fake.recordedWrites().find((w) => w.method === 'POST')!;
      expect(insert.query.sendUpdates).toBe('none');
      expect(insert.calendarId).toBe(fake.account);
      expect(insert.body).toMatchObject({
        iCalUID: res.body.proposal.uid,
        description: 'About the roof',
        start: { dateTime: expect.stringMatching(new RegExp(`^${DAY}T09:00:00(\\.000)?Z$`)) },
        end: { dateTime: expect.stringMatching(new RegExp(`^${DAY}T10:00:00(\\.000)?Z$`)) },
        attendees: [expect.objectContaining({ email: 'vera@example.org' })],
      });
      expect(imip(mailsTo(t, 'vera@example.org').at(-1)).uid).toBe(res.body.proposal.uid);
      const cancel = await request(t.app).post(`/api/me/proposals/${id}/cancel`).set(owner.auth).send({});
      expect(cancel.status).toBe(200);
      const del = fake.recordedWrites().find((w) => w.method === 'DELETE')!;
      expect(del).toMatchObject({ eventId: insert.eventId, status: 204 });
      expect(del.query.sendUpdates).toBe('none');
    } finally {
      await http.close();
      await t.close();
      await fake.close();
    }
  });

  it('Graph: POST /me/calendars/{id}/events with the attendee; Exchange invites, so no second iMIP; the UID is the one Graph gives', async () => {
    const fake = await startGraphFake({ autoApprove: true });
    const calId = fake.addCalendar('Calendar');
    const t = await createTestApp({ env: { ...(fake.env as Record<string, string>) } });
    const http = await listen(t);
    try {
      const slug = `mprop${Math.random().toString(36).slice(2, 7)}`;
      const owner = await buildUser(t, { username: slug, timezone: 'UTC', email: 'max@example.net' });
      await openAllWeek(t, owner.user.id);
      expect((await connectThroughConsent(t, owner.auth, 'microsoft')).callback.status).toBe(200);
      const id = await propose(t, slug, at('09:00'), at('10:00'));
      const before = mailsTo(t, 'vera@example.org').length;
      const res = await request(t.app).post(`/api/me/proposals/${id}/confirm`).set(owner.auth).send({});
      expect(res.status).toBe(200);
      const post = fake.recordedWrites().find((w) => w.method === 'POST')!;
      expect(post.calendarId).toBe(calId);
      expect(post.body).toMatchObject({ attendees: [expect.objectContaining({ emailAddress: expect.objectContaining({ address: 'vera@example.org' }) })] });
      expect(mailsTo(t, 'vera@example.org')).toHaveLength(before);
      expect(post.body).toMatchObject({ transactionId: expect.stringMatching(new RegExp(`^${id}@`)) });
      const graphUid = (await t.db.selectFrom('proposals').select('remote_uid').where('id', '=', id).executeTakeFirstOrThrow()).remote_uid;
      expect(graphUid).toBeTruthy();
      expect(graphUid).not.toBe(post.body!.transactionId);
      expect(res.body.proposal.uid).toBe(graphUid);
      expect((await request(t.app).post(`/api/me/proposals/${id}/cancel`).set(owner.auth).send({})).status).toBe(200);
      expect(fake.recordedWrites().some((w) => w.method === 'DELETE' && w.eventId === post.eventId)).toBe(true);
    } finally {
      await http.close();
      await t.close();
      await fake.close();
    }
  });
});

describe('no writable calendar, one-click links, device requests, settings', () => {
  let t: TestApp;
  let owner: BuiltUser;
  const slug = `linkprop${Math.random().toString(36).slice(2, 7)}`;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await buildUser(t, { timezone: 'UTC', username: slug, email: 'lena@example.net' });
    await openAllWeek(t, owner.user.id);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('without a writable calendar the owner gets the .ics and the visitor the invitation', async () => {
    expect((await request(t.app).get('/api/me/proposal-settings').set(owner.auth)).body).toEqual({ target: null, effective: null, calendars: [] });
    const bad = await request(t.app).put('/api/me/proposal-settings').set(owner.auth).send({ target: { connection_id: 'nope', calendar_id: 'x' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.target).toBe('Avail cannot add events to this calendar. Choose another one.');
    const id = await propose(t, slug, at('08:00'), at('08:30'));
    const res = await request(t.app).post(`/api/me/proposals/${id}/confirm`).set(owner.auth).send({});
    expect(res.status).toBe(200);
    expect(res.body.proposal.calendar).toBeNull();
    const ownerMail = mailsTo(t, 'lena@example.net').at(-1)!;
    expect(ownerMail.attachments?.[0]).toMatchObject({ filename: 'meeting.ics' });
    expect(ownerMail.attachments![0].content).toContain(`UID:${res.body.proposal.uid}`);
    expect(imip(mailsTo(t, 'vera@example.org').at(-1)).uid).toBe(res.body.proposal.uid);

    // Cancel: the visitor gets METHOD:CANCEL, and the owner the cancel.ics for the copy they imported.
    await request(t.app).post(`/api/me/proposals/${id}/cancel`).set(owner.auth).send({}).expect(200);
    expect(imip(mailsTo(t, 'vera@example.org').at(-1))).toMatchObject({ method: 'CANCEL', uid: res.body.proposal.uid, sequence: 1 });
    const ownerCancel = mailsTo(t, 'lena@example.net').at(-1)!;
    expect(ownerCancel.attachments?.[0]).toMatchObject({ filename: 'cancel.ics' });
    expect(ownerCancel.attachments![0].content).toMatch(/METHOD:CANCEL[\s\S]*SEQUENCE:1/);
  });

  it('the e-mail links: inspect changes nothing, act works once, then 410; expired 410; forged 404', async () => {
    const id = await propose(t, slug, at('13:00'), at('13:30'));
    const ownerMail = mailsTo(t, 'lena@example.net').at(-1)!;
    const token = /\/proposal#t=([A-Za-z0-9_.-]+)/.exec(ownerMail.text)![1];
    const inspect = await request(t.app).post('/api/proposal-links/inspect').set('X-Forwarded-For', freshIp()).send({ token });
    expect(inspect.status).toBe(200);
    expect(inspect.body).toMatchObject({ action: 'confirm', owner_timezone: 'UTC', proposal: { id, status: 'pending', name: 'Vera Visitor' } });
    expect(JSON.stringify(inspect.body)).not.toContain('vera@example.org');
    const act = await request(t.app).post('/api/proposal-links/act').set('X-Forwarded-For', freshIp()).send({ token });
    expect(act.status).toBe(200);
    expect(act.body.proposal.status).toBe('confirmed');
    const twice = await request(t.app).post('/api/proposal-links/act').set('X-Forwarded-For', freshIp()).send({ token });
    expect(twice.status).toBe(410);
    expect(twice.body.code).toBe('used');

    const other = await propose(t, slug, at('14:00'), at('14:30'));
    const expired = signProposalLink(t.deps, other, 'decline', t.clock.now() - 1);
    expect((await request(t.app).post('/api/proposal-links/inspect').set('X-Forwarded-For', freshIp()).send({ token: expired })).body.code).toBe('expired');
    const good = signProposalLink(t.deps, other, 'decline', t.clock.now() + 60_000);
    const forged = `${good.split('.')[0]}.${'A'.repeat(43)}`;
    const r404 = await request(t.app).post('/api/proposal-links/act').set('X-Forwarded-For', freshIp()).send({ token: forged });
    expect(r404.status).toBe(404);
    expect(r404.body.error).toBe('This link is not valid.');
    const tampered = Buffer.from(JSON.stringify({ p: other, a: 'confirm', e: t.clock.now() + 60_000 })).toString('base64url') + '.' + good.split('.')[1];
    expect((await request(t.app).post('/api/proposal-links/act').set('X-Forwarded-For', freshIp()).send({ token: tampered })).status).toBe(404);
    const list = (await request(t.app).get('/api/me/proposals').set(owner.auth)).body.proposals;
    expect(list.find((x: { id: string }) => x.id === other).status).toBe('pending');
  });

  it('a visitor who came through a personal link gets the decline links through it', async () => {
    const link = (await request(t.app).post('/api/me/share-links').set(owner.auth).send({ label: 'Acme' }).expect(201)).body;
    const key = new URL(link.url).searchParams.get('key')!;
    await request(t.app).put('/api/me/share-links/plain-link').set(owner.auth).send({ enabled: false }).expect(200);
    const res = await request(t.app)
      .post(`/api/public/${slug}/proposals?key=${encodeURIComponent(key)}`)
      .set('X-Forwarded-For', freshIp())
      .send({ start: at('20:00'), end: at('20:30'), name: 'Kim Key', email: 'kim@example.org', visitor_timezone: 'UTC' });
    expect(res.status).toBe(201);
    const id = (await request(t.app).get('/api/me/proposals').set(owner.auth)).body.proposals.find((x: { name: string }) => x.name === 'Kim Key').id;
    await request(t.app).post(`/api/me/proposals/${id}/decline`).set(owner.auth).send({}).expect(200);
    const mail = mailsTo(t, 'kim@example.org').at(-1)!;
    const links = mail.text.match(/https?:\/\/\S+\?key=[^\s&]+&date=\d{4}-\d{2}-\d{2}/g) ?? [];
    expect(links).toHaveLength(3);
    expect(links.every((l) => l.includes(`key=${key}`))).toBe(true);
    await request(t.app).put('/api/me/share-links/plain-link').set(owner.auth).send({ enabled: true }).expect(200);
  });

  it('a decision made on a device arrives by replication and the server carries it out', async () => {
    const id = await propose(t, slug, at('17:00'), at('17:30'));
    const pull = await request(t.app).get('/api/replication/proposals/pull').set(owner.auth).set('X-Avail-Schema', String(REPLICATION_SCHEMA_VERSION));
    expect(pull.status).toBe(200);
    const master = pull.body.documents.find((d: { id: string }) => d.id === id);
    expect(master).toMatchObject({ status: 'pending', request_action: null });
    const edited = { ...master, request_action: 'confirm', edited_at: master.edited_at + 1000, device_id: 'd-phone' };
    const push = await request(t.app).post('/api/replication/proposals/push').set(owner.auth).set('X-Avail-Schema', String(REPLICATION_SCHEMA_VERSION)).send([{ assumedMasterState: master, newDocumentState: edited }]);
    expect(push.status).toBe(200);
    expect(push.body).toEqual([]);
    await waitFor(async () => (await t.db.selectFrom('proposals').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status === 'confirmed');
    const after = (await request(t.app).get('/api/replication/proposals/pull').set(owner.auth).set('X-Avail-Schema', String(REPLICATION_SCHEMA_VERSION))).body.documents.find((d: { id: string }) => d.id === id);
    expect(after).toMatchObject({ status: 'confirmed', request_action: null, request_error: null });

    // A request that cannot be carried out comes back with the reason.
    const taken = await propose(t, slug, at('18:00'), at('18:30'));
    await request(t.app).post(`/api/me/proposals/${taken}/decline`).set(owner.auth).send({}).expect(200);
    const m2 = (await request(t.app).get('/api/replication/proposals/pull').set(owner.auth).set('X-Avail-Schema', String(REPLICATION_SCHEMA_VERSION))).body.documents.find((d: { id: string }) => d.id === taken);
    await request(t.app)
      .post('/api/replication/proposals/push')
      .set(owner.auth)
      .set('X-Avail-Schema', String(REPLICATION_SCHEMA_VERSION))
      .send([{ assumedMasterState: m2, newDocumentState: { ...m2, request_action: 'cancel', edited_at: m2.edited_at + 1000, device_id: 'd-phone' } }])
      .expect(200);
    await waitFor(async () => (await t.db.selectFrom('proposals').select('request_error').where('id', '=', taken).executeTakeFirstOrThrow()).request_error !== null);
    const failed = (await request(t.app).get('/api/me/proposals').set(owner.auth)).body.proposals.find((x: { id: string }) => x.id === taken);
    expect(failed).toMatchObject({ status: 'declined', pending_action: 'cancel', error: 'Only a confirmed meeting can be cancelled.' });
  });
});
