/**
 * Server configuration: environment variables parsed once at boot with zod.
 * `loadConfig()` throws a ConfigError listing every problem, so a misconfigured server never starts.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DESKTOP_APP_ORIGIN } from '@avail/shared/desktop/desktop-bridge.ts';

/** Repository root (server/src/config.ts → ../..). Relative DATA_DIR / WEB_DIST_DIR resolve against it. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const booleanish = z
  .union([z.boolean(), z.string()])
  .transform((v, ctx) => {
    if (typeof v === 'boolean') return v;
    const s = v.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(s)) return true;
    if (['0', 'false', 'no', 'off', ''].includes(s)) return false;
    ctx.addIssue({ code: 'custom', message: 'must be true or false' });
    return z.NEVER;
  });

/** An optional setting: unset or blank = undefined. */
const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), 'must be a postgres:// URL (leave unset for SQLite)'),
  PUBLIC_BASE_URL: z.string().trim().url().optional().or(z.literal('').transform(() => undefined)),
  SMTP_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || /^smtps?:\/\//.test(v), 'must be an smtp:// or smtps:// URL'),
  MAIL_FROM: z.string().trim().min(1).default('Avail <no-reply@localhost>'),
  AVAIL_SECRET_KEY: z.string().trim().optional().transform((v) => (v ? v : undefined)),
  APPLE_CALDAV_URL: z.string().trim().url().default('https://caldav.icloud.com'),
  ALLOW_PRIVATE_CALENDAR_HOSTS: booleanish.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PAGE_VIEW_FLUSH_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  WEB_DIST_DIR: z.string().min(1).default('web/dist'),
  BACKUP_SYNC_TICK_MS: z.coerce.number().int().min(200).max(60_000).default(60_000),
  SYNC_WORKERS: z.coerce.number().int().min(1).max(64).default(4),
  SYNC_LEASE_MS: z.coerce.number().int().min(1_000).max(60 * 60_000).default(5 * 60_000),
  RATE_LIMIT_STORE: z.enum(['auto', 'memory', 'postgres']).default('auto'),
  // At least 0.01 day (14.4 min): last_used_at is written at most once a minute, so a shorter idle limit would end sessions in use.
  SESSION_IDLE_DAYS: z.coerce.number().min(0.01).default(30),
  SESSION_MAX_DAYS: z.coerce.number().positive().default(365),
  ERASE_VACUUM_DELAY_S: z.coerce.number().int().min(0).max(24 * 60 * 60).default(60),
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  GOOGLE_AUTH_URL: z.string().trim().url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: z.string().trim().url().default('https://oauth2.googleapis.com/token'),
  GOOGLE_REVOKE_URL: z.string().trim().url().default('https://oauth2.googleapis.com/revoke'),
  GOOGLE_API_BASE_URL: z.string().trim().url().default('https://www.googleapis.com'),
  MICROSOFT_CLIENT_ID: optionalText,
  MICROSOFT_CLIENT_SECRET: optionalText,
  MICROSOFT_TENANT: z.string().trim().min(1).default('common'),
  MICROSOFT_LOGIN_BASE_URL: z.string().trim().url().default('https://login.microsoftonline.com'),
  // https only: the Graph client (@microsoft/microsoft-graph-client) follows only https:// next/delta links.
  MICROSOFT_GRAPH_BASE_URL: z
    .string()
    .trim()
    .url()
    .refine((v) => /^https:\/\//.test(v), 'must be an https:// URL (the Graph client follows only https links)')
    .default('https://graph.microsoft.com/v1.0'),
  WEBHOOK_BASE_URL: z.string().trim().url().optional().or(z.literal('').transform(() => undefined)),
  DESKTOP_ORIGINS: z
    .string()
    .trim()
    .default(DESKTOP_APP_ORIGIN)
    .transform((v, ctx) => {
      const list = v.split(',').map((o) => o.trim()).filter(Boolean);
      for (const o of list) {
        let ok = false;
        try {
          ok = new URL(o).origin === o || /^app:\/\/[a-z0-9.-]+$/.test(o);
        } catch {
          ok = false;
        }
        if (!ok) ctx.addIssue({ code: 'custom', message: `"${o}" is not an origin like app://avail or https://host:port` });
      }
      return list;
    }),
});

