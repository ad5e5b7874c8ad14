import type { Db } from '../db/database';

/** A key's row as a repeat sees it. */
export interface KeptKey {
  id: number;
  fingerprint: string;
  claim_token: string;
  claimed_at: string;
  status: number | null;
  content_type: string | null;
  body: string | null;
}

/**
 * Claims `key` in `scope` for one request: the row is inserted unless the key is there already (the unique index
 * decides between processes). Answers the new row's id, or undefined when another request holds the key.
 */
export async function claimKey(
  db: Db,
  claim: {
    companyId: number | null;
    scope: string;
    key: string;
    fingerprint: string;
    token: string;
    now: string;
  },
): Promise<number | undefined> {
  const row = await db
    .insertInto('idempotency_keys')
    .values({
      company_id: claim.companyId,
      scope: claim.scope,
      idem_key: claim.key,
      fingerprint: claim.fingerprint,
      claim_token: claim.token,
      claimed_at: claim.now,
      created_at: claim.now,
    })
    .onConflict((oc) => oc.columns(['scope', 'idem_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function findKey(db: Db, scope: string, key: string): Promise<KeptKey | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .select(['id', 'fingerprint', 'claim_token', 'claimed_at', 'status', 'content_type', 'body'])
    .where('scope', '=', scope)
    .where('idem_key', '=', key)
    .executeTakeFirst();
}

/** Takes over a claim whose request never finished (its process stopped); true when this caller got it. */
export async function takeOverClaim(
  db: Db,
  id: number,
  staleToken: string,
  token: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({ claim_token: token, claimed_at: now })
    .where('id', '=', id)
    .where('claim_token', '=', staleToken)
    .where('status', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Keeps the answer of the request that holds the claim. */
export async function completeClaim(
  db: Db,
  id: number,
  token: string,
  answer: { status: number; contentType: string | null; body: string; now: string },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({
      status: answer.status,
      content_type: answer.contentType,
      body: answer.body,
      completed_at: answer.now,
    })
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .execute();
}

/** Gives the key up again (the request wrote nothing), so a repeat runs afresh. */
export async function releaseClaim(db: Db, id: number, token: string): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .where('status', 'is', null)
    .execute();
}

/** Housekeeping: keys claimed before `before`. */
export async function deleteOldKeys(db: Db, before: string): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<=', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
