import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type MicrosoftGraphFake } from '../../../test/fakes/microsoft-graph-fake.ts';
import { loadConfig, type Config } from '../../config.ts';
import type { Meeting } from '../../lib/meeting-ical.ts';
import { createSafeFetch } from '../../lib/safe-fetch.ts';
import { ProviderWriteDeniedError, type EventWriterContext, type WriteTarget } from '../event-writer.ts';
import { ProviderAuthError } from '../provider.ts';
import { MICROSOFT_READ_SCOPE, MICROSOFT_SCOPE, microsoftProvider, secretOfError, type MicrosoftTokens } from './microsoft.provider.ts';
import { refreshScopeOf } from './microsoft-session.ts';
import { microsoftWriter } from './microsoft-writer.ts';

const REDIRECT = 'http://localhost:3000/api/oauth/microsoft/callback';

const meeting = (over: Partial<Meeting> = {}): Meeting => ({
  uid: `${randomBytes(8).toString('hex')}@avail.test`,
  sequence: 0,
  startMs: Date.parse('2030-01-07T09:00:00Z'),
  endMs: Date.parse('2030-01-07T09:30:00Z'),
  summary: 'Meeting with Vera Visitor',
  description: 'About the garden',
  organizer: { email: 'owner@contoso.example', name: 'Olivia Owner' },
  attendee: { email: 'vera@example.org', name: 'Vera Visitor' },
  stampMs: Date.parse('2030-01-01T00:00:00Z'),
  ...over,
});
/** A meeting two to three weeks ahead (inside the sync's window), 30 minutes long. */
function upcoming(over: Partial<Meeting> = {}): Meeting {
  const d = new Date(Date.now() + 14 * 86_400_000);
  d.setUTCHours(9, 0, 0, 0);
  return meeting({ startMs: d.getTime(), endMs: d.getTime() + 30 * 60_000, ...over });
}

