import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { STAGED_FIELD_NAME, comparePrintOrder, sortForPrint } from '@domain/rules/print-order';
import type { Db } from '../../db/database';
import { type PrintPlace, presentPrintVault, printPlaceOf, printPlaces } from './print.presenter';
import {
  type PrintKeyRow,
  type PrintPageEnd,
  listFieldsForPrint,
  listPrintKeysPage,
  listVaultsForPrint,
} from './print.repo';

/** Keys read per query, and lines read and written per chunk of the answer; other requests get a turn in between. */
const PAGE_ROWS = 2000;
const CHUNK_LINES = 500;

/**
 * GET /api/vaults/all (issue 11): the company's vaults in print order as a JSON array, written in chunks.
 *
 * First only where each vault stands (id, field, position) is read, page by page along the vaults' index, and sorted
 * as compact numbers: the shared rule orders the places (SQL collations differ between the engines and know no "A2
 * before A10"). Then the lines are read, presented and written a chunk at a time, as fast as the client takes them.
 * So a request holds a few numbers per vault, never all presented rows or the whole JSON text, and other requests
 * are served between its steps. The reads are separate: a vault deleted meanwhile is left out, and one moved
 * meanwhile is listed where it now stands, in the place in the order where it stood.
 */
export async function printListStream(db: Db, companyId: number): Promise<Readable> {
  const places = printPlaces(await listFieldsForPrint(db, companyId));
  const keys: PrintKeyRow[] = [];
  for (let after: PrintPageEnd | null = null; ;) {
    const page = await listPrintKeysPage(db, companyId, after, PAGE_ROWS);
    for (const key of page) keys.push(key);
    const last = page.at(-1);
    // a short page of placed vaults is the last one; a short page of staged ones is followed by the placed
    if (!last || (page.length < PAGE_ROWS && last.field_id !== null)) break;
    after = page.length < PAGE_ROWS ? { fieldId: 0, id: 0 } : { fieldId: last.field_id, id: last.id };
    await nextTurn();
  }
  const ids = printOrder(keys, places);
  return Readable.from(printChunks(db, companyId, ids, places), { objectMode: false });
}

/**
 * The vault ids in print order. The shared rule orders the places (warehouse, then field) once; then each vault
 * sorts on its place's rank and its position, both numbers (comparePositions on two numbers is their difference;
 * staged vaults, all without one, keep the order they were read in: by id).
 */
function printOrder(keys: PrintKeyRow[], places: Map<number, PrintPlace>): Uint32Array {
  const used = new Map<number | null, { warehouse_name: string; field_name: string; position: null }>();
  for (const key of keys) {
    const place = printPlaceOf(key, places);
    const at = place ? key.field_id : null;
    if (!used.has(at))
      used.set(at, {
        warehouse_name: place?.warehouse_name ?? '',
        field_name: place?.field_name ?? STAGED_FIELD_NAME,
        position: null,
      });
  }
  const rank = new Map<number | null, number>();
  const sortedPlaces = sortForPrint([...used.entries()].map(([at, place]) => ({ ...place, at })));
  // places the rule cannot tell apart share a rank, so their vaults mix by position as the rule has them
  sortedPlaces.forEach((place, i) => {
    const previous = sortedPlaces[i - 1];
    const same = previous !== undefined && comparePrintOrder(previous, place) === 0;
    rank.set(place.at, same ? rank.get(previous.at)! : i);
  });
  const sortKey = new Float64Array(keys.length);
  keys.forEach((key, i) => {
    const placed = printPlaceOf(key, places) !== undefined;
    sortKey[i] = rank.get(placed ? key.field_id : null)! * 2 ** 32 + (placed ? Number(key.position) : 0);
  });
  const order = new Uint32Array(keys.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  order.sort((a, b) => sortKey[a]! - sortKey[b]! || a - b);
  return order.map((i) => keys[i]!.id);
}

async function* printChunks(
  db: Db,
  companyId: number,
  ids: Uint32Array,
  places: Map<number, PrintPlace>,
): AsyncGenerator<string> {
  yield '[';
  let first = true;
  for (let start = 0; start < ids.length; start += CHUNK_LINES) {
    const chunk = ids.subarray(start, start + CHUNK_LINES);
    const rows = new Map((await listVaultsForPrint(db, companyId, [...chunk])).map((row) => [row.id, row]));
    const lines: string[] = [];
    for (const id of chunk) {
      const row = rows.get(id);
      if (row) lines.push(JSON.stringify(presentPrintVault(row, printPlaceOf(row, places))));
    }
    if (lines.length > 0) {
      yield (first ? '' : ',') + lines.join(',');
      first = false;
    }
    await nextTurn();
  }
  yield ']';
}
