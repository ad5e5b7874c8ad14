import { z } from 'zod';
import { isIsoDay } from '../billing/days';
import { INVOICE_STATUSES, type AgingBucket, type InvoiceStatus } from '../billing/ledger';
import { isCurrencyCode } from '../billing/money';
import { RATE_KINDS, UNIT_TYPES, type BillingUnitType, type RateKind } from '../billing/rates';
import { blankAsAbsent, intFrom, optionalText, rowId, safeName, safeText } from './form-values';

// Issue 28: storage accounts, rates, billing runs, invoices and payments. Amounts are integers of the currency's
// minor unit (cents); the web app turns what is typed into them with domain/billing/money.ts.

/** The largest amount one rate, payment or declared value may have (a 32-bit column on PostgreSQL). */
export const MAX_AMOUNT = 1_000_000_000;

const day = (label: string) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .refine(isIsoDay, `${label} must be a date (YYYY-MM-DD).`);

const amount = (label: string, min = 0) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ error: `${label} must be an amount in cents.` })
      .int(`${label} must be a whole number of cents.`)
      .min(min, min === 0 ? `${label} cannot be negative.` : `${label} must be more than zero.`)
      .max(MAX_AMOUNT, `${label} is too large.`),
  );

export const ACCOUNT_KINDS = ['permanent', 'sit'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];
export const BILLING_CYCLES = ['calendar', 'thirty-days'] as const;
export const SIT_PAYERS = ['customer', 'agency'] as const;
export const PAYMENT_METHODS = ['check', 'card', 'transfer', 'cash', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  check: 'Check',
  card: 'Card',
  transfer: 'Transfer',
  cash: 'Cash',
  other: 'Other',
};

/** How a payment reads on a statement or in the journal: "Check payment CHK 4100". */
export function paymentLine(method: string, reference: string | null | undefined): string {
  const label = PAYMENT_METHOD_LABELS[method as PaymentMethod] ?? method;
  return `${label} payment${reference ? ` ${reference}` : ''}`;
}

export const BillingSettingsSchema = z.object({
  currency: z
    .string({ error: 'Currency is required.' })
    .trim()
    .transform((s) => s.toUpperCase())
    .refine(isCurrencyCode, 'Currency must be a three-letter code such as USD or EUR.'),
  tax_basis_points: intFrom('Tax rate (basis points)', 0, 10_000),
  sit_days_default: intFrom('SIT days allowed', 1, 3650),
  payment_terms_days: intFrom('Payment terms', 0, 365),
  hold_after_days: intFrom('Days overdue before a hold', 1, 3650),
  /** the billing day's run issues invoices by itself (decision 051); absent: left as it is */
  auto_billing: z.boolean({ error: 'Automatic billing is on or off.' }).optional(),
});
export type BillingSettingsInput = z.input<typeof BillingSettingsSchema>;
export type BillingSettingsValues = z.output<typeof BillingSettingsSchema>;
export type BillingSettingsDto = Required<BillingSettingsValues>;

/** GET and PUT /api/billing/settings: the answer (decision 045, declared routes). */
export const BillingSettingsDtoSchema = z.object({
  currency: z.string(),
  tax_basis_points: z.number().int(),
  sit_days_default: z.number().int(),
  payment_terms_days: z.number().int(),
  hold_after_days: z.number().int(),
  auto_billing: z.boolean(),
});

const unitTypeMessage = `Unit type must be one of ${UNIT_TYPES.join(', ')}.`;

export const RateSchema = z
  .object({
    kind: z.enum(RATE_KINDS, { error: `Rate kind must be one of ${RATE_KINDS.join(', ')}.` }),
    unit_type: z.preprocess(blankAsAbsent, z.enum(UNIT_TYPES, { error: unitTypeMessage }).optional()),
    warehouse_id: z.preprocess(blankAsAbsent, rowId('Warehouse').optional()),
    account_id: z.preprocess(blankAsAbsent, rowId('Account').optional()),
    amount: amount('Rate'),
    effective_from: day('Effective from'),
  })
  .superRefine((rate, ctx) => {
    if (rate.kind === 'valuation' && rate.unit_type)
      ctx.addIssue({
        code: 'custom',
        path: ['unit_type'],
        message: 'A valuation rate is not per unit type.',
      });
    if (rate.kind !== 'valuation' && !rate.unit_type)
      ctx.addIssue({ code: 'custom', path: ['unit_type'], message: unitTypeMessage });
    if (rate.kind === 'valuation' && rate.warehouse_id)
      ctx.addIssue({
        code: 'custom',
        path: ['warehouse_id'],
        message: 'A valuation rate is not per warehouse.',
      });
  });
