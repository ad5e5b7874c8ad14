import { z } from 'zod';
import { MAX_SCAN_TEXT } from '../rules/scan-text';
import { rowId } from './form-values';
import { VaultBasisSchema } from './vault.schema';

/** What a label says, scanned or typed: every scan of the app reads it by this rule. */
export const scanText = z
  .string({ error: 'text is required.' })
  .trim()
  .min(1, 'Scan a label or type what it says.')
  .max(MAX_SCAN_TEXT, `A scan holds at most ${MAX_SCAN_TEXT} characters.`);

/** GET /api/scan?text=...&warehouseId=...: what a scanned label names (the warehouse gives "B4" its meaning). */
export const ScanQuerySchema = z.object({
  text: scanText,
  warehouseId: rowId('warehouseId').optional(),
});
export type ScanQuery = z.infer<typeof ScanQuerySchema>;

/** POST /api/scan/move: a scanned vault into a scanned field's next free slot. */
export const ScanMoveSchema = z.object({
  vaultId: rowId('vaultId'),
  fieldId: rowId('fieldId'),
  // where the tablet saw the vault, for a move sent later from its queue (issue 30)
  basis: VaultBasisSchema.optional(),
});
export type ScanMoveInput = z.infer<typeof ScanMoveSchema>;

/** Where a scanned vault stands. */
export interface ScannedVaultDto {
  id: number;
  name: string | null;
  customerName: string;
  orderName: string | null;
  type: string;
  /** null while staged */
  warehouseId: number | null;
  warehouseName: string | null;
  fieldId: number | null;
  fieldName: string | null;
  position: number | null;
  /** how many vaults stand above it in its field (0: it is the topmost) */
  above: number;
}

export interface ScannedFieldDto {
  id: number;
  name: string;
  warehouseId: number;
  warehouseName: string;
  type: string;
  full: boolean;
  vaultCount: number;
  /** the slot a vault moved in would take; null when the field is full */
  nextFree: number | null;
}

export type ScanAnswer =
  { kind: 'vault'; vault: ScannedVaultDto } | { kind: 'field'; field: ScannedFieldDto };

// Answer schemas (decision 045), typed to the DTOs.
export const ScannedVaultDtoSchema: z.ZodType<ScannedVaultDto> = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  customerName: z.string(),
  orderName: z.string().nullable(),
  type: z.string(),
  warehouseId: z.number().int().nullable(),
  warehouseName: z.string().nullable(),
  fieldId: z.number().int().nullable(),
  fieldName: z.string().nullable(),
  position: z.number().int().nullable(),
  above: z.number().int(),
});

const ScannedFieldDtoSchema: z.ZodType<ScannedFieldDto> = z.object({
  id: z.number().int(),
  name: z.string(),
  warehouseId: z.number().int(),
  warehouseName: z.string(),
  type: z.string(),
  full: z.boolean(),
  vaultCount: z.number().int(),
  nextFree: z.number().int().nullable(),
});

export const ScanAnswerSchema: z.ZodType<ScanAnswer> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('vault'), vault: ScannedVaultDtoSchema }),
  z.object({ kind: z.literal('field'), field: ScannedFieldDtoSchema }),
]);
