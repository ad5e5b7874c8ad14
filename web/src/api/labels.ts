import type { LabelFormat, PosterFormat } from '@domain/rules/label-sheets';
import { downloadFile, fetchFile } from '../lib/api-client';

export const downloadVaultLabels = (format: LabelFormat, vaultIds: number[]) =>
  downloadFile('/api/labels/vaults', 'vault-labels.pdf', { format, vaultIds });

export const downloadFieldLabels = (
  format: LabelFormat,
  warehouseId: number,
  range: { from?: string; to?: string },
) => downloadFile('/api/labels/fields', 'field-labels.pdf', { format, warehouseId, ...range });

export const checklistPosterUrl = (checklistId: number, format: PosterFormat) =>
  `/api/labels/checklist-poster/${checklistId}?format=${format}`;

/** One vault's or one field's label as a PDF, to preview before it is printed or saved. */
export const fetchLabelPdf = (
  format: LabelFormat,
  what: { vaultId: number } | { warehouseId: number; field: string },
) =>
  'vaultId' in what
    ? fetchFile('/api/labels/vaults', { format, vaultIds: [what.vaultId] })
    : fetchFile('/api/labels/fields', {
        format,
        warehouseId: what.warehouseId,
        from: what.field,
        to: what.field,
      });
