import type { PrintVaultDto } from '../../../../domain/rules/print-order';
import { ApiError, ConnectionError } from '../../lib/api-client';

export const XLSX_FILE_NAME = 'vaults.xlsx';

/**
 * Saves the list as vaults.xlsx: the server writes the workbook (the same columns as the CSV) for exactly the vaults
 * shown, in their order, so the filters and the order are the ones on screen.
 */
export async function downloadVaultsXlsx(vaults: readonly PrintVaultDto[]): Promise<void> {
  let response: Response;
  try {
    response = await fetch('/api/export/print-vaults.xlsx', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ids: vaults.map((v) => v.id) }),
    });
  } catch {
    throw new ConnectionError(false);
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { errors?: unknown } | null;
    throw new ApiError(
      response.status,
      Array.isArray(body?.errors) ? body.errors.map(String) : ['The download failed. Please try again.'],
    );
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = XLSX_FILE_NAME;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
