import { z } from 'zod';
import type { PlanRole } from '../rules/pull-plan';
import { intFrom, optionalText, rowId, safeName, safeText } from './form-values';

/** POST /api/pull-lists: the vaults of one order, or of one customer. */
export const CreatePullListSchema = z
  .object({
    order_name: safeName('Order number', optionalText('Order number', 50)),
    customer_name: safeName('Customer name', optionalText('Customer name', 100)),
  })
  .superRefine((v, ctx) => {
    if (!v.order_name === !v.customer_name)
      ctx.addIssue({ code: 'custom', message: 'Give either an order number or a customer name.' });
  });
export type CreatePullListInput = z.infer<typeof CreatePullListSchema>;

export const PULL_ACTIONS = ['pulled', 'set-aside', 'put-back'] as const;
export type PullAction = (typeof PULL_ACTIONS)[number];

/**
 * POST /api/pull-lists/{id}/steps: 'pulled' stages a vault of the list, 'set-aside' stages a vault in the way,
 * 'put-back' returns a set-aside vault to its field (or to the field_id the user picks) at the field's next free slot;
 * a position, when given, must be that slot (the slot rules), so a slot picked on a stale screen is refused.
 */
export const PullStepSchema = z
  .object({
    vault_id: rowId('vault_id'),
    action: z.enum(PULL_ACTIONS, { error: 'Action must be pulled, set-aside or put-back.' }),
    field_id: rowId('field_id').optional(),
    position: intFrom('Position', 1, 100).optional(),
    // a Manager's reason to pull a unit of an account on hold (issue 28, decision 039)
    override_reason: safeText('Override reason', optionalText('Override reason', 200)),
  })
  .superRefine((v, ctx) => {
    if ((v.field_id !== undefined || v.position !== undefined) && v.action !== 'put-back')
      ctx.addIssue({ code: 'custom', message: 'Only a put-back takes a field or a position.' });
    if (v.position !== undefined && v.field_id === undefined)
      ctx.addIssue({ code: 'custom', message: 'A position needs the field it is in.' });
  });
export type PullStepInput = z.infer<typeof PullStepSchema>;

/** POST /api/pull-lists/{id}/release: a Manager's reason, needed when a unit of the list is on hold (decision 039). */
export const ReleasePullListSchema = z
  .object({ override_reason: safeText('Override reason', optionalText('Override reason', 200)) })
  .optional()
  .transform((v) => v ?? {});
export type ReleasePullListInput = z.infer<typeof ReleasePullListSchema>;

/** Where a vault of a pull list is now. */
export type PullVaultState = 'in-field' | 'on-stage' | 'released';

export interface PullListVaultDto {
  id: number;
  name: string | null;
  customer_name: string;
  order_name: string | null;
  type: string;
  state: PullVaultState;
  warehouse_id: number | null;
  warehouse_name: string | null;
  field_id: number | null;
  field_name: string | null;
  position: number | null;
  /** vaults above it in its field; null when it is not in a field */
  dig_out: number | null;
  /** who pulled it with this list, when it was */
  pulled_by: string | null;
  released_at: string | null;
  released_by: string | null;
}

export interface PullStepDto {
  vault_id: number;
  name: string | null;
  customer_name: string;
  position: number;
  role: PlanRole;
}

export interface PullPlanFieldDto {
  field_id: number;
  field_name: string;
  warehouse_id: number;
  warehouse_name: string;
  steps: PullStepDto[];
}

/** A vault set aside while working the list, and where it goes back. */
export interface SetAsideVaultDto {
  vault_id: number;
  name: string | null;
  customer_name: string;
  /** 'vault', 'liftvan', 't2' or 'couchbox': where it may go back (a couchbox only into a couchbox field) */
  type: string;
  /** 'set-aside': on the stage, waiting to go back; 'put-back': back in a field */
  state: 'set-aside' | 'put-back';
  from_warehouse_id: number | null;
  from_field_id: number | null;
  from_field_name: string | null;
  from_warehouse_name: string | null;
  from_position: number | null;
  done_by: string | null;
}

