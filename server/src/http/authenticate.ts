/**
 * Bearer-token authentication. Tokens are 32 random bytes (base64url) given to the client once;
 * the database keeps only their sha256 hash.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { UserRow } from '../db/schema.ts';
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

/** Creates a token row for `userId` and returns the token (the only time it exists in clear). */
export async function issueToken(deps: Pick<Deps, 'db' | 'now'>, userId: string): Promise<string> {
  const token = generateToken();
  const now = deps.now();
  await deps.db
    .insertInto('auth_tokens')
    .values({ id: crypto.randomUUID(), user_id: userId, token_hash: hashToken(token), created_at: now, last_used_at: now })
    .execute();
  return token;
}

const TOUCH_INTERVAL_MS = 60_000;

/** Middleware: requires `Authorization: Bearer <token>`; 401 `{error:'Unauthenticated', code:'unauthenticated'}`. */
export function authenticate(deps: Deps) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})\s*$/i.exec(header);
    if (!match) throw unauthenticated();
    const row = await deps.db
      .selectFrom('auth_tokens')
      .innerJoin('users', 'users.id', 'auth_tokens.user_id')
      .selectAll('users')
      .select(['auth_tokens.id as token_id', 'auth_tokens.last_used_at as token_last_used_at'])
      .where('auth_tokens.token_hash', '=', hashToken(match[1]))
      .executeTakeFirst();
    if (!row) throw unauthenticated();
    const { token_id, token_last_used_at, ...user } = row;
    const now = deps.now();
    if (now - token_last_used_at > TOUCH_INTERVAL_MS) {
      await deps.db.updateTable('auth_tokens').set({ last_used_at: now }).where('id', '=', token_id).execute();
    }
    req.user = user;
    req.authTokenId = token_id;
    next();
  };
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
