import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALENDAR_READONLY_SCOPE, start, type GoogleCalendarFake } from '../../../test/fakes/google-calendar-fake.ts';
import { loadConfig, type Config } from '../../config.ts';
import type { Meeting } from '../../lib/meeting-ical.ts';
import { createSafeFetch } from '../../lib/safe-fetch.ts';
import { ProviderWriteDeniedError, type EventWriterContext, type WriteTarget } from '../event-writer.ts';
import { secretOfError, type OAuthTokens } from '../oauth-provider.ts';
import { ProviderAuthError } from '../provider.ts';
import { GOOGLE_SCOPES, googleProvider } from './google.provider.ts';
import { createGoogleWriter, googleWriter } from './google-writer.ts';

const REDIRECT = 'http://localhost:3000/api/oauth/google/callback';
const TEAM = 'team@group.calendar.google.com';
const HOLIDAYS = 'en.be#holiday@group.v.calendar.google.com';

const tmpDirs: string[] = [];
afterAll(() => {
  for (const d of tmpDirs) rmSync(d, { recursive: true, force: true });
});
function configFor(fake: GoogleCalendarFake): Config {
  const dir = mkdtempSync(path.join(tmpdir(), 'avail-gwriter-'));
  tmpDirs.push(dir);
  return loadConfig({ ...fake.env, DATA_DIR: dir, AVAIL_SECRET_KEY: 'ab'.repeat(32) });
}

/** Consent (the fake auto-approves) + code exchange through the real adapter: the token JSON. */
async function connect(fake: GoogleCalendarFake, config: Config): Promise<OAuthTokens> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const url = googleProvider.authorizationUrl(config, { state: 's', codeChallenge: challenge, redirectUri: REDIRECT });
  const back = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
  const { tokens } = await googleProvider.exchangeCode(config, { code: back.searchParams.get('code')!, codeVerifier: verifier, redirectUri: REDIRECT });
  return tokens;
}

const meeting = (over: Partial<Meeting> = {}): Meeting => ({
  uid: `${randomBytes(8).toString('hex')}@avail.test`,
  sequence: 0,
  startMs: Date.parse('2030-01-07T09:00:00Z'),
  endMs: Date.parse('2030-01-07T09:30:00Z'),
  summary: 'Meeting with Vera Visitor',
  description: 'About the garden',
  organizer: { email: 'owner@example.com', name: 'Olivia Owner' },
  attendee: { email: 'vera@example.org', name: 'Vera Visitor' },
  stampMs: Date.parse('2030-01-01T00:00:00Z'),
  ...over,
});