export interface Config {
  PORT: number;
  /** Absolute path. */
  DATA_DIR: string;
  /** `postgres://…` or undefined (SQLite). */
  DATABASE_URL: string | undefined;
  /** Absolute path of the SQLite file (used only when DATABASE_URL is unset). */
  SQLITE_PATH: string;
  /** Without a trailing slash. */
  PUBLIC_BASE_URL: string;
  SMTP_URL: string | undefined;
  MAIL_FROM: string;
  /** 32 raw bytes. */
  AVAIL_SECRET_KEY: Buffer;
  APPLE_CALDAV_URL: string;
  ALLOW_PRIVATE_CALENDAR_HOSTS: boolean;
  LOG_LEVEL: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Page views are written in batches this many ms after the first pending one; 0 = one write per new view. */
  PAGE_VIEW_FLUSH_MS: number;
  /** Absolute path. */
  WEB_DIST_DIR: string;
  /** How often the backup-sync planner looks for due connections (ms; default 60 000: each connection has its own minute in the 15-minute window). */
  BACKUP_SYNC_TICK_MS: number;
  /** Connection syncs one instance runs at once (its workers on the sync-connection queue). */
  SYNC_WORKERS: number;
  /** Longest a sync holds its connection's lease (ms); a job whose worker died is claimed again after this. */
  SYNC_LEASE_MS: number;
  /** Where rate-limit counts live: 'auto' = in the database on PostgreSQL (shared by instances), in memory on SQLite. */
  RATE_LIMIT_STORE: 'auto' | 'memory' | 'postgres';
  /** A session (bearer token) unused this many days (decimals allowed) ends: 401 session_expired (docs/account-security.md). */
  SESSION_IDLE_DAYS: number;
  /** A session ends this many days after sign-in, however active (decimals allowed). */
  SESSION_MAX_DAYS: number;
  /** PostgreSQL: seconds after an account deletion before its tables are rewritten with VACUUM FULL (deletions meanwhile share the run; modules/auth/erase-vacuum.service.ts). */
  ERASE_VACUUM_DELAY_S: number;
  /** Google OAuth client (https://console.cloud.google.com/apis/credentials); unset = Google unavailable. */
  GOOGLE_CLIENT_ID: string | undefined;
  GOOGLE_CLIENT_SECRET: string | undefined;
  /** Google endpoints; overridable so tests point them at local fakes. */
  GOOGLE_AUTH_URL: string;
  GOOGLE_TOKEN_URL: string;
  GOOGLE_REVOKE_URL: string;
  /** Calendar API origin; requests go to `${GOOGLE_API_BASE_URL}/calendar/v3/...`. */
  GOOGLE_API_BASE_URL: string;
  /** Microsoft identity platform app (Entra ID app registration); unset = Microsoft unavailable. */
  MICROSOFT_CLIENT_ID: string | undefined;
  MICROSOFT_CLIENT_SECRET: string | undefined;
  /** 'common' (work + personal accounts), 'organizations', 'consumers' or a tenant id. */
  MICROSOFT_TENANT: string;
  /** Token/authorize at `${MICROSOFT_LOGIN_BASE_URL}/${MICROSOFT_TENANT}/oauth2/v2.0/...`. */
  MICROSOFT_LOGIN_BASE_URL: string;
  /** Graph root incl. version, e.g. https://graph.microsoft.com/v1.0 (https only). */
  MICROSOFT_GRAPH_BASE_URL: string;
  /** Public HTTPS origin providers send webhooks to (default PUBLIC_BASE_URL), without a trailing slash. */
  WEBHOOK_BASE_URL: string;
  /** Origins allowed to call /api cross-origin (CORS, no credentials): the desktop app's `app://avail` by default. */
  DESKTOP_ORIGINS: string[];
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Decodes a 32-byte key written as 64 hex characters or base64/base64url; null if it is not one. */
function decodeSecretKey(text: string): Buffer | null {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(t)) {
    const b = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (b.length === 32) return b;
  }
  return null;
}

