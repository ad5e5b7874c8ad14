import { sql } from 'kysely';
import type { Db } from '../db/database';
import { nowIso } from '../db/database';
import { SESSION_USER_COLUMNS } from './users.repo';

// API tokens (issue 31, decision 044): only the SHA-256 of a token's secret is kept.

/**
 * The live token with this hash and the member who made it, in one statement: not revoked, not expired, and made by a
 * member who is still an active Manager of the company. Not cached: a revoked token is refused by every process on
 * its next request.
 */
export async function findLiveToken(db: Db, secretHash: string) {
  return db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.created_by_user_id')
    .innerJoin('companies', 'companies.id', 'users.company_id')
    .select([
      'api_tokens.id as token_id',
      'api_tokens.name as token_name',
      'api_tokens.role as token_role',
      'api_tokens.last_used_at',
      ...SESSION_USER_COLUMNS,
    ])
    .where('api_tokens.secret_hash', '=', secretHash)
    .where('api_tokens.revoked_at', 'is', null)
    .where((eb) =>
      eb.or([eb('api_tokens.expires_at', 'is', null), eb('api_tokens.expires_at', '>', nowIso())]),
    )
    .where('users.active', '=', sql.lit(1))
    .where('users.role', '=', 'manager')
    .whereRef('api_tokens.company_id', '=', 'users.company_id')
    .executeTakeFirst();
}

/** Notes a token's use (the caller throttles: at most once a minute per token). */
export async function noteTokenUse(db: Db, tokenId: number, at: string): Promise<void> {
  await db.updateTable('api_tokens').set({ last_used_at: at }).where('id', '=', tokenId).execute();
}

const TOKEN_COLUMNS = [
  'api_tokens.id',
  'api_tokens.name',
  'api_tokens.role',
  'api_tokens.hint',
  'api_tokens.created_at',
  'api_tokens.expires_at',
  'api_tokens.last_used_at',
  'api_tokens.revoked_at',
  'users.username as created_by',
] as const;

export async function listTokens(db: Db, companyId: number) {
  return db
    .selectFrom('api_tokens')
    .leftJoin('users', 'users.id', 'api_tokens.created_by_user_id')
    .select(TOKEN_COLUMNS)
    .where('api_tokens.company_id', '=', companyId)
    .orderBy('api_tokens.id', 'desc')
    .execute();
}

export type TokenRow = Awaited<ReturnType<typeof listTokens>>[number];

export async function findToken(db: Db, companyId: number, id: number): Promise<TokenRow | undefined> {
  return db
    .selectFrom('api_tokens')
    .leftJoin('users', 'users.id', 'api_tokens.created_by_user_id')
    .select(TOKEN_COLUMNS)
    .where('api_tokens.company_id', '=', companyId)
    .where('api_tokens.id', '=', id)
    .executeTakeFirst();
}

export async function insertToken(
  db: Db,
  token: {
    companyId: number;
    name: string;
    role: string;
    secretHash: string;
    hint: string;
    userId: number;
    expiresAt: string | null;
  },
): Promise<number> {
  const row = await db
    .insertInto('api_tokens')
    .values({
      company_id: token.companyId,
      name: token.name,
      role: token.role,
      secret_hash: token.secretHash,
      hint: token.hint,
      created_by_user_id: token.userId,
      created_at: nowIso(),
      expires_at: token.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Revokes the company's token; false when there is no such live token. */
export async function revokeToken(db: Db, companyId: number, id: number, by: string): Promise<boolean> {
  const result = await db
    .updateTable('api_tokens')
    .set({ revoked_at: nowIso(), revoked_by: by })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
