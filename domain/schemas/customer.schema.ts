import { z } from 'zod';
import { isPlaceholderName } from '../rules/placeholders';
import { customerName, emailAddress as email } from './form-values';

/** How long a customer's portal link works, and a portal session lasts (issue 29). */
export const PORTAL_LINK_HOURS = 72;
export const PORTAL_SESSION_DAYS = 30;

export const PLACEHOLDER_NOT_A_CUSTOMER =
  "A name with EMPTY in it marks an empty placeholder, not a customer: choose the customer's own name.";

/** a customer's name, never the mark of an empty placeholder ('EMPTY VAULT'): those are not customers */
const realCustomerName = customerName.refine((name) => !isPlaceholderName(name), PLACEHOLDER_NOT_A_CUSTOMER);

/** A customer the office adds: the name vaults carry (upper case, as everywhere) and the address portal links go to. */
export const CustomerSchema = z.object({ name: realCustomerName, email });
export type CustomerInput = z.infer<typeof CustomerSchema>;

export const CustomerUpdateSchema = z
  .object({ name: realCustomerName.optional(), email: email.optional() })
  .refine((v) => v.name !== undefined || v.email !== undefined, 'Say what to change: a name or an email.');
export type CustomerUpdateInput = z.infer<typeof CustomerUpdateSchema>;

export const PortalTokenSchema = z.object({
  token: z.string({ error: 'The link is incomplete.' }).min(1, 'The link is incomplete.').max(200),
});

/** A customer of the company, as the Customers page lists it. */
export interface CustomerDto {
  id: number;
  name: string;
  email: string | null;
  /** units in storage now (released ones not counted) */
  units: number;
  /** when the customer last opened a portal link, if ever */
  lastPortalSignInAt: string | null;
}

/** A portal link as the office sees it, once: mailed (`mailId`) or shown to copy. */
export interface PortalLinkDto {
  url: string;
  expiresAt: string;
  /** the queued mail carrying the link, or null when SMTP is not set up and the link is to be copied */
  mailId: number | null;
}

/** Who is signed in to the portal. */
export interface PortalMeDto {
  name: string;
  email: string | null;
  company: string;
}

/** One of the customer's units in storage. */
export interface PortalUnitDto {
  id: number;
  number: string | null;
  type: string;
  order: string | null;
  /** the warehouse it stands in; null while it is staged (being moved) */
  warehouse: string | null;
  /** since when it is stored */
  since: string;
}

export interface PortalInvoiceDto {
  /** for its PDF, `GET /api/portal/invoices/{id}/invoice.pdf` */
  id: number;
  number: number | null;
  status: string;
  issueDate: string | null;
  dueDate: string | null;
  total: number;
  open: number;
}

/** The customer's invoices and what is open on them, in the company's currency (minor units). */
export interface PortalInvoicesDto {
  currency: string;
  locale: string;
  balance: number;
  invoices: PortalInvoiceDto[];
}

// The answers as declared for the API document (decision 045).
export const CustomerDtoSchema: z.ZodType<CustomerDto> = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  units: z.number().int(),
  lastPortalSignInAt: z.string().nullable(),
});

export const PortalLinkDtoSchema: z.ZodType<PortalLinkDto> = z.object({
  url: z.string(),
  expiresAt: z.string(),
  mailId: z.number().int().nullable(),
});

export const PortalMeDtoSchema: z.ZodType<PortalMeDto> = z.object({
  name: z.string(),
  email: z.string().nullable(),
  company: z.string(),
});

export const PortalUnitDtoSchema: z.ZodType<PortalUnitDto> = z.object({
  id: z.number().int(),
  number: z.string().nullable(),
  type: z.string(),
  order: z.string().nullable(),
  warehouse: z.string().nullable(),
  since: z.string(),
});

export const PortalInvoicesDtoSchema: z.ZodType<PortalInvoicesDto> = z.object({
  currency: z.string(),
  locale: z.string(),
  balance: z.number(),
  invoices: z.array(
    z.object({
      id: z.number().int(),
      number: z.number().int().nullable(),
      status: z.string(),
      issueDate: z.string().nullable(),
      dueDate: z.string().nullable(),
      total: z.number(),
      open: z.number(),
    }),
  ),
});
