import { z } from 'zod';
import { rowId } from './form-values';
import { scanText } from './scan.schema';

/** The most fields one check may name (a warehouse of 50 x 50 fields). */
export const MAX_CHECK_FIELDS = 2_500;

/** POST /api/checks: a check of a whole warehouse, or of some of its fields. */
export const StartCheckSchema = z.object({
  warehouse_id: rowId('warehouse_id'),
  field_ids: z
    .array(rowId('field_ids'), { error: 'field_ids must be a list of field ids.' })
    .min(1, 'Choose at least one field, or leave the choice out to check the whole warehouse.')
    .max(MAX_CHECK_FIELDS, `A check covers at most ${MAX_CHECK_FIELDS} fields.`)
    .optional(),
});
export type StartCheckInput = z.infer<typeof StartCheckSchema>;

/**
 * POST /api/checks/{id}/scans: what a label says (or a field's name, when it was picked instead of scanned). A field
 * label opens that field; a vault label counts the vault as found in field_id, the field being checked.
 */
export const CheckScanSchema = z
  .object({
    text: scanText.optional(),
    /** a vault the check expects, counted by hand: one with no number or label to scan (an EMPTY placeholder) */
    vault_id: rowId('vault_id').optional(),
    field_id: rowId('field_id').optional(),
  })
  .refine((scan) => scan.text !== undefined || scan.vault_id !== undefined, {
    message: 'Scan a label or type what it says.',
    path: ['text'],
  })
  .refine((scan) => scan.text === undefined || scan.vault_id === undefined, {
    message: 'Send a scanned text or a vault, not both.',
    path: ['vault_id'],
  });
export type CheckScanInput = z.infer<typeof CheckScanSchema>;

export const CHECK_RESOLUTIONS = ['moved', 'searched'] as const;
export type CheckResolution = (typeof CHECK_RESOLUTIONS)[number];

/**
 * POST /api/checks/{id}/resolve: one discrepancy of a finished check, in one step. 'moved' puts an unexpected vault
 * into the field where it was found; 'searched' marks a missing vault as searched for.
 */
export const ResolveCheckSchema = z.object({
  vault_id: rowId('vault_id'),
  action: z.enum(CHECK_RESOLUTIONS, { error: 'Action must be moved or searched.' }),
});
export type ResolveCheckInput = z.infer<typeof ResolveCheckSchema>;

/** Whether the runtime knows this IANA time zone name. */
function knownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** GET /api/checks/{id}/report.pdf?tz=Europe/Berlin: the time zone the report's times are printed in. */
export const ReportQuerySchema = z.object({
  tz: z
    .string()
    .max(64)
    .refine(knownTimeZone, 'tz must be a time zone name such as Europe/Berlin.')
    .optional(),
});

/** One vault as a check sees it. */
export interface CheckVaultDto {
  id: number;
  name: string | null;
  customer_name: string;
  order_name: string | null;
  type: string;
  /**
   * the code of its label link (`/v/{code}`), so a tablet can count a label scanned offline (issue 30); null when the
   * vault has none yet, and in the kept report of a deleted warehouse
   */
  label_code: string | null;
  /** where the check expected it (null: in no covered field) */
  expected_field_id: number | null;
  expected_field_name: string | null;
  /** where it was found (null: not yet) */
  found_field_id: number | null;
  found_field_name: string | null;
  found_by: string | null;
  resolution: CheckResolution | null;
  resolved_by: string | null;
  resolved_at: string | null;
}

/**
 * A covered field: its vaults sorted into the columns of the check screen. A field nobody opened (scanned its label,
 * picked it or scanned a vault in it) is not checked: its expected vaults are `not_checked`, never `missing`.
 */
