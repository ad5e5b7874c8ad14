import { z } from 'zod';
import type { PrintVaultDto } from '../rules/print-order';
import {
  AttachmentDtoSchema,
  type FieldDto,
  FieldDtoSchema,
  type VaultDto,
  type WarehouseSummaryDto,
  WarehouseSummaryDtoSchema,
  vaultDtoShape,
} from './warehouse.schema';
import { VAULT_TYPES } from '../rules/capacity';
import { placeholderKind } from '../rules/placeholders';
import { blankAsAbsent, customerName, intFrom, optionalText, rowId, safeName, safeText } from './form-values';

const vaultType = z.enum(VAULT_TYPES, { error: 'Type must be vault, liftvan, t2 or couchbox.' });
const vaultNumber = safeName('Vault number', optionalText('Vault number', 50));
const orderName = safeName('Order number', optionalText('Order number', 50));
const note = safeText('Note', optionalText('Note', 2000));

/** A real vault needs an order; a placeholder (its customer is a placeholder name) has none. */
function orderNeededUnlessPlaceholder(
  v: { customer_name: string; order_name?: string | null },
  ctx: z.RefinementCtx,
): void {
  if (placeholderKind(v.customer_name) === null && !v.order_name) {
    ctx.addIssue({ code: 'custom', path: ['order_name'], message: 'Order number is required.' });
  }
}

/** POST /api/vaults/ (form data): vault_id carries the vault number. */
export const AddVaultSchema = z
  .object({
    vault_id: vaultNumber,
    customer_name: customerName,
    order_name: orderName,
    type: z.preprocess(blankAsAbsent, vaultType.default('vault')),
    note,
    field_id: rowId('field_id'),
    position: intFrom('position', 1, 11),
    company_id: z.unknown().optional(),
  })
  .superRefine(orderNeededUnlessPlaceholder);
export type AddVaultInput = z.infer<typeof AddVaultSchema>;

/** PUT /api/vaults/{id}: the edited vault. */
export const UpdateVaultSchema = z
  .object({
    name: vaultNumber,
    customer_name: customerName,
    order_name: orderName,
    note,
    type: z.preprocess(blankAsAbsent, vaultType.optional()),
    version: rowId('version').optional(),
    attachments: z.array(z.unknown()).optional(),
  })
  .superRefine(orderNeededUnlessPlaceholder);
export type UpdateVaultInput = z.infer<typeof UpdateVaultSchema>;

/**
 * Where a tablet saw a vault when it decided a change (issue 30): its field and slot, or both null for the stage.
 * A change sent later from a queue carries it, and the server refuses the change (409) when the vault is elsewhere now.
 */
export const VaultBasisSchema = z.object({
  fieldId: rowId('basis.fieldId').nullable(),
  position: intFrom('basis.position', 1, 11).nullable(),
});
export type VaultBasis = z.infer<typeof VaultBasisSchema>;

export const MoveVaultSchema = z.object({
  vaultId: rowId('vaultId'),
  fieldId: rowId('fieldId'),
  position: intFrom('position', 1, 11),
  basis: VaultBasisSchema.optional(),
});
export type MoveVaultInput = z.infer<typeof MoveVaultSchema>;

/** The body of POST /api/stage/vaults/{id}: nothing, or the basis of a queued stage. */
export const StageVaultSchema = z.object({ basis: VaultBasisSchema.optional() });
export type StageVaultInput = z.infer<typeof StageVaultSchema>;

/** The answer of DELETE /api/vaults/{id}: where the vault was deleted from, with what changed there. */
export type DeleteVaultAnswer =
  | { deleteFrom: 'stage'; vaultId: number }
  | { deleteFrom: 'field'; vaultId: number; field: FieldDto; warehouse: WarehouseSummaryDto };

export interface StagedVaultDto {
  id: number;
  name: string | null;
  customer_name: string;
  order_name: string | null;
  type: string;
  note: string | null;
  /** when it came onto the stage (ISO time), from the event log; null when the log has no record */
  staged_at: string | null;
  /** the field it was taken from, named as it was then; null for a vault created on the stage */
  staged_from: { warehouse: string | null; field: string | null; position: number | null } | null;
}

// Answer schemas (decision 045), typed to the DTOs.
export const DeleteVaultAnswerSchema: z.ZodType<DeleteVaultAnswer> = z.discriminatedUnion('deleteFrom', [
  z.object({ deleteFrom: z.literal('stage'), vaultId: z.number().int() }),
  z.object({
    deleteFrom: z.literal('field'),
    vaultId: z.number().int(),
    field: FieldDtoSchema,
    warehouse: WarehouseSummaryDtoSchema,
  }),
]);

/** POST /api/stage/vaults/{id}: the staged vault and the field it was taken from. */
export const StagedVaultAnswerSchema: z.ZodType<VaultDto & { old_field_id: number }> = z.object({
  ...vaultDtoShape,
  old_field_id: z.number().int(),
});

export const StagedVaultDtoSchema: z.ZodType<StagedVaultDto> = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  customer_name: z.string(),
  order_name: z.string().nullable(),
  type: z.string(),
  note: z.string().nullable(),
  staged_at: z.string().nullable(),
  staged_from: z
    .object({
      warehouse: z.string().nullable(),
      field: z.string().nullable(),
      position: z.number().int().nullable(),
    })
    .nullable(),
});

export const AttachmentAnswerSchema = z.object({ attachment: AttachmentDtoSchema });
export const AttachmentDeletedAnswerSchema = z.object({
  attachmentId: z.number().int(),
  vaultId: z.number().int(),
});

/** One Print Studio line of GET /api/vaults/all. */
export const PrintVaultDtoSchema: z.ZodType<PrintVaultDto> = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  customer_name: z.string(),
  type: z.string(),
  position: z.number().int().nullable(),
  field_name: z.string(),
  warehouse_name: z.string(),
  note: z.string().nullable(),
});

/** The form of POST /api/vaults/upload (multipart): the vault and its file. */
export const UploadAttachmentFormSchema = z.object({
  vault_id: z.number().int().describe("the vault's id"),
  attachment: z.string().describe('the file, at most 5 MB'),
});
