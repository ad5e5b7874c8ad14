import type { LabelFormat, PosterFormat } from '../../../domain/rules/label-sheets';
import { ApiError, ConnectionError } from '../lib/api-client';

async function failureOf(response: Response): Promise<ApiError> {
  let messages = [`Request failed (${response.status}).`];
  try {
    const body = (await response.json()) as { errors?: unknown };
    if (Array.isArray(body.errors)) messages = body.errors.map(String);
  } catch {
    // not JSON: keep the generic message
  }
  return new ApiError(response.status, messages);
}

/** Asks the server for a label PDF and saves it through the browser's download. */
async function downloadPdf(url: string, fileName: string, body?: Record<string, unknown>): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      credentials: 'same-origin',
      headers: body ? { 'Content-Type': 'application/json' } : undefined,
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new ConnectionError(false, true);
  }
  if (!response.ok) throw await failureOf(response);
  const href = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

export const downloadVaultLabels = (format: LabelFormat, vaultIds: number[]) =>
  downloadPdf('/api/labels/vaults', 'vault-labels.pdf', { format, vaultIds });

export const downloadFieldLabels = (
  format: LabelFormat,
  warehouseId: number,
  range: { from?: string; to?: string },
) => downloadPdf('/api/labels/fields', 'field-labels.pdf', { format, warehouseId, ...range });

export const checklistPosterUrl = (checklistId: number, format: PosterFormat) =>
  `/api/labels/checklist-poster/${checklistId}?format=${format}`;