export interface CheckFieldDto {
  id: number;
  name: string;
  opened_by: string | null;
  opened_at: string | null;
  /** someone opened the field for checking; until then nothing in it counts as missing */
  checked: boolean;
  expected: number;
  /** expected here and found here */
  found: CheckVaultDto[];
  /** the field was checked: expected here, not found here (yet) */
  missing: CheckVaultDto[];
  /** the field was not checked: expected here and not found anywhere else */
  not_checked: CheckVaultDto[];
  /** found here, expected elsewhere or nowhere */
  unexpected: CheckVaultDto[];
}

export interface CheckSummaryDto {
  id: number;
  warehouse_id: number;
  warehouse_name: string;
  started_by: string | null;
  started_at: string;
  finished_by: string | null;
  finished_at: string | null;
  /** given up before it was finished: no report of discrepancies */
  cancelled_by: string | null;
  cancelled_at: string | null;
  /** the warehouse was deleted then; the report is kept as it stood (read-only) */
  warehouse_deleted_at: string | null;
  field_count: number;
  /** covered fields someone opened */
  checked_count: number;
}

export interface CheckDto extends CheckSummaryDto {
  version: number;
  fields: CheckFieldDto[];
  /** the missing (in checked fields) and unexpected vaults, each once */
  discrepancies: number;
  unresolved: number;
}

export type CheckScanAnswer =
  | { kind: 'field'; field_id: number; field_name: string; check: CheckDto }
  | {
      kind: 'vault';
      field_id: number;
      vault: CheckVaultDto;
      /** 'found': expected here; 'unexpected': expected elsewhere or nowhere; 'again': this scan was already counted */
      result: 'found' | 'unexpected' | 'again';
      check: CheckDto;
    };

// Answer schemas (decision 045), typed to the DTOs.
const CheckVaultDtoSchema: z.ZodType<CheckVaultDto> = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  customer_name: z.string(),
  order_name: z.string().nullable(),
  type: z.string(),
  label_code: z.string().nullable(),
  expected_field_id: z.number().int().nullable(),
  expected_field_name: z.string().nullable(),
  found_field_id: z.number().int().nullable(),
  found_field_name: z.string().nullable(),
  found_by: z.string().nullable(),
  resolution: z.enum(CHECK_RESOLUTIONS).nullable(),
  resolved_by: z.string().nullable(),
  resolved_at: z.string().nullable(),
});

const CheckFieldDtoSchema: z.ZodType<CheckFieldDto> = z.object({
  id: z.number().int(),
  name: z.string(),
  opened_by: z.string().nullable(),
  opened_at: z.string().nullable(),
  checked: z.boolean(),
  expected: z.number().int(),
  found: z.array(CheckVaultDtoSchema),
  missing: z.array(CheckVaultDtoSchema),
  not_checked: z.array(CheckVaultDtoSchema),
  unexpected: z.array(CheckVaultDtoSchema),
});

const checkSummaryShape = {
  id: z.number().int(),
  warehouse_id: z.number().int(),
  warehouse_name: z.string(),
  started_by: z.string().nullable(),
  started_at: z.string(),
  finished_by: z.string().nullable(),
  finished_at: z.string().nullable(),
  cancelled_by: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  warehouse_deleted_at: z.string().nullable(),
  field_count: z.number().int(),
  checked_count: z.number().int(),
};

export const CheckSummaryDtoSchema: z.ZodType<CheckSummaryDto> = z.object(checkSummaryShape);

export const CheckDtoSchema: z.ZodType<CheckDto> = z.object({
  ...checkSummaryShape,
  version: z.number().int(),
  fields: z.array(CheckFieldDtoSchema),
  discrepancies: z.number().int(),
  unresolved: z.number().int(),
});

export const CheckScanAnswerSchema: z.ZodType<CheckScanAnswer> = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('field'),
    field_id: z.number().int(),
    field_name: z.string(),
    check: CheckDtoSchema,
  }),
  z.object({
    kind: z.literal('vault'),
    field_id: z.number().int(),
    vault: CheckVaultDtoSchema,
    result: z.enum(['found', 'unexpected', 'again']),
    check: CheckDtoSchema,
  }),
]);
