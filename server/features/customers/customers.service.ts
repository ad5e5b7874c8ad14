import crypto from 'node:crypto';
import { isPlaceholderName } from '@domain/rules/placeholders';
import {
  type CustomerDto,
  type CustomerInput,
  type CustomerUpdateInput,
  PORTAL_LINK_HOURS,
  type PortalLinkDto,
} from '@domain/schemas/customer.schema';
import type { SessionUser } from '@domain/schemas/auth.schema';
import type { Db } from '../../db/database';
import type { Trx } from '../../db/locks';
import { recordEvent } from '../../events/event-log.repo';
import { conflict, notFound } from '../../http/errors';
import { enqueueMailIf } from '../../mail/mail-outbox.repo';
import { portalLinkMail } from '../../mail/mail-texts';
import { hashPortalToken } from '../portal/portal-session';
import { insertPortalLink } from '../portal/portal.repo';
import {
  endPortalSessionsOf,
  findCustomerByName,
  findCustomerRecord,
  insertCustomerRecord,
  listCustomerRecords,
  updateCustomerRecord,
} from './customer-records.repo';

export const CUSTOMER_NOT_FOUND = 'Customer not found.';
export const NAME_TAKEN = 'Another customer already has this name.';
export const NO_EMAIL = "Add the customer's email first: the portal link goes to it.";

export async function loadCustomers(db: Db, companyId: number): Promise<CustomerDto[]> {
  const rows = await listCustomerRecords(db, companyId);
  // an empty placeholder's name ('EMPTY VAULT') is not a customer: no address, no portal
  return rows
    .filter((row) => !isPlaceholderName(row.name))
    .map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      units: Number(row.units ?? 0),
      lastPortalSignInAt: row.last_portal_sign_in_at ?? null,
    }));
}

/** The company's customer `id`; an empty placeholder's record ('EMPTY VAULT') is no customer. */
async function findCustomer(db: Db | Trx, companyId: number, id: number) {
  const customer = await findCustomerRecord(db, companyId, id);
  if (!customer || isPlaceholderName(customer.name)) throw notFound(CUSTOMER_NOT_FOUND);
  return customer;
}

async function present(db: Db, companyId: number, id: number): Promise<CustomerDto> {
  const found = (await loadCustomers(db, companyId)).find((c) => c.id === id);
  if (!found) throw notFound(CUSTOMER_NOT_FOUND);
  return found;
}

/**
 * Adds a customer, or gives an address to the customer of that name the vaults already carry (a customer the office
 * did not add yet): the portal then shows that customer's units.
 */
export async function addCustomer(db: Db, user: SessionUser, input: CustomerInput): Promise<CustomerDto> {
  const id = await db.transaction().execute(async (trx) => {
    const existing = await findCustomerByName(trx, user.companyId, input.name);
    if (existing && existing.email !== null) throw conflict(NAME_TAKEN);
    const id = existing?.id ?? (await insertCustomerRecord(trx, user.companyId, input));
    if (existing) await updateCustomerRecord(trx, user.companyId, id, { email: input.email });
    // the history names what happened, not the address: every member reads it
    await customerEvent(trx, user, 'customer.added', id, input.name, {
      hadUnits: Boolean(existing),
    });
    return id;
  });
  return present(db, user.companyId, id);
}

export async function changeCustomer(
  db: Db,
  user: SessionUser,
  id: number,
  input: CustomerUpdateInput,
): Promise<CustomerDto> {
  await db.transaction().execute(async (trx) => {
    const customer = await findCustomer(trx, user.companyId, id);
    if (input.name !== undefined && input.name !== customer.name) {
      const clash = await findCustomerByName(trx, user.companyId, input.name);
      if (clash) throw conflict(NAME_TAKEN);
    }
    await updateCustomerRecord(trx, user.companyId, id, input);
    const emailChanged = input.email !== undefined && input.email !== customer.email;
    if (emailChanged) await endPortalSessionsOf(trx, user.companyId, id);
    const renamed = input.name !== undefined && input.name !== customer.name;
    if (renamed || emailChanged)
      await customerEvent(trx, user, 'customer.changed', id, input.name ?? customer.name, {
        ...(renamed ? { renamedFrom: customer.name } : {}),
        newEmail: emailChanged,
      });
  });
  return present(db, user.companyId, id);
}

/**
 * A one-time portal link for the customer: mailed to their address when SMTP is set up (queued in the same
 * transaction, decision 042), otherwise answered for the office to copy. Only the token's hash is kept.
 */
export async function createPortalLink(
  db: Db,
  user: SessionUser,
  id: number,
  delivery: { origin: string; mail: boolean },
): Promise<PortalLinkDto> {
  return db.transaction().execute(async (trx) => {
    const customer = await findCustomer(trx, user.companyId, id);
    if (!customer.email) throw conflict(NO_EMAIL);
    const token = crypto.randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + PORTAL_LINK_HOURS * 3_600_000).toISOString();
    await insertPortalLink(trx, {
      companyId: user.companyId,
      customerId: customer.id,
      email: customer.email,
      tokenHash: hashPortalToken(token),
      expiresAt,
      createdBy: user.username,
    });
    const url = `${delivery.origin}/portal/sign-in#${token}`;
    const mailId = await enqueueMailIf(delivery.mail, trx, {
      companyId: user.companyId,
      ...portalLinkMail({ company: user.company.name, customer: customer.name, url, expiresAt }),
      recipient: customer.email,
      createdBy: user.username,
    });
    await customerEvent(trx, user, 'customer.portal-link', customer.id, customer.name, {
      mailed: mailId !== null,
    });
    return { url, expiresAt, mailId };
  });
}

/** A change of a customer in the company's history (who added, renamed or sent a portal link, and when). */
function customerEvent(
  trx: Trx,
  user: SessionUser,
  kind: 'customer.added' | 'customer.changed' | 'customer.portal-link',
  customerId: number,
  name: string,
  payload: Record<string, unknown>,
) {
  return recordEvent(trx, {
    companyId: user.companyId,
    userId: user.id,
    kind,
    entityType: 'customer',
    entityId: customerId,
    customer: name,
    payload,
  });
}
