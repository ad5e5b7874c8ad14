import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { STAGED_FIELD_NAME, comparePrintOrder, sortForPrint } from '../../../domain/rules/print-order';
import type { Db } from '../../db/database';
import { type PrintPlace, presentPrintVault, printPlaceOf, printPlaces } from './print.presenter';
import {
  type PrintPageEnd,
  type PrintVaultRow,
  listFieldsForPrint,
  listVaultsForPrintPage,
} from './print.repo';

/** Rows read per query, and lines written per chunk of the answer; the event loop gets a turn between them. */
const PAGE_ROWS = 1000;
const CHUNK_LINES = 500;

/**
 * GET /api/vaults/all (issue 11): the company's vaults in print order as a JSON array, written in chunks.
 *
 * The rows are read page by page along the vaults' index; only compact keys are sorted, with the shared rule for
 * the places (SQL collations differ between the engines and know no "A2 before A10"), and the
 * answer is written a chunk at a time as the client takes it. So a request never holds the presented rows and the
 * whole JSON text at once, and other requests are served between its steps. The pages are separate reads: a vault
 * moved while they are read shows where it was when its page was read.
 */
export async function printListStream(db: Db, companyId: number): Promise<Readable> {
  const places = printPlaces(await listFieldsForPrint(db, companyId));
  const rows: PrintVaultRow[] = [];
  for (let after: PrintPageEnd | null = null; ;) {
    const page = await listVaultsForPrintPage(db, companyId, after, PAGE_ROWS);
    for (const row of page) rows.push(row);
    const last = page.at(-1);
    // a short page of placed vaults is the last one; a short page of staged ones is followed by the placed
    if (!last || (page.length < PAGE_ROWS && last.field_id !== null)) break;
    after = page.length < PAGE_ROWS ? { fieldId: 0, id: 0 } : { fieldId: last.field_id, id: last.id };
    await nextTurn();
  }
  return Readable.from(printChunks(rows, printOrder(rows, places), places), { objectMode: false });
}

/**
 * The print order of the rows, as indexes. The shared rule orders the places (warehouse, then field) once; then
 * each vault sorts on its place's rank and its position, numbers both (comparePositions on two numbers is their
 * difference, and staged vaults, all without one, keep the order they were read in: by id).
 */
function printOrder(rows: PrintVaultRow[], places: Map<number, PrintPlace>): Uint32Array {
  const used = new Map<number | null, { warehouse_name: string; field_name: string; position: null }>();
  for (const row of rows) {
    const place = printPlaceOf(row, places);
    const key = place ? row.field_id : null;
    if (!used.has(key))
      used.set(key, {
        warehouse_name: place?.warehouse_name ?? '',
        field_name: place?.field_name ?? STAGED_FIELD_NAME,
        position: null,
      });
  }
  const rank = new Map<number | null, number>();
  const sortedPlaces = sortForPrint([...used.entries()].map(([key, place]) => ({ ...place, key })));
  // places the rule cannot tell apart share a rank, so their vaults mix by position as the rule has them
  sortedPlaces.forEach((place, i) => {
    const previous = sortedPlaces[i - 1];
    const same = previous !== undefined && comparePrintOrder(previous, place) === 0;
    rank.set(place.key, same ? rank.get(previous.key)! : i);
  });
  const sortKey = new Float64Array(rows.length);
  rows.forEach((row, i) => {
    const placed = printPlaceOf(row, places) !== undefined;
    sortKey[i] = rank.get(placed ? row.field_id : null)! * 2 ** 32 + (placed ? Number(row.position) : 0);
  });
  const order = new Uint32Array(rows.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  return order.sort((a, b) => sortKey[a]! - sortKey[b]! || a - b);
}

async function* printChunks(
  rows: PrintVaultRow[],
  order: Uint32Array,
  places: Map<number, PrintPlace>,
): AsyncGenerator<string> {
  yield '[';
  for (let start = 0; start < order.length; start += CHUNK_LINES) {
    const lines: string[] = [];
    for (const index of order.subarray(start, start + CHUNK_LINES)) {
      const row = rows[index]!;
      lines.push(JSON.stringify(presentPrintVault(row, printPlaceOf(row, places))));
    }
    yield (start === 0 ? '' : ',') + lines.join(',');
    await nextTurn();
  }
  yield ']';
}
