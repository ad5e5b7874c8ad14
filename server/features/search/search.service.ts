import { parseFieldName, fieldName } from '@domain/rules/field-names';
import {
  SEARCH_DEFAULT_LIMIT,
  type SearchAnswerDto,
  type SearchHitDto,
  type SearchQuery,
} from '@domain/schemas/search.schema';
import type { Db } from '../../db/database';
import {
  findFieldHits,
  findOwnerHits,
  findPalletHits,
  findVaultHits,
  palletSpread,
  vaultSpread,
} from './search.repo';
import { presentOwnerHit, presentVaultHit } from './search.presenter';

/** The name a hit is found by, to put exact matches first. */
function hitName(hit: SearchHitDto): string {
  if (hit.kind === 'pallet') return hit.name ?? hit.palletNumber ?? '';
  return hit.name ?? '';
}

/**
 * GET /api/search: fields, vaults, customers, orders and pallets of the signed-in user's company whose name begins
 * with the text (customers and orders also by a word of it), each with where it is. Exact names come first, then
 * the kinds in that order; at most `limit` hits, and whether there are more.
 */
export async function searchCompany(db: Db, companyId: number, query: SearchQuery): Promise<SearchAnswerDto> {
  const limit = query.limit ?? SEARCH_DEFAULT_LIMIT;
  const term = query.q;
  // one more than asked of each kind tells whether there is more
  const take = limit + 1;
  const place = parseFieldName(term);
  const [fields, vaults, customers, orders, pallets] = await Promise.all([
    place ? findFieldHits(db, companyId, place, take) : Promise.resolve([]),
    findVaultHits(db, companyId, term, take),
    findOwnerHits(db, 'customers', companyId, term, take),
    findOwnerHits(db, 'orders', companyId, term, take),
    findPalletHits(db, companyId, term, take),
  ]);
  const customerIds = customers.map((c) => c.id);
  const [customerVaults, customerPallets, orderVaults] = await Promise.all([
    vaultSpread(db, companyId, 'customer_id', customerIds),
    palletSpread(db, companyId, customerIds),
    vaultSpread(
      db,
      companyId,
      'order_id',
      orders.map((o) => o.id),
    ),
  ]);

  const hits: SearchHitDto[] = [
    ...fields.map((f): SearchHitDto => ({
      kind: 'field',
      id: f.id,
      name: fieldName(f.col, f.row),
      warehouse: { id: f.warehouse_id, name: f.warehouse_name, slug: f.warehouse_slug },
      vaults: Number(f.vaults ?? 0),
      full: Boolean(f.full),
    })),
    ...vaults.map(presentVaultHit),
    ...customers.map((c) => presentOwnerHit('customer', c, customerVaults, customerPallets)),
    ...orders.map((o) => presentOwnerHit('order', o, orderVaults, [])),
    ...pallets.map((p): SearchHitDto => ({
      kind: 'pallet',
      id: p.id,
      name: p.name,
      palletNumber: p.pallet_number,
      customerName: p.customer_name,
      warehouse: { id: p.warehouse_id, name: p.warehouse_name, slug: p.warehouse_slug },
      rackId: p.rack_id,
      rackName: p.rack_name,
      shelf: p.shelf,
    })),
  ];
  const lower = term.toLowerCase();
  const exact = (hit: SearchHitDto) => hitName(hit).toLowerCase() === lower;
  // a stable sort keeps the kinds' order within exact and other hits
  const ranked = [...hits.filter(exact), ...hits.filter((hit) => !exact(hit))];
  return { hits: ranked.slice(0, limit), more: ranked.length > limit };
}