export type RateInput = z.input<typeof RateSchema>;

export interface RateDto {
  id: number;
  kind: RateKind;
  unit_type: BillingUnitType | null;
  warehouse_id: number | null;
  warehouse_name: string | null;
  account_id: number | null;
  amount: number;
  effective_from: string;
  created_by: string | null;
  /** in force on days issued invoices cover: it stays as it is (a new rate from a later day changes the price) */
  invoiced: boolean;
}

export const BILL_TO_BLANK = 'Bill to cannot be blank: enter the name the invoices are made out to.';

const accountFields = {
  kind: z.enum(ACCOUNT_KINDS, { error: 'Kind must be Permanent or SIT.' }),
  sit_authorization: safeName('Authorization number', optionalText('Authorization number', 60)),
  sit_payer: z.preprocess(blankAsAbsent, z.enum(SIT_PAYERS, { error: 'Who pays during SIT?' }).optional()),
  agency_name: safeName('Agency', optionalText('Agency', 100)),
  agency_reference: safeName('Agency reference', optionalText('Agency reference', 60)),
  sit_start: z.preprocess(blankAsAbsent, day('SIT start').optional()),
  sit_days_allowed: z.preprocess(blankAsAbsent, intFrom('SIT days allowed', 1, 3650).optional()),
  billing_cycle: z.preprocess(
    blankAsAbsent,
    z.enum(BILLING_CYCLES, { error: 'Billing day must be the calendar month or every 30 days.' }).optional(),
  ),
  // left out, the account is billed to its customer (or keeps its bill-to); given, it must name someone
  bill_to_name: safeName('Bill-to name', optionalText('Bill-to name', 100)).refine(
    (name) => name !== '',
    BILL_TO_BLANK,
  ),
  bill_to_address: safeText('Bill-to address', optionalText('Bill-to address', 500)),
  declared_value: z.preprocess(blankAsAbsent, amount('Declared value').optional()),
  note: safeText('Note', optionalText('Note', 1000)),
};

function sitRules(
  account: {
    kind?: AccountKind;
    sit_authorization?: string;
    sit_start?: string;
    sit_payer?: string;
    agency_name?: string;
  },
  ctx: z.RefinementCtx,
) {
  if (account.kind !== 'sit') return;
  if (!account.sit_authorization)
    ctx.addIssue({
      code: 'custom',
      path: ['sit_authorization'],
      message: 'A SIT account needs its authorization number.',
    });
  if (!account.sit_start)
    ctx.addIssue({ code: 'custom', path: ['sit_start'], message: 'A SIT account needs its SIT start date.' });
  if (account.sit_payer === 'agency' && !account.agency_name)
    ctx.addIssue({
      code: 'custom',
      path: ['agency_name'],
      message: 'Name the carrier or agency that pays during SIT.',
    });
}

export const CreateAccountSchema = z
  .object({
    order_ids: z
      .array(rowId('Order'), { error: 'Choose the orders of the account.' })
      .min(1, 'Choose at least one order.')
      .max(500, 'At most 500 orders at once.'),
    ...accountFields,
  })
  .superRefine(sitRules);
export type CreateAccountInput = z.input<typeof CreateAccountSchema>;

/** An account's terms without its orders: the account columns of a spreadsheet import (one account per order). */
export const AccountTermsSchema = z.object(accountFields).superRefine(sitRules);
export type AccountTermsValues = z.output<typeof AccountTermsSchema>;

export const UpdateAccountSchema = z
  .object({ ...accountFields, version: intFrom('Version', 1, MAX_AMOUNT) })
  .superRefine(sitRules);
export type UpdateAccountInput = z.input<typeof UpdateAccountSchema>;

/** One Permanent account per order, billed to the order's customer: for the "not billed" list. */
export const BulkAccountsSchema = z.object({
  order_ids: z
    .array(rowId('Order'), { error: 'Choose the orders.' })
    .min(1, 'Choose at least one order.')
    .max(5000, 'At most 5,000 orders at once.'),
});
export type BulkAccountsInput = z.input<typeof BulkAccountsSchema>;

export interface NotBilledOrderDto {
  order_id: number;
  order_name: string;
  customer_id: number;
  customer_name: string;
  units: number;
  move_in: string;
}

export interface AccountSummaryDto {
  id: number;
  customer_name: string;
  orders: string[];
  kind: AccountKind;
  bill_to_name: string;
  move_in: string | null;
  move_out: string | null;
  conversion_date: string | null;
  units: number;
  balance: number;
  on_hold: boolean;
  /** days the oldest unpaid invoice is past due (0: nothing past due) */
  days_overdue: number;
  /** overdue at least the company's "days overdue before a hold" and not on hold yet: a hold would be taken */
  may_hold: boolean;
}

