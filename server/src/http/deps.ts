/** What every router and service receives. Built once in main.ts (or test/test-app.ts). */
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/kysely.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { EventWriter } from '../providers/event-writer.ts';
import type { OAuthCalendarProvider, OAuthProviderId } from '../providers/oauth-provider.ts';

export interface AppDeps {
  db: Db;
  config: Config;
  logger: Logger;
  mailer: Mailer;
  /** Clock in epoch ms (tests inject one). Defaults to Date.now. */
  now?: () => number;
  /** Replaces OAuth adapters of the registry (tests); see providers/oauth-registry.ts. */
  oauthProviders?: Partial<Record<OAuthProviderId, OAuthCalendarProvider>>;
  /** Replaces event writers of the registry by provider id (tests); see providers/event-writers.ts. */
  eventWriters?: Partial<Record<string, EventWriter>>;
}

/** AppDeps with the clock filled in; what createApp hands to routers. */
export interface Deps extends AppDeps {
  now: () => number;
}
