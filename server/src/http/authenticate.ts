/**
 * Bearer-token authentication. Tokens are 32 random bytes (base64url) given to the client once;
 * the database keeps only their sha256 hash.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Config } from '../config.ts';
import type { UserRow } from '../db/schema.ts';
import { sessionLabel } from './session-label.ts';
import type { Deps } from './deps.ts';
import { forbidden, unauthenticated } from './errors.ts';

declare global {
  namespace Express {
    interface Request {
      /** Set by `authenticate`. */
      user?: UserRow;
      /** Id of the auth_tokens row used for this request (logout revokes it). */
      authTokenId?: string;
    }
  }
}

/** sha256 hex of a bearer token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A new bearer token: 32 random bytes, base64url. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Creates a token row (a session) for `userId` and returns the token (the only time it exists in
 * clear). `userAgent` is the User-Agent header of the request signing in: only the label derived
 * from it is stored ("Chrome on macOS", "Avail desktop on Linux", "Unknown device";
 * http/session-label.ts), never the header itself.
 */
export async function issueToken(deps: Pick<Deps, 'db' | 'now'>, userId: string, userAgent?: string | null): Promise<string> {
  const token = generateToken();
  const now = deps.now();
  await deps.db
    .insertInto('auth_tokens')
    .values({ id: crypto.randomUUID(), user_id: userId, token_hash: hashToken(token), created_at: now, last_used_at: now, label: sessionLabel(userAgent) })
    .execute();
  return token;
}

const DAY_MS = 86_400_000;

/**
 * Whether a session has ended at `now` (UTC ms): unused for SESSION_IDLE_DAYS since `last_used_at`,
 * or SESSION_MAX_DAYS since `created_at` (days, decimals allowed; docs/account-security.md "Expiry").
 * The end instant itself counts as ended.
 */
function sessionExpired(
  config: Pick<Config, 'SESSION_IDLE_DAYS' | 'SESSION_MAX_DAYS'>,
  session: { created_at: number; last_used_at: number },
  now: number,
): boolean {
  return now - Number(session.last_used_at) >= config.SESSION_IDLE_DAYS * DAY_MS || now - Number(session.created_at) >= config.SESSION_MAX_DAYS * DAY_MS;
}

/** The 401 of an expired session (docs/account-security.md). */
const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please sign in again.';

const TOUCH_INTERVAL_MS = 60_000;

/**
 * Middleware: requires `Authorization: Bearer <token>`; 401 `{error:'Unauthenticated', code:'unauthenticated'}`
 * without a known token. A token past its idle or absolute expiry (`sessionExpired`) answers 401
 * `{ error: SESSION_EXPIRED_MESSAGE, code: 'session_expired' }` every time until the purge deletes
 * its row (30 days after its absolute end: sessions.service.ts purgeCutoffs), so a device that comes
 * back after weeks away learns that it expired (and keeps its unpushed edits) rather than that it
 * was signed out. `last_used_at` is written at most once a minute.
 */
export function authenticate(deps: Deps) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})\s*$/i.exec(header);
    if (!match) throw unauthenticated();
    const row = await deps.db
      .selectFrom('auth_tokens')
      .innerJoin('users', 'users.id', 'auth_tokens.user_id')
      .selectAll('users')
      .select(['auth_tokens.id as token_id', 'auth_tokens.last_used_at as token_last_used_at', 'auth_tokens.created_at as token_created_at'])
      .where('auth_tokens.token_hash', '=', hashToken(match[1]))
      .executeTakeFirst();
    if (!row) throw unauthenticated();
    const { token_id, token_last_used_at, token_created_at, ...user } = row;
    const now = deps.now();
    if (sessionExpired(deps.config, { created_at: token_created_at, last_used_at: token_last_used_at }, now)) {
      throw unauthenticated(SESSION_EXPIRED_MESSAGE, 'session_expired');
    }
    if (now - token_last_used_at > TOUCH_INTERVAL_MS) {
      await deps.db.updateTable('auth_tokens').set({ last_used_at: now }).where('id', '=', token_id).execute();
    }
    req.user = user;
    req.authTokenId = token_id;
    next();
  };
}

/**
 * For requests that stay open (the replication stream): whether session `sessionId` still exists
 * and has not expired at `deps.now()` (an expired row is kept: the reconnect gets `session_expired`). An open
 * stream is use: `last_used_at` is written, at most once a minute.
 * @returns false once the owner ended the session (or a password change / reset did) or it expired.
 */
export async function sessionAlive(deps: Pick<Deps, 'db' | 'now'> & { config: Pick<Config, 'SESSION_IDLE_DAYS' | 'SESSION_MAX_DAYS'> }, sessionId: string): Promise<boolean> {
  const row = await deps.db.selectFrom('auth_tokens').select(['created_at', 'last_used_at']).where('id', '=', sessionId).executeTakeFirst();
  if (!row) return false;
  const now = deps.now();
  if (sessionExpired(deps.config, row, now)) return false;
  if (now - Number(row.last_used_at) > TOUCH_INTERVAL_MS) {
    await deps.db.updateTable('auth_tokens').set({ last_used_at: now }).where('id', '=', sessionId).execute();
  }
  return true;
}

/** Middleware (after authenticate): 403 until the e-mail is verified. */
export function requireVerified(req: Request, _res: Response, next: NextFunction) {
  if (!req.user) throw unauthenticated();
  if (req.user.email_verified_at == null) {
    throw forbidden('Please verify your email before continuing.', 'email_not_verified', { requires_verification: true });
  }
  next();
}

/** The authenticated user of a request (401 when absent). */
export function currentUser(req: Request): UserRow {
  if (!req.user) throw unauthenticated();
  return req.user;
}