export interface PullListDto {
  id: number;
  title: string;
  customer_name: string | null;
  order_name: string | null;
  created_at: string;
  created_by: string | null;
  released_at: string | null;
  released_by: string | null;
  version: number;
  vaults: PullListVaultDto[];
  /** the work left: fields in walking order with the vaults to take off, top-down */
  plan: PullPlanFieldDto[];
  /**
   * vault handlings still needed (the least possible): each vault the plan takes off, each vault in the way once more
   * to go back, and each vault already set aside to go back; `in_the_way`: the plan's vaults only in the way
   */
  handlings: number;
  in_the_way: number;
  set_aside: SetAsideVaultDto[];
  /** the customer's request this list was made for (issue 29): its load-out check is on the dock */
  request_id?: number | null;
}

export interface PullListSummaryDto {
  id: number;
  title: string;
  created_at: string;
  created_by: string | null;
  released_at: string | null;
  vault_count: number;
  /** vaults of the list still in a field */
  left_in_fields: number;
}

/** GET /api/released-vaults?q=: the company's released vaults whose number, customer or order contains q. */
export const ReleasedVaultQuerySchema = z.object({
  q: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string({ error: 'Type what to search for.' })
      .min(1, 'Type what to search for.')
      .max(100, 'Search text must be at most 100 characters.'),
  ),
});
export type ReleasedVaultQuery = z.infer<typeof ReleasedVaultQuerySchema>;

/** A vault that left the warehouse, as search finds it: released when and by whom. */
export interface ReleasedVaultDto {
  id: number;
  name: string | null;
  customer_name: string;
  order_name: string | null;
  released_at: string;
  released_by: string | null;
}

// Answer schemas (decision 045), typed to the DTOs.
const PullListVaultDtoSchema: z.ZodType<PullListVaultDto> = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  customer_name: z.string(),
  order_name: z.string().nullable(),
  type: z.string(),
  state: z.enum(['in-field', 'on-stage', 'released']),
  warehouse_id: z.number().int().nullable(),
  warehouse_name: z.string().nullable(),
  field_id: z.number().int().nullable(),
  field_name: z.string().nullable(),
  position: z.number().int().nullable(),
  dig_out: z.number().int().nullable(),
  pulled_by: z.string().nullable(),
  released_at: z.string().nullable(),
  released_by: z.string().nullable(),
});

const PullPlanFieldDtoSchema: z.ZodType<PullPlanFieldDto> = z.object({
  field_id: z.number().int(),
  field_name: z.string(),
  warehouse_id: z.number().int(),
  warehouse_name: z.string(),
  steps: z.array(
    z.object({
      vault_id: z.number().int(),
      name: z.string().nullable(),
      customer_name: z.string(),
      position: z.number().int(),
      role: z.enum(['pull', 'in-the-way']),
    }),
  ),
});

const SetAsideVaultDtoSchema: z.ZodType<SetAsideVaultDto> = z.object({
  vault_id: z.number().int(),
  name: z.string().nullable(),
  customer_name: z.string(),
  type: z.string(),
  state: z.enum(['set-aside', 'put-back']),
  from_warehouse_id: z.number().int().nullable(),
  from_field_id: z.number().int().nullable(),
  from_field_name: z.string().nullable(),
  from_warehouse_name: z.string().nullable(),
  from_position: z.number().int().nullable(),
  done_by: z.string().nullable(),
});

export const PullListDtoSchema: z.ZodType<PullListDto> = z.object({
  id: z.number().int(),
  title: z.string(),
  customer_name: z.string().nullable(),
  order_name: z.string().nullable(),
  created_at: z.string(),
  created_by: z.string().nullable(),
  released_at: z.string().nullable(),
  released_by: z.string().nullable(),
  version: z.number().int(),
  vaults: z.array(PullListVaultDtoSchema),
  plan: z.array(PullPlanFieldDtoSchema),
  handlings: z.number().int(),
  in_the_way: z.number().int(),
  set_aside: z.array(SetAsideVaultDtoSchema),
});

export const PullListSummaryDtoSchema: z.ZodType<PullListSummaryDto> = z.object({
  id: z.number().int(),
  title: z.string(),
  created_at: z.string(),
  created_by: z.string().nullable(),
  released_at: z.string().nullable(),
  vault_count: z.number().int(),
  left_in_fields: z.number().int(),
});

export const ReleasedVaultDtoSchema: z.ZodType<ReleasedVaultDto> = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  customer_name: z.string(),
  order_name: z.string().nullable(),
  released_at: z.string(),
  released_by: z.string().nullable(),
});
