/**
 * Registry of the EventWriters (issue 24: writing a confirmed meeting into the owner's calendar;
 * the contract is event-writer.ts), looked up by a connection's `provider`. Mirrors
 * oauth-registry.ts: tests (and only tests) replace a writer through `deps.eventWriters`, so the
 * proposals service never imports an adapter directly: it calls `eventWriterFor(deps, provider)`.
 */
import { appleWriter } from './apple/apple.provider.ts';
import { caldavWriter } from './caldav/caldav-writer.ts';
import type { EventWriter } from './event-writer.ts';
import { googleWriter } from './google/google-writer.ts';
import { microsoftWriter } from './microsoft/microsoft-writer.ts';

/** The writers shipped with the server, by calendar_connections.provider. An ICS feed cannot be written: no entry. */
export const eventWriters: Readonly<Record<'caldav' | 'apple' | 'google' | 'microsoft', EventWriter>> = {
  caldav: caldavWriter,
  apple: appleWriter,
  google: googleWriter,
  microsoft: microsoftWriter,
};

/** Override of the registry carried by deps (tests). */
export interface EventWriterDeps {
  eventWriters?: Partial<Record<string, EventWriter>>;
}

/**
 * The writer of a connection's provider (`'caldav' | 'apple' | 'google' | 'microsoft'`; the deps
 * override first), or undefined when the provider cannot take events (`'ics'`, anything unknown).
 * e.g. `eventWriterFor(deps, connection.provider)?.writeEvent(target, meeting, { config, fetch })`.
 */
export function eventWriterFor(deps: EventWriterDeps, provider: string): EventWriter | undefined {
  const override = deps.eventWriters?.[provider];
  if (override) return override;
  return Object.hasOwn(eventWriters, provider) ? eventWriters[provider as keyof typeof eventWriters] : undefined;
}