describe('Google event writer (events.insert / events.delete on the fake)', () => {
  let fake: GoogleCalendarFake;
  let config: Config;
  let ctx: EventWriterContext;
  let tokens: OAuthTokens;
  const target = (calendarId: string, secret = JSON.stringify(tokens)): WriteTarget => ({ config: {}, secret, calendarId });

  beforeAll(async () => {
    fake = await start({ autoApprove: true });
    fake.addCalendar({ id: TEAM, summary: 'Team', accessRole: 'writer' });
    fake.addCalendar({ id: HOLIDAYS, summary: 'Holidays', accessRole: 'reader' });
    config = configFor(fake);
    ctx = { config, fetch: createSafeFetch({ allowPrivate: true }) };
    tokens = await connect(fake, config);
  });
  afterAll(() => fake.close());

  it('asks for the read and the events scopes at consent', () => {
    expect(GOOGLE_SCOPES.split(' ')).toEqual([CALENDAR_READONLY_SCOPE, 'https://www.googleapis.com/auth/calendar.events']);
    expect(tokens.scope).toBe(GOOGLE_SCOPES);
    expect(googleWriter.sendsInvitation).toBe(false);
  });

  it('inserts the meeting with its iCalUID, the visitor as attendee, UTC times and sendUpdates none; a later sync sees it', async () => {
    const m = meeting();
    const before = fake.writes.length;
    const written = await googleWriter.writeEvent(target(fake.account), m, ctx);
    expect(written.remoteId).toMatch(/^[0-9a-v]{16,}$/);
    expect(written.newSecret).toBeUndefined();
    expect(written.uid).toBeUndefined();
    const calls = fake.writes.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'POST', calendarId: fake.account, eventId: written.remoteId, status: 200 });
    expect(calls[0]!.query).toEqual({ sendUpdates: 'none' });
    expect(calls[0]!.body).toEqual({
      iCalUID: m.uid,
      summary: 'Meeting with Vera Visitor',
      description: 'About the garden',
      start: { dateTime: '2030-01-07T09:00:00Z' },
      end: { dateTime: '2030-01-07T09:30:00Z' },
      attendees: [{ email: 'vera@example.org', displayName: 'Vera Visitor', responseStatus: 'needsAction' }],
      sequence: 0,
    });

    const synced = await googleProvider.sync(config, { config: {}, secret: JSON.stringify(tokens), state: null, known: [] });
    const object = synced.upserts.find((u) => u.href === written.remoteId);
    expect(object?.calendarUrl).toBe(fake.account);
    expect(object?.icsText).toContain(`UID:${m.uid}`);
  });

  it('leaves out an empty note and an empty visitor name; writes to a calendar the account may write', async () => {
    const m = meeting({ description: '', attendee: { email: 'noname@example.org', name: '' } });
    const written = await googleWriter.writeEvent(target(TEAM), m, ctx);
    const call = fake.writes.at(-1)!;
    expect(call.calendarId).toBe(TEAM);
    expect(call.eventId).toBe(written.remoteId);
    expect(call.body).not.toHaveProperty('description');
    expect(call.body!.attendees).toEqual([{ email: 'noname@example.org', responseStatus: 'needsAction' }]);
  });

  it('deletes with sendUpdates none; deleting again (410) or an unknown id (404) succeeds', async () => {
    const written = await googleWriter.writeEvent(target(fake.account), meeting(), ctx);
    expect(await googleWriter.deleteEvent(target(fake.account), written.remoteId, ctx)).toEqual({});
    const del = fake.writes.at(-1)!;
    expect(del).toMatchObject({ method: 'DELETE', calendarId: fake.account, eventId: written.remoteId, query: { sendUpdates: 'none' }, status: 204 });
    expect(await googleWriter.deleteEvent(target(fake.account), written.remoteId, ctx)).toEqual({});
    expect(fake.writes.at(-1)!.status).toBe(410);
    expect(await googleWriter.deleteEvent(target(fake.account), 'nosuchevent0000', ctx)).toEqual({});
    expect(fake.writes.at(-1)!.status).toBe(404);
  });

  it('a retried write (409 duplicate iCalUID) returns the event already there', async () => {
    const m = meeting();
    const first = await googleWriter.writeEvent(target(fake.account), m, ctx);
    const again = await googleWriter.writeEvent(target(fake.account), m, ctx);
    expect(fake.writes.at(-1)!.status).toBe(409);
    expect(again.remoteId).toBe(first.remoteId);
  });

  it('refreshes an expired access token and hands the new token set back as newSecret (write and delete)', async () => {
    const stale = JSON.stringify({ ...tokens, expires_at: Date.now() - 1000 });
    const refreshes = fake.refreshCount();
    const written = await googleWriter.writeEvent(target(fake.account, stale), meeting(), ctx);
    expect(fake.refreshCount()).toBe(refreshes + 1);
    const fresh = JSON.parse(written.newSecret!) as OAuthTokens;
    expect(fresh.access_token).not.toBe(tokens.access_token);
    expect(fresh.refresh_token).toBe(tokens.refresh_token);
    expect(fresh.expires_at).toBeGreaterThan(Date.now());

    fake.expireAccessTokens(); // a 401 on the call → one refresh, then the call again
    const deleted = await googleWriter.deleteEvent(target(fake.account, written.newSecret!), written.remoteId, ctx);
    expect(deleted.newSecret).toBeTruthy();
    expect(fake.writes.at(-1)!.status).toBe(204);
    tokens = JSON.parse(deleted.newSecret!) as OAuthTokens;
  });

  it('a read-only calendar (403 requiredAccessLevel) → ProviderWriteDeniedError', async () => {
    const err = await googleWriter.writeEvent(target(HOLIDAYS), meeting(), ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderWriteDeniedError);
    expect(fake.writes.at(-1)!.status).toBe(403);
    await expect(googleWriter.deleteEvent(target(HOLIDAYS), 'x0000000000000000', ctx)).rejects.toBeInstanceOf(ProviderWriteDeniedError);
  });

  it('a refused write still hands back the refreshed token (secretOfError)', async () => {
    const stale = JSON.stringify({ ...tokens, expires_at: Date.now() - 1000 });
    const err = await googleWriter.writeEvent(target(HOLIDAYS, stale), meeting(), ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderWriteDeniedError);
    expect(JSON.parse(secretOfError(err)!).refresh_token).toBe(tokens.refresh_token);
  });

  it('a grant made before issue 24 (read-only scope) → 403 insufficientPermissions → ProviderWriteDeniedError with the reconnect text', async () => {
    const old = await start({ autoApprove: true, grantedScope: CALENDAR_READONLY_SCOPE });
    try {
      const oldConfig = configFor(old);
      const oldTokens = await connect(old, oldConfig);
      const oldCtx = { ...ctx, config: oldConfig };
      const err = await googleWriter.writeEvent({ config: {}, secret: JSON.stringify(oldTokens), calendarId: old.account }, meeting(), oldCtx).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderWriteDeniedError);
      expect((err as Error).message).toMatch(/Reconnect it to allow adding events/);
      expect(old.writes).toHaveLength(1);
      expect(old.writes[0]!.status).toBe(403);
      // Its sync still works.
      const synced = await googleProvider.sync(oldConfig, { config: {}, secret: JSON.stringify(oldTokens), state: null, known: [] });
      expect(synced.calendarsCount).toBe(1);
    } finally {
      await old.close();
    }
  });

  it('a revoked grant → ProviderAuthError; a missing calendar → ProviderError', async () => {
    const writer = createGoogleWriter();
    await expect(writer.writeEvent(target('gone@group.calendar.google.com'), meeting(), ctx)).rejects.toThrow(/no longer exists/);
    const stale = JSON.stringify({ ...tokens, expires_at: Date.now() - 1000 });
    fake.revokeRefreshToken();
    await expect(writer.writeEvent(target(fake.account, stale), meeting(), ctx)).rejects.toBeInstanceOf(ProviderAuthError);
  });
});