describe('Microsoft event writer (POST /me/calendars/{id}/events, DELETE /me/events/{id} on the Graph fake)', () => {
  let fake: MicrosoftGraphFake;
  let config: Config;
  let dataDir: string;
  let ctx: EventWriterContext;
  let work: string;
  let shared: string;

  beforeAll(async () => {
    fake = await start({ autoApprove: true });
    work = fake.addCalendar('Work');
    shared = fake.addCalendar('Boss (shared, read-only)', undefined, { canEdit: false });
    dataDir = mkdtempSync(path.join(tmpdir(), 'avail-mswriter-'));
    config = loadConfig({ ...fake.env, DATA_DIR: dataDir, AVAIL_SECRET_KEY: 'ab'.repeat(32) });
    ctx = { config, fetch: createSafeFetch({ allowPrivate: true }) };
  });
  afterAll(async () => {
    await fake?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Consent (auto-approved) + code exchange; `scope` replaces the URL's scope (an older grant). */
  async function connect(scope?: string): Promise<MicrosoftTokens> {
    const verifier = randomBytes(32).toString('base64url');
    const url = new URL(microsoftProvider.authorizationUrl(config, { state: 's', codeChallenge: createHash('sha256').update(verifier).digest('base64url'), redirectUri: REDIRECT }));
    if (scope) url.searchParams.set('scope', scope);
    const back = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
    const { tokens } = await microsoftProvider.exchangeCode(config, { code: back.searchParams.get('code')!, codeVerifier: verifier, redirectUri: REDIRECT });
    return tokens;
  }
  const target = (calendarId: string, tokens: MicrosoftTokens): WriteTarget => ({ config: {}, secret: JSON.stringify(tokens), calendarId });

  it('creates the event with the attendee, the note as text, UTC times and the UID as transactionId; returns id and iCalUId; a later delta sees it', async () => {
    const tokens = await connect();
    expect(microsoftWriter.sendsInvitation).toBe(true);
    const m = upcoming();
    const written = await microsoftWriter.writeEvent(target(work, tokens), m, ctx);
    const call = fake.writes.at(-1)!;
    expect(call).toMatchObject({ method: 'POST', calendarId: work, eventId: written.remoteId, status: 201 });
    const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19);
    expect(call.body).toEqual({
      subject: 'Meeting with Vera Visitor',
      body: { contentType: 'text', content: 'About the garden' },
      start: { dateTime: utc(m.startMs), timeZone: 'UTC' },
      end: { dateTime: utc(m.endMs), timeZone: 'UTC' },
      attendees: [{ emailAddress: { address: 'vera@example.org', name: 'Vera Visitor' }, type: 'required' }],
      transactionId: m.uid,
    });
    expect(written.remoteId).toMatch(/^AAMkAG/);
    expect(written.uid).toMatch(/^040000008200E00074C5B7101A82E008/);
    expect(written.newSecret).toBeUndefined();
    expect(fake.log.at(-1)).toBe(`POST /v1.0/me/calendars/${encodeURIComponent(work)}/events`);

    const synced = await microsoftProvider.sync(config, { config: {}, secret: JSON.stringify(tokens), state: null, known: [] });
    const object = synced.upserts.find((u) => u.href === written.remoteId);
    expect(object?.calendarUrl).toBe(work);
    expect(object?.icsText).toMatch(/DTSTART/);
  });

  it('a retried POST (same transactionId) gives back the same event; an empty note sends no body', async () => {
    const tokens = await connect();
    const m = upcoming({ description: '', attendee: { email: 'n@example.org', name: '' } });
    const first = await microsoftWriter.writeEvent(target(work, tokens), m, ctx);
    expect(fake.writes.at(-1)!.body).not.toHaveProperty('body');
    expect(fake.writes.at(-1)!.body!.attendees).toEqual([{ emailAddress: { address: 'n@example.org' }, type: 'required' }]);
    const again = await microsoftWriter.writeEvent(target(work, tokens), m, ctx);
    expect(again).toEqual(first);
  });

  it('deletes with DELETE /me/events/{id}; an unknown or already deleted id succeeds', async () => {
    const tokens = await connect();
    const written = await microsoftWriter.writeEvent(target(work, tokens), upcoming(), ctx);
    expect(await microsoftWriter.deleteEvent(target(work, tokens), written.remoteId, ctx)).toEqual({});
    expect(fake.writes.at(-1)).toMatchObject({ method: 'DELETE', calendarId: work, eventId: written.remoteId, status: 204 });
    expect(fake.log.at(-1)).toBe(`DELETE /v1.0/me/events/${encodeURIComponent(written.remoteId)}`);
    expect(await microsoftWriter.deleteEvent(target(work, tokens), written.remoteId, ctx)).toEqual({});
    expect(fake.writes.at(-1)!.status).toBe(404);
    expect(await microsoftWriter.deleteEvent(target(work, tokens), 'AAMkAGnope=', ctx)).toEqual({});
  });

  it('refreshes an expired token (write and delete) and returns newSecret', async () => {
    const tokens = await connect();
    const stale = { ...tokens, expires_at: Date.now() - 1000 };
    const written = await microsoftWriter.writeEvent(target(work, stale), upcoming(), ctx);
    const fresh = JSON.parse(written.newSecret!) as MicrosoftTokens;
    expect(fresh.access_token).not.toBe(tokens.access_token);
    expect(fresh.expires_at).toBeGreaterThan(Date.now());
    fake.expireAccessTokens(); // 401 → one refresh → the call again
    const deleted = await microsoftWriter.deleteEvent(target(work, fresh), written.remoteId, ctx);
    expect(deleted.newSecret).toBeTruthy();
    expect(fake.writes.at(-1)!.status).toBe(204);
  });

  it('a read-only shared calendar (403 ErrorAccessDenied) → ProviderWriteDeniedError, with the refreshed token on the error', async () => {
    const tokens = await connect();
    const err = await microsoftWriter.writeEvent(target(shared, { ...tokens, expires_at: 0 }), upcoming(), ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderWriteDeniedError);
    expect(fake.writes.at(-1)).toMatchObject({ method: 'POST', calendarId: shared, status: 403 });
    expect(secretOfError(err)).toBeTruthy();
  });

  it('a grant made before issue 24 (Calendars.Read): refreshes with Calendars.Read, still syncs, and its write → ProviderWriteDeniedError with the reconnect text', async () => {
    const old = await connect(MICROSOFT_READ_SCOPE);
    expect(refreshScopeOf(old)).toBe(MICROSOFT_READ_SCOPE);
    expect(refreshScopeOf({ scope: 'openid https://graph.microsoft.com/Calendars.ReadWrite' })).toBe(MICROSOFT_SCOPE);
    expect(refreshScopeOf({})).toBe(MICROSOFT_SCOPE);
    const stale = { ...old, expires_at: Date.now() - 1000 };
    const err = await microsoftWriter.writeEvent(target(work, stale), upcoming(), ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderWriteDeniedError);
    expect((err as Error).message).toMatch(/Reconnect it to allow adding events/);
    expect(secretOfError(err)).toBeTruthy(); // the refresh with Calendars.Read was accepted
    const synced = await microsoftProvider.sync(config, { config: {}, secret: JSON.stringify(stale), state: null, known: [] });
    expect(synced.calendarsCount).toBeGreaterThanOrEqual(2);
  });

  it('a refresh asking for more than the grant is refused by the fake as by Entra (AADSTS65001) → ProviderAuthError', async () => {
    const old = await connect(MICROSOFT_READ_SCOPE);
    const forced = { ...old, scope: 'https://graph.microsoft.com/Calendars.ReadWrite', expires_at: 0 };
    await expect(microsoftWriter.writeEvent(target(work, forced), upcoming(), ctx)).rejects.toBeInstanceOf(ProviderAuthError);
  });

  it('a calendar that no longer exists → ProviderError; a revoked grant → ProviderAuthError', async () => {
    const tokens = await connect();
    await expect(microsoftWriter.writeEvent(target('AAMkAGCalGone=', tokens), upcoming(), ctx)).rejects.toThrow(/no longer exists/);
    fake.revokeRefreshToken();
    await expect(microsoftWriter.writeEvent(target(work, { ...tokens, expires_at: 0 }), upcoming(), ctx)).rejects.toBeInstanceOf(ProviderAuthError);
  });
});
