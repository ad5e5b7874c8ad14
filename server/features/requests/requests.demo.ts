import { dayOf, isoOf } from '@domain/billing/days';
import type { Db } from '../../db/database';
import { today } from '../accounts/accounts.service';
import { updateCustomerRecord } from '../customers/customer-records.repo';
import { createRequest, scheduleRequest } from './requests.service';

// The demo company's customers asking for their goods (issue 29), as the office took them on the phone: one delivery
// waiting to be scheduled, and one scheduled for tomorrow with its crew and truck, its pull list made, so the requests,
// pull lists and load-out screens open with something on them. Both customers gave the office an address (at a
// reserved example domain), so the Customers page can hand out a portal link and the portal shows their requests.
// Nothing is mailed.

const NO_MAIL = { on: false, portalUrl: null };

/** A customer's id and the units it has in the warehouse fields, by its name. */
async function storedUnitsOf(db: Db, companyId: number, name: string) {
  const rows = await db
    .selectFrom('vaults')
    .innerJoin('customers', 'customers.id', 'vaults.customer_id')
    .where('vaults.company_id', '=', companyId)
    .where('customers.name', '=', name)
    .where('vaults.field_id', 'is not', null)
    .where('vaults.released_at', 'is', null)
    .select(['customers.id as customer_id', 'vaults.id'])
    .orderBy('vaults.id')
    .execute();
  return rows.length === 0 ? null : { customerId: rows[0]!.customer_id, vaultIds: rows.map((r) => r.id) };
}

export async function seedDemoRequests(db: Db, companyId: number, userId: number, seedDay = today()) {
  const day = dayOf(seedDay);
  const staff = { kind: 'staff' as const, companyId, userId, role: 'manager' as const };
  const asked = await storedUnitsOf(db, companyId, 'JOHANSSON');
  const scheduled = await storedUnitsOf(db, companyId, 'NGUYEN');
  for (const [customer, email] of [
    [asked, 'johansson@example.com'],
    [scheduled, 'nguyen@example.com'],
  ] as const)
    if (customer) await updateCustomerRecord(db, companyId, customer.customerId, { email });
  if (asked)
    await createRequest(
      db,
      staff,
      asked.customerId,
      {
        kind: 'delivery',
        vault_ids: asked.vaultIds,
        wished_date: isoOf(day + 6),
        address: '14 Orchard Lane, Springfield',
        notes: 'Please call an hour before you come.',
      },
      NO_MAIL,
    );
  if (!scheduled) return;
  const request = await createRequest(
    db,
    staff,
    scheduled.customerId,
    {
      kind: 'delivery',
      vault_ids: scheduled.vaultIds,
      wished_date: isoOf(day + 1),
      address: '9 Harbor Road, Bayside',
    },
    NO_MAIL,
  );
  await scheduleRequest(
    db,
    staff,
    request.id,
    { date: isoOf(day + 1), crew: 'Marco and Dee', truck: 'Truck 3' },
    NO_MAIL,
  );
}
