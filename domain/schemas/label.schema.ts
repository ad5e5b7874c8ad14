import { z } from 'zod';
import { parseFieldName } from '../rules/field-names';
import { LABEL_FORMATS, POSTER_FORMATS } from '../rules/label-sheets';
import { rowId } from './form-values';

/** The most labels one PDF holds (a whole warehouse's vaults on sheets; more in several goes). */
export const MAX_LABELS = 5000;

const labelFormat = z.enum(LABEL_FORMATS, {
  error: `format must be one of ${LABEL_FORMATS.join(', ')}.`,
});
const fieldNameText = (label: string) =>
  z
    .string({ error: `${label} must be a field name such as B4.` })
    .trim()
    .toUpperCase()
    .refine((v) => parseFieldName(v) !== null, `${label} must be a field name such as B4.`);

/** POST /api/labels/vaults: labels for these vaults, in this order (Print Studio's filter or chosen vaults). */
export const VaultLabelsSchema = z.object({
  format: labelFormat,
  vaultIds: z
    .array(rowId('vaultIds'), { error: 'vaultIds must be a list of vault ids.' })
    .min(1, 'Choose at least one vault.')
    .max(MAX_LABELS, `At most ${MAX_LABELS} labels at once.`),
});
export type VaultLabelsInput = z.infer<typeof VaultLabelsSchema>;

/** POST /api/labels/fields: labels for a warehouse's fields, all or the block from one field to another. */
export const FieldLabelsSchema = z.object({
  format: labelFormat,
  warehouseId: rowId('warehouseId'),
  from: fieldNameText('from').optional(),
  to: fieldNameText('to').optional(),
});
export type FieldLabelsInput = z.infer<typeof FieldLabelsSchema>;

/** GET /api/labels/checklist-poster/{checklistId}?format=letter|a4 */
export const PosterQuerySchema = z.object({
  format: z
    .enum(POSTER_FORMATS, { error: `format must be one of ${POSTER_FORMATS.join(', ')}.` })
    .default('letter'),
});
