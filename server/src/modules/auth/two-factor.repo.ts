/**
 * SQL of two-factor sign-in (issue 26, migration 0016): `two_factor_secrets` (sealed secrets, the
 * last accepted time step), `two_factor_recovery_codes` (HMACs only) and `users.two_factor_enabled_at`.
 * Values arrive sealed or hashed; nothing here sees a secret in clear.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Q = Kysely<Database>;

export interface TwoFactorRow {
  /** Sealed active secret; null while only a setup is pending. */
  secret: string | null;
  /** Sealed pending secret; null = no setup pending. */
  pending_secret: string | null;
  /** RFC 6238 time step of the last accepted code; null = none yet. */
  last_step: number | null;
}

/** The two-factor row of `userId`, if any. */
export async function findTwoFactor(db: Q, userId: string): Promise<TwoFactorRow | undefined> {
  const row = await db.selectFrom('two_factor_secrets').select(['secret', 'pending_secret', 'last_step']).where('user_id', '=', userId).executeTakeFirst();
  if (!row) return undefined;
  return { secret: row.secret, pending_secret: row.pending_secret, last_step: row.last_step == null ? null : Number(row.last_step) };
}

/** Stores `sealedPending` as the pending secret of `userId` (replacing an earlier one). */
export async function savePendingSecret(db: Q, userId: string, sealedPending: string, now: number): Promise<void> {
  await db
    .insertInto('two_factor_secrets')
    .values({ user_id: userId, secret: null, pending_secret: sealedPending, last_step: null, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ pending_secret: sealedPending, updated_at: now }))
    .execute();
}

/**
 * Turns two-factor on (in the caller's transaction): the pending secret becomes the active one
 * (only while it is still `sealedPending`: compare-and-set against a setup in between), `last_step`
 * is the step of the code that confirmed it, the recovery codes are replaced by `codeHashes`, and
 * `users.two_factor_enabled_at` is set. Returns false (nothing changed) when the pending secret changed.
 */
export async function activate(trx: Q, userId: string, sealedPending: string, step: number, codeHashes: string[], now: number): Promise<boolean> {
  const res = await trx
    .updateTable('two_factor_secrets')
    .set({ secret: sealedPending, pending_secret: null, last_step: step, updated_at: now })
    .where('user_id', '=', userId)
    .where('pending_secret', '=', sealedPending)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return false;
  await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await trx
    .insertInto('two_factor_recovery_codes')
    .values(codeHashes.map((code_hash) => ({ id: crypto.randomUUID(), user_id: userId, code_hash, used_at: null, created_at: now })))
    .execute();
  await trx.updateTable('users').set({ two_factor_enabled_at: now }).where('id', '=', userId).execute();
  return true;
}

/** Turns two-factor off (in the caller's transaction): secrets and recovery codes deleted, the flag cleared. */
export async function deactivate(trx: Q, userId: string): Promise<void> {
  await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await trx.deleteFrom('two_factor_secrets').where('user_id', '=', userId).execute();
  await trx.updateTable('users').set({ two_factor_enabled_at: null }).where('id', '=', userId).execute();
}

/**
 * Records `step` as the last accepted time step, only when it is later than the stored one
 * (compare-and-set: of two requests with one code, one wins). Returns whether it was recorded.
 */
export async function acceptStep(db: Q, userId: string, step: number, now: number): Promise<boolean> {
  const res = await db
    .updateTable('two_factor_secrets')
    .set({ last_step: step, updated_at: now })
    .where('user_id', '=', userId)
    .where('secret', 'is not', null)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Spends the unused recovery code of `userId` whose HMAC is `codeHash`; false when none (wrong or used). */
export async function spendRecoveryCode(db: Q, userId: string, codeHash: string, now: number): Promise<boolean> {
  const res = await db
    .updateTable('two_factor_recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** How many of `userId`'s recovery codes are still unused. */
export async function countUnusedRecoveryCodes(db: Q, userId: string): Promise<number> {
  const row = await db
    .selectFrom('two_factor_recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