export interface AccountHistoryDto {
  id: number;
  kind: string;
  detail: string;
  created_by: string | null;
  created_at: string;
}

export interface AccountDto extends AccountSummaryDto {
  customer_id: number;
  orders_detail: { id: number; name: string }[];
  sit_authorization: string | null;
  sit_payer: 'customer' | 'agency' | null;
  agency_name: string | null;
  agency_reference: string | null;
  sit_start: string | null;
  sit_days_allowed: number | null;
  converted_on: string | null;
  billing_cycle: (typeof BILLING_CYCLES)[number];
  bill_to_address: string | null;
  declared_value: number;
  note: string | null;
  version: number;
  history: AccountHistoryDto[];
  currency: string;
}

export const BillingRunSchema = z.object({
  period: z
    .string({ error: 'Choose the month to bill.' })
    .trim()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'The period must be a month (YYYY-MM).'),
});
export type BillingRunInput = z.input<typeof BillingRunSchema>;

export interface DraftLineDto {
  kind: RateKind;
  description: string;
  from: string;
  to: string;
  rate: number;
  amount: number;
  tax: number;
}

export interface DraftInvoiceDto {
  account_id: number;
  customer_name: string;
  bill_to_name: string;
  period_start: string;
  period_end: string;
  lines: DraftLineDto[];
  agency_lines: DraftLineDto[];
  subtotal: number;
  tax: number;
  total: number;
  problems: string[];
  /** already invoiced for this period: the run leaves it */
  already_issued: boolean;
}

export interface BillingRunDto {
  period: string;
  currency: string;
  dry_run: boolean;
  invoices: DraftInvoiceDto[];
  /** the invoices this run issued (none for a dry run) */
  issued: { id: number; number: number; account_id: number; total: number }[];
  total: number;
}

/** A line of an issued invoice; a credit note's lines are of kind `credit`. */
export interface InvoiceLineDto extends Omit<DraftLineDto, 'kind'> {
  kind: RateKind | 'credit';
  payer: 'customer' | 'agency';
}

export interface InvoiceDto {
  id: number;
  kind: 'invoice' | 'credit';
  number: number | null;
  status: InvoiceStatus;
  account_id: number;
  customer_name: string;
  bill_to_name: string;
  bill_to_address: string | null;
  period_start: string | null;
  period_end: string | null;
  issue_date: string | null;
  due_date: string | null;
  currency: string;
  subtotal: number;
  tax: number;
  total: number;
  paid: number;
  credited: number;
  open: number;
  credit_of: number | null;
  reason: string | null;
  lines?: InvoiceLineDto[];
}

export const InvoiceListQuerySchema = z.object({
  status: z.preprocess(
    blankAsAbsent,
    z.enum(INVOICE_STATUSES, { error: 'Unknown invoice status.' }).optional(),
  ),
  account_id: z.preprocess(blankAsAbsent, rowId('Account').optional()),
});

export const CreditNoteSchema = z.object({
  amount: z.preprocess(blankAsAbsent, amount('Credit amount', 1).optional()),
  reason: safeText(
    'Reason',
    z
      .string({ error: 'Give the reason for the credit note.' })
      .trim()
      .min(1, 'Give the reason for the credit note.')
      .max(500),
  ),
});
export type CreditNoteInput = z.input<typeof CreditNoteSchema>;

export const VoidInvoiceSchema = z.object({
  reason: safeText(
    'Reason',
    z.string({ error: 'Give the reason.' }).trim().min(1, 'Give the reason.').max(500),
  ),
});

export const PaymentSchema = z.object({
  account_id: rowId('Account'),
  paid_on: day('Payment date'),
  amount: amount('Payment', 1),
  method: z.enum(PAYMENT_METHODS, { error: `Method must be one of ${PAYMENT_METHODS.join(', ')}.` }),
  reference: safeName('Reference', optionalText('Reference', 100)),
  /** where the payment goes; oldest open invoice first when absent */
  allocations: z
    .array(z.object({ invoice_id: rowId('Invoice'), amount: amount('Allocated amount', 1) }))
    .max(200)
    .optional(),
});
export type PaymentInput = z.input<typeof PaymentSchema>;

export interface PaymentDto {
  id: number;
  account_id: number;
  customer_name: string;
  paid_on: string;
  amount: number;
  method: string;
  reference: string | null;
  allocations: { invoice_id: number; number: number | null; amount: number }[];
}

