import type { LabelFormat, PosterFormat } from '../../../domain/rules/label-sheets';
import { downloadFile } from '../lib/api-client';

export const downloadVaultLabels = (format: LabelFormat, vaultIds: number[]) =>
  downloadFile('/api/labels/vaults', 'vault-labels.pdf', { format, vaultIds });

export const downloadFieldLabels = (
  format: LabelFormat,
  warehouseId: number,
  range: { from?: string; to?: string },
) => downloadFile('/api/labels/fields', 'field-labels.pdf', { format, warehouseId, ...range });

export const checklistPosterUrl = (checklistId: number, format: PosterFormat) =>
  `/api/labels/checklist-poster/${checklistId}?format=${format}`;
