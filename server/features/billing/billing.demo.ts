import type { BillingUnitType } from '@domain/billing/rates';
import type { Actor } from '../../auth/actor';
import type { Db } from '../../db/database';
import { createAccount, createAccountsInBulk, listNotBilled, today } from '../accounts/accounts.service';
import { addRate } from './billing.service';

// The demo company's storage business (issue 28): the rates a mover would charge, and most orders on accounts, one
// of them SIT paid by an agency, so the billing screens open with something to run. A few orders stay "not billed".

/** Monthly storage per unit, in cents. */
const STORAGE_RATES: Record<BillingUnitType, number> = {
  vault: 9_500,
  liftvan: 12_500,
  t2: 6_500,
  couchbox: 4_500,
  pallet: 3_500,
};
const HANDLING_IN = 2_500;
const HANDLING_OUT = 2_500;
/** orders left without an account, so the "not billed" list shows what it is for */
const LEFT_NOT_BILLED = 3;

export async function seedDemoBilling(db: Db, actor: Actor): Promise<void> {
  const from = '2026-01-01';
  for (const [unit, amount] of Object.entries(STORAGE_RATES) as [BillingUnitType, number][]) {
    await addRate(db, actor, { kind: 'storage', unit_type: unit, amount, effective_from: from });
    await addRate(db, actor, {
      kind: 'handling-in',
      unit_type: unit,
      amount: HANDLING_IN,
      effective_from: from,
    });
    await addRate(db, actor, {
      kind: 'handling-out',
      unit_type: unit,
      amount: HANDLING_OUT,
      effective_from: from,
    });
  }
  await addRate(db, actor, { kind: 'valuation', amount: 60, effective_from: from });

  const orders = await listNotBilled(db, actor.companyId);
  const [sit, ...rest] = orders.slice(0, Math.max(0, orders.length - LEFT_NOT_BILLED));
  if (!sit) return;
  // a household in transit, stored from today: its carrier pays the first 90 days
  await createAccount(db, actor, {
    order_ids: [sit.order_id],
    kind: 'sit',
    sit_authorization: 'SIT-24-0117',
    sit_payer: 'agency',
    agency_name: 'Atlas Relocation Network',
    agency_reference: 'ARN-55812',
    sit_start: today(),
    sit_days_allowed: 90,
    declared_value: 2_500_000,
  });
  if (rest.length > 0) await createAccountsInBulk(db, actor, { order_ids: rest.map((o) => o.order_id) });
}
