import { saveFile } from '../../lib/save-file';
import { toCsv } from '@domain/rules/csv';
import { PRINT_CSV_HEADER, type PrintVaultDto, printCsvRow } from '@domain/rules/print-order';

export const CSV_FILE_NAME = 'vaults.csv';

/** The CSV text of the list, starting with a byte-order mark so spreadsheet programs read it as UTF-8. */
export function vaultsCsv(vaults: readonly PrintVaultDto[]): string {
  return `\uFEFF${toCsv(PRINT_CSV_HEADER, vaults.map(printCsvRow))}`;
}

/** Saves the list as vaults.csv through the browser's download. */
export function downloadVaultsCsv(vaults: readonly PrintVaultDto[]): void {
  saveFile(new Blob([vaultsCsv(vaults)], { type: 'text/csv;charset=utf-8' }), CSV_FILE_NAME);
}