export interface StatementEntryDto {
  date: string;
  kind: 'invoice' | 'credit' | 'payment';
  reference: string;
  debit: number;
  credit: number;
  balance: number;
}

export interface StatementDto {
  account_id: number;
  customer_name: string;
  currency: string;
  entries: StatementEntryDto[];
  balance: number;
}

export interface AgingRowDto {
  account_id: number;
  customer_name: string;
  buckets: Record<AgingBucket, number>;
  total: number;
}

export interface AgingDto {
  as_of: string;
  currency: string;
  rows: AgingRowDto[];
  totals: Record<AgingBucket, number>;
  total: number;
}

export type CreateAccountValues = z.output<typeof CreateAccountSchema>;
export type UpdateAccountValues = z.output<typeof UpdateAccountSchema>;

/** GET /api/holds: the units of accounts on hold, for the badge (no amounts: every member reads it). */
export const HoldsDtoSchema = z.object({
  vault_ids: z.array(z.number().int()),
  pallet_ids: z.array(z.number().int()),
});
export type HoldsDto = z.infer<typeof HoldsDtoSchema>;

export interface UpcomingConversionDto {
  account_id: number;
  customer_name: string;
  conversion_date: string;
  days_left: number;
}

export interface WarehouseRevenueDto {
  warehouse_id: number | null;
  warehouse_name: string | null;
  units: number;
  monthly: number;
  unrated: number;
}

/** GET /api/billing/overview: the dashboard's card and the statistics' revenue, for the Office role and Managers. */
export interface BillingOverviewDto {
  as_of: string;
  currency: string;
  /** SIT accounts converting to Permanent in the next 30 days */
  upcoming_conversions: UpcomingConversionDto[];
  /** what is owed past its due date, and on how many accounts */
  overdue_total: number;
  overdue_accounts: number;
  /** accounts on hold, and accounts overdue enough to be put on hold but not on hold yet */
  on_hold: number;
  may_hold: number;
  hold_after_days: number;
  /** monthly recurring storage revenue per warehouse (null: units on the stage) */
  revenue: WarehouseRevenueDto[];
}

// The answers of the billing and storage-account routes (decision 045, declared routes): each typed with its DTO
// above so a presenter and its declaration cannot drift. Amounts are whole cents; days are YYYY-MM-DD text.

const cents = z.number().int();
const count = z.number().int();

export const NotBilledOrderDtoSchema: z.ZodType<NotBilledOrderDto> = z.object({
  order_id: count,
  order_name: z.string(),
  customer_id: count,
  customer_name: z.string(),
  units: count,
  move_in: z.string(),
});

const accountSummaryShape = {
  id: count,
  customer_name: z.string(),
  orders: z.array(z.string()),
  kind: z.enum(ACCOUNT_KINDS),
  bill_to_name: z.string(),
  move_in: z.string().nullable(),
  move_out: z.string().nullable(),
  conversion_date: z.string().nullable(),
  units: count,
  balance: cents,
  on_hold: z.boolean(),
  days_overdue: count,
  may_hold: z.boolean(),
};

export const AccountSummaryDtoSchema: z.ZodType<AccountSummaryDto> = z.object(accountSummaryShape);

const AccountHistoryDtoSchema: z.ZodType<AccountHistoryDto> = z.object({
  id: count,
  kind: z.string(),
  detail: z.string(),
  created_by: z.string().nullable(),
  created_at: z.string(),
});

export const AccountDtoSchema: z.ZodType<AccountDto> = z.object({
  ...accountSummaryShape,
  customer_id: count,
  orders_detail: z.array(z.object({ id: count, name: z.string() })),
  sit_authorization: z.string().nullable(),
  sit_payer: z.enum(SIT_PAYERS).nullable(),
  agency_name: z.string().nullable(),
  agency_reference: z.string().nullable(),
  sit_start: z.string().nullable(),
  sit_days_allowed: count.nullable(),
  converted_on: z.string().nullable(),
  billing_cycle: z.enum(BILLING_CYCLES),
  bill_to_address: z.string().nullable(),
  declared_value: cents,
  note: z.string().nullable(),
  version: count,
  history: z.array(AccountHistoryDtoSchema),
  currency: z.string(),
});

/** POST /api/storage-accounts/bulk: how many accounts were opened. */
export const BulkAccountsAnswerSchema = z.object({ created: count });

