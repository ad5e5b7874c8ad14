import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { STAGED_FIELD_NAME, sortForPrint } from '../../../domain/rules/print-order';
import type { Db } from '../../db/database';
import { presentPrintVault, printPlaceOf, printPlaces } from './print.presenter';
import { type PrintVaultRow, listFieldsForPrint, listVaultsForPrintPage } from './print.repo';

/** Rows read per query, and lines written per chunk of the answer; the event loop gets a turn between them. */
const PAGE_ROWS = 1000;
const CHUNK_LINES = 500;

/**
 * GET /api/vaults/all (issue 11): the company's vaults in print order as a JSON array, written in chunks.
 *
 * The rows are read page by page (in id order, so vaults that sort alike keep that order); only the compact keys
 * are sorted, with the shared rule (SQL collations differ between the engines and know no "A2 before A10"), and the
 * answer is written a chunk at a time as the client takes it. So a request never holds the presented rows and the
 * whole JSON text at once, and other requests are served between its steps. The pages are separate reads: a vault
 * moved while they are read shows where it was when its page was read.
 */
export async function printListStream(db: Db, companyId: number): Promise<Readable> {
  const places = printPlaces(await listFieldsForPrint(db, companyId));
  const rows: PrintVaultRow[] = [];
  for (let afterId = 0; ;) {
    const page = await listVaultsForPrintPage(db, companyId, afterId, PAGE_ROWS);
    for (const row of page) rows.push(row);
    if (page.length < PAGE_ROWS) break;
    afterId = page[page.length - 1]!.id;
    await nextTurn();
  }
  const keys = rows.map((row, index) => {
    const place = printPlaceOf(row, places);
    return {
      index,
      warehouse_name: place?.warehouse_name ?? '',
      field_name: place?.field_name ?? STAGED_FIELD_NAME,
      position: place ? row.position : null,
    };
  });
  const order = sortForPrint(keys).map((key) => key.index);
  return Readable.from(printChunks(rows, order, places), { objectMode: false });
}

async function* printChunks(
  rows: PrintVaultRow[],
  order: number[],
  places: ReturnType<typeof printPlaces>,
): AsyncGenerator<string> {
  yield '[';
  for (let start = 0; start < order.length; start += CHUNK_LINES) {
    const lines: string[] = [];
    for (const index of order.slice(start, start + CHUNK_LINES)) {
      const row = rows[index]!;
      lines.push(JSON.stringify(presentPrintVault(row, printPlaceOf(row, places))));
    }
    yield (start === 0 ? '' : ',') + lines.join(',');
    await nextTurn();
  }
  yield ']';
}
