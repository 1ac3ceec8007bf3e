/**
 * A proposal's meeting in the owner's calendar (issue 24): writing it on confirm and removing it on
 * cancel (or after a lost race), through the provider's EventWriter (providers/event-writers.ts).
 * The connection's secret is decrypted for the call; a refreshed one (`newSecret`, OAuth) is
 * stored encrypted again. A provider failure becomes the owner's answer (HttpError): 409
 * `calendar_read_only`, 502 `calendar_auth` / `calendar_unavailable`; nothing names a secret.
 */
import type { CalendarConnectionRow } from '../../db/schema.ts';
import type { Deps } from '../../http/deps.ts';
import { HttpError } from '../../http/errors.ts';
import { decryptSecret, encryptSecret } from '../../lib/crypto.ts';
import type { Meeting } from '../../lib/meeting-ical.ts';
import { ProviderWriteDeniedError, type EventWriter, type WriteTarget } from '../../providers/event-writer.ts';
import { ProviderAuthError, ProviderError } from '../../providers/provider.ts';
import { findConnection, setConnectionSecret } from '../../store/calendars.repo.ts';
import { calendarFetchFor } from '../../providers/calendar-fetch.ts';
import type { ResolvedTarget } from './proposal-settings.service.ts';

/** The adapter's view of a connection: config, decrypted secret, the calendar. */
function writeTargetOf(deps: Deps, conn: { config_json: string; secret_enc: string | null }, calendarId: string): WriteTarget {
  let config: Record<string, unknown> = {};
  try {
    config = JSON.parse(conn.config_json) as Record<string, unknown>;
  } catch {
    /* an empty config */
  }
  let secret: string | null = null;
  if (conn.secret_enc) {
    try {
      secret = decryptSecret(conn.secret_enc, deps.config.AVAIL_SECRET_KEY);
    } catch {
      throw new ProviderAuthError('Saved credentials could not be read. Please reconnect this calendar.');
    }
  }
  return { config, secret, calendarId };
}

/** A provider failure as the owner's answer (nothing was changed). */
function providerFailure(err: unknown, calendarName: string, verb: 'add the meeting to' | 'remove the meeting from'): HttpError {
  if (err instanceof ProviderWriteDeniedError) return new HttpError(409, 'calendar_read_only', err.message);
  if (err instanceof ProviderAuthError) {
    return new HttpError(502, 'calendar_auth', `${calendarName} refused Avail's sign-in, so Avail could not ${verb} it. Reconnect it in Settings → My Calendars and try again.`);
  }
  const detail = err instanceof ProviderError ? ` ${err.message}` : '';
  return new HttpError(502, 'calendar_unavailable', `Avail could not ${verb} ${calendarName}.${detail} Nothing was changed; please try again.`);
}

async function storeNewSecret(deps: Deps, connectionId: string, newSecret: string | undefined) {
  if (newSecret) await setConnectionSecret(deps.db, connectionId, encryptSecret(newSecret, deps.config.AVAIL_SECRET_KEY));
}

/**
 * Writes `meeting` into the resolved calendar. @returns the provider's id of the event and, when the
 * provider gives its own (Graph), its iCalUID. @throws HttpError 409/502 (nothing written).
 */
export async function writeMeeting(deps: Deps, writer: EventWriter, resolved: ResolvedTarget, meeting: Meeting) {
  try {
    const w = await writer.writeEvent(writeTargetOf(deps, resolved.connection, resolved.calendar_id), meeting, { config: deps.config, fetch: calendarFetchFor(deps) });
    await storeNewSecret(deps, resolved.connection.id, w.newSecret);
    return { remoteId: w.remoteId, ...(w.uid ? { uid: w.uid } : {}) };
  } catch (err) {
    deps.logger.warn({ connectionId: resolved.connection.id, provider: resolved.connection.provider, errName: (err as Error)?.name }, 'could not write a confirmed meeting to the calendar');
    throw providerFailure(err, resolved.calendar_name, 'add the meeting to');
  }
}

/** Removes an event written by a confirm that lost its race; a failure is only logged. */
export async function removeQuietly(deps: Deps, writer: EventWriter, connectionId: string, userId: string, calendarId: string, remoteId: string) {
  const conn = await findConnection(deps.db, userId, connectionId, deps.config.AVAIL_SECRET_KEY);
  if (!conn) return;
  try {
    const r = await writer.deleteEvent(writeTargetOf(deps, conn, calendarId), remoteId, { config: deps.config, fetch: calendarFetchFor(deps) });
    await storeNewSecret(deps, conn.id, r.newSecret);
  } catch (err) {
    deps.logger.warn({ connectionId, errName: (err as Error)?.name }, 'could not remove a meeting written twice');
  }
}

/**
 * Removes a cancelled meeting's event `remoteId` from `calendarId` of `conn`.
 * @throws HttpError 409/502 naming `calendarName` (the meeting stays confirmed).
 */
export async function removeMeeting(
  deps: Deps,
  writer: EventWriter,
  conn: Pick<CalendarConnectionRow, 'id' | 'provider' | 'config_json' | 'secret_enc'>,
  calendarId: string,
  remoteId: string,
  calendarName: string,
): Promise<void> {
  try {
    const r = await writer.deleteEvent(writeTargetOf(deps, conn, calendarId), remoteId, {
      config: deps.config,
      fetch: calendarFetchFor(deps),
    });
    await storeNewSecret(deps, conn.id, r.newSecret);
  } catch (err) {
    deps.logger.warn({ connectionId: conn.id, provider: conn.provider, errName: (err as Error)?.name }, 'could not remove a cancelled meeting from the calendar');
    throw providerFailure(err, calendarName, 'remove the meeting from');
  }
}
