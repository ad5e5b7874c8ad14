import { z } from 'zod';

export const ACTIVITY_PAGE_SIZE = 50;

/** The groups the Activity page filters by, after the thing an event is about; or an exact kind ('vault.moved'). */
export const ACTIVITY_KINDS = [
  'vault',
  'pallet',
  'warehouse',
  'field',
  'rack',
  'checklist',
  'member',
  'check',
] as const;

const id = (label: string) =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? undefined : Number(v)),
    z
      .number({ error: `${label} must be a number.` })
      .int(`${label} must be a number.`)
      .min(1)
      .max(2_147_483_647)
      .optional(),
  );
const day = (label: string) =>
  z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date like 2026-03-31.`)
      .refine((v) => !Number.isNaN(Date.parse(v)), `${label} must be a real date.`)
      .optional(),
  );

export const ActivityQuerySchema = z.object({
  warehouse: id('Warehouse'),
  member: id('Member'),
  kind: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .max(60)
      .regex(/^[a-z-]+(\.[a-z-]+)?$/, 'Kind is not one the history knows.')
      .optional(),
  ),
  from: day('From'),
  to: day('To'),
  /** a vault or pallet number, or a customer */
  q: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() || undefined : v),
    z.string().max(100, 'Search for at most 100 characters.').optional(),
  ),
  cursor: id('Cursor'),
});
export type ActivityQuery = z.infer<typeof ActivityQuerySchema>;

export interface ActivityItemDto {
  id: number;
  at: string;
  kind: string;
  entityType: string;
  entityId: number | null;
  userId: number | null;
  /** the member's name when it happened */
  actor: string | null;
  warehouseId: number | null;
  /** the warehouse's name when it happened */
  warehouse: string | null;
  subject: string | null;
  customer: string | null;
  /** the before/after and what changed, as recorded */
  details: unknown;
}

export interface ActivityPageDto {
  items: ActivityItemDto[];
  /** pass as `cursor` for the next, older page; null at the end */
  nextCursor: number | null;
  /** the company's members, for the member filter */
  members: { id: number; name: string }[];
  /** the company's warehouses and those it deleted (their history stays), for the warehouse filter */
  warehouses: { id: number; name: string; deleted: boolean }[];
}

// Answer schemas (decision 045), typed to the DTOs.
export const ActivityItemDtoSchema: z.ZodType<ActivityItemDto> = z.object({
  id: z.number().int(),
  at: z.string(),
  kind: z.string(),
  entityType: z.string(),
  entityId: z.number().int().nullable(),
  userId: z.number().int().nullable(),
  actor: z.string().nullable(),
  warehouseId: z.number().int().nullable(),
  warehouse: z.string().nullable(),
  subject: z.string().nullable(),
  customer: z.string().nullable(),
  details: z.unknown().describe('the before/after and what changed, as recorded'),
});

export const ActivityPageDtoSchema: z.ZodType<ActivityPageDto> = z.object({
  items: z.array(ActivityItemDtoSchema),
  nextCursor: z.number().int().nullable(),
  members: z.array(z.object({ id: z.number().int(), name: z.string() })),
  warehouses: z.array(z.object({ id: z.number().int(), name: z.string(), deleted: z.boolean() })),
});