/** Reads `${dataDir}/secret.key`, creating it (mode 0600) with 32 random bytes the first time. */
function loadOrCreateSecretKey(dataDir: string): Buffer {
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) {
    const key = decodeSecretKey(readFileSync(file, 'utf8'));
    if (!key) throw new ConfigError([`${file} does not hold a 32-byte key (base64 or hex)`]);
    return key;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return key;
}

/**
 * Parses `env` (default `process.env`). Relative paths resolve against `baseDir`
 * (default: the repository root, so `npm start` from the root keeps data in `<repo>/data`).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, baseDir: string = REPO_ROOT): Config {
  const parsed = envSchema.safeParse(env);
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${issue.path.join('.') || 'env'}: ${issue.message}`);
    throw new ConfigError(problems);
  }
  const e = parsed.data;
  let secret: Buffer | undefined;
  if (e.AVAIL_SECRET_KEY !== undefined) {
    secret = decodeSecretKey(e.AVAIL_SECRET_KEY) ?? undefined;
    if (!secret) problems.push('AVAIL_SECRET_KEY: must be 32 bytes written as base64 or 64 hex characters');
  }
  if (problems.length) throw new ConfigError(problems);
  const dataDir = path.resolve(baseDir, e.DATA_DIR);
  if (!secret) secret = loadOrCreateSecretKey(dataDir);
  return {
    PORT: e.PORT,
    DATA_DIR: dataDir,
    DATABASE_URL: e.DATABASE_URL,
    SQLITE_PATH: path.join(dataDir, 'avail.sqlite'),
    PUBLIC_BASE_URL: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    SMTP_URL: e.SMTP_URL,
    MAIL_FROM: e.MAIL_FROM,
    AVAIL_SECRET_KEY: secret,
    APPLE_CALDAV_URL: e.APPLE_CALDAV_URL,
    ALLOW_PRIVATE_CALENDAR_HOSTS: e.ALLOW_PRIVATE_CALENDAR_HOSTS,
    LOG_LEVEL: e.LOG_LEVEL,
    PAGE_VIEW_FLUSH_MS: e.PAGE_VIEW_FLUSH_MS,
    WEB_DIST_DIR: path.resolve(baseDir, e.WEB_DIST_DIR),
    BACKUP_SYNC_TICK_MS: e.BACKUP_SYNC_TICK_MS,
    SYNC_WORKERS: e.SYNC_WORKERS,
    SYNC_LEASE_MS: e.SYNC_LEASE_MS,
    RATE_LIMIT_STORE: e.RATE_LIMIT_STORE,
    SESSION_IDLE_DAYS: e.SESSION_IDLE_DAYS,
    SESSION_MAX_DAYS: e.SESSION_MAX_DAYS,
    ERASE_VACUUM_DELAY_S: e.ERASE_VACUUM_DELAY_S,
    GOOGLE_CLIENT_ID: e.GOOGLE_CLIENT_ID,
    GOOGLE_CLIENT_SECRET: e.GOOGLE_CLIENT_SECRET,
    GOOGLE_AUTH_URL: e.GOOGLE_AUTH_URL,
    GOOGLE_TOKEN_URL: e.GOOGLE_TOKEN_URL,
    GOOGLE_REVOKE_URL: e.GOOGLE_REVOKE_URL,
    GOOGLE_API_BASE_URL: e.GOOGLE_API_BASE_URL.replace(/\/+$/, ''),
    MICROSOFT_CLIENT_ID: e.MICROSOFT_CLIENT_ID,
    MICROSOFT_CLIENT_SECRET: e.MICROSOFT_CLIENT_SECRET,
    MICROSOFT_TENANT: e.MICROSOFT_TENANT,
    MICROSOFT_LOGIN_BASE_URL: e.MICROSOFT_LOGIN_BASE_URL.replace(/\/+$/, ''),
    MICROSOFT_GRAPH_BASE_URL: e.MICROSOFT_GRAPH_BASE_URL.replace(/\/+$/, ''),
    WEBHOOK_BASE_URL: (e.WEBHOOK_BASE_URL ?? e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    DESKTOP_ORIGINS: e.DESKTOP_ORIGINS,
  };
}