export const RateDtoSchema: z.ZodType<RateDto> = z.object({
  id: count,
  kind: z.enum(RATE_KINDS),
  unit_type: z.enum(UNIT_TYPES).nullable(),
  warehouse_id: count.nullable(),
  warehouse_name: z.string().nullable(),
  account_id: count.nullable(),
  amount: cents,
  effective_from: z.string(),
  created_by: z.string().nullable(),
  invoiced: z.boolean(),
});

const draftLineShape = {
  kind: z.enum(RATE_KINDS),
  description: z.string(),
  from: z.string(),
  to: z.string(),
  rate: cents,
  amount: cents,
  tax: cents,
};
const DraftLineDtoSchema: z.ZodType<DraftLineDto> = z.object(draftLineShape);

const DraftInvoiceDtoSchema: z.ZodType<DraftInvoiceDto> = z.object({
  account_id: count,
  customer_name: z.string(),
  bill_to_name: z.string(),
  period_start: z.string(),
  period_end: z.string(),
  lines: z.array(DraftLineDtoSchema),
  agency_lines: z.array(DraftLineDtoSchema),
  subtotal: cents,
  tax: cents,
  total: cents,
  problems: z.array(z.string()),
  already_issued: z.boolean(),
});

export const BillingRunDtoSchema: z.ZodType<BillingRunDto> = z.object({
  period: z.string(),
  currency: z.string(),
  dry_run: z.boolean(),
  invoices: z.array(DraftInvoiceDtoSchema),
  issued: z.array(z.object({ id: count, number: count, account_id: count, total: cents })),
  total: cents,
});

const InvoiceLineDtoSchema: z.ZodType<InvoiceLineDto> = z.object({
  ...draftLineShape,
  kind: z.enum([...RATE_KINDS, 'credit']),
  payer: z.enum(SIT_PAYERS),
});

export const InvoiceDtoSchema: z.ZodType<InvoiceDto> = z.object({
  id: count,
  kind: z.enum(['invoice', 'credit']),
  number: count.nullable(),
  status: z.enum(INVOICE_STATUSES),
  account_id: count,
  customer_name: z.string(),
  bill_to_name: z.string(),
  bill_to_address: z.string().nullable(),
  period_start: z.string().nullable(),
  period_end: z.string().nullable(),
  issue_date: z.string().nullable(),
  due_date: z.string().nullable(),
  currency: z.string(),
  subtotal: cents,
  tax: cents,
  total: cents,
  paid: cents,
  credited: cents,
  open: cents,
  credit_of: count.nullable(),
  reason: z.string().nullable(),
  lines: z.array(InvoiceLineDtoSchema).optional(),
});

export const PaymentDtoSchema: z.ZodType<PaymentDto> = z.object({
  id: count,
  account_id: count,
  customer_name: z.string(),
  paid_on: z.string(),
  amount: cents,
  method: z.string(),
  reference: z.string().nullable(),
  allocations: z.array(z.object({ invoice_id: count, number: count.nullable(), amount: cents })),
});

const StatementEntryDtoSchema: z.ZodType<StatementEntryDto> = z.object({
  date: z.string(),
  kind: z.enum(['invoice', 'credit', 'payment']),
  reference: z.string(),
  debit: cents,
  credit: cents,
  balance: cents,
});

export const StatementDtoSchema: z.ZodType<StatementDto> = z.object({
  account_id: count,
  customer_name: z.string(),
  currency: z.string(),
  entries: z.array(StatementEntryDtoSchema),
  balance: cents,
});

const agingBuckets = z.object({
  current: cents,
  '1-30': cents,
  '31-60': cents,
  '61-90': cents,
  'over-90': cents,
}) satisfies z.ZodType<Record<AgingBucket, number>>;

export const AgingDtoSchema: z.ZodType<AgingDto> = z.object({
  as_of: z.string(),
  currency: z.string(),
  rows: z.array(
    z.object({ account_id: count, customer_name: z.string(), buckets: agingBuckets, total: cents }),
  ),
  totals: agingBuckets,
  total: cents,
});

export const BillingOverviewDtoSchema: z.ZodType<BillingOverviewDto> = z.object({
  as_of: z.string(),
  currency: z.string(),
  upcoming_conversions: z.array(
    z.object({
      account_id: count,
      customer_name: z.string(),
      conversion_date: z.string(),
      days_left: count,
    }),
  ),
  overdue_total: cents,
  overdue_accounts: count,
  on_hold: count,
  may_hold: count,
  hold_after_days: count,
  revenue: z.array(
    z.object({
      warehouse_id: count.nullable(),
      warehouse_name: z.string().nullable(),
      units: count,
      monthly: cents,
      unrated: count,
    }),
  ),
});
