import type { PrintVaultDto } from '@domain/rules/print-order';
import { downloadFile } from '../../lib/api-client';

export const XLSX_FILE_NAME = 'vaults.xlsx';

/**
 * Saves the list as vaults.xlsx: the server writes the workbook (the same columns as the CSV) for exactly the vaults
 * shown, in their order, so the filters and the order are the ones on screen.
 */
export function downloadVaultsXlsx(vaults: readonly PrintVaultDto[]): Promise<void> {
  return downloadFile('/api/export/print-vaults.xlsx', XLSX_FILE_NAME, { ids: vaults.map((v) => v.id) });
}
