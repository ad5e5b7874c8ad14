import type { ChecklistDto } from '@domain/schemas/checklist.schema';
import type { RackDto } from '@domain/schemas/rack.schema';
import type { WarehouseDto, WarehouseSummaryDto } from '@domain/schemas/warehouse.schema';
import { fieldSlotCount, nextFreePosition } from '@domain/rules/capacity';
import { fieldName, parseFieldName } from '@domain/rules/field-names';

export interface ApiAnswer {
  status: number;
  body: unknown;
}

/** Sends one request as some caller (in-process or over HTTP) and answers the status and the parsed body. */
export type ApiCall = (method: string, url: string, payload?: unknown) => Promise<ApiAnswer>;

/** Real ids and names of one company, found through its own API, for requests that must name real things. */
export interface CompanyIds {
  companyId: number;
  /** the warehouse with the active checklist */
  warehouseId: number;
  warehouseName: string;
  /** a plain field holding vaults, with a free slot and a field below it */
  fieldId: number;
  fieldName: string;
  fieldBelowName: string;
  freePosition: number;
  /** the topmost vault of that field */
  placedVaultId: number;
  stagedVaultId: number;
  rackWarehouseId: number;
  rackId: number;
  shelfId: number;
  palletId: number;
  checklist: ChecklistDto;
}

async function ok<T>(call: ApiCall, method: string, url: string): Promise<T> {
  const answer = await call(method, url);
  if (answer.status !== 200)
    throw new Error(`${method} ${url} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}

export async function collectCompanyIds(call: ApiCall): Promise<CompanyIds> {
  const me = await ok<{ companyId: number }>(call, 'GET', '/api/auth/');
  const summaries = await ok<WarehouseSummaryDto[]>(call, 'GET', `/api/warehouse/company/${me.companyId}`);
  const checklists = await ok<ChecklistDto[]>(call, 'GET', '/api/checklists/');
  const checklist = checklists.find((c) => c.is_active);
  if (!checklist) throw new Error('the company has no active checklist');
  const home = summaries.find((w) => w.id === checklist.warehouse_id)!;
  const warehouse = await ok<WarehouseDto>(call, 'GET', `/api/warehouse/${home.id}`);

  const fields = Object.values(warehouse.fields);
  const byName = new Map(fields.map((f) => [f.name, f]));
  let chosen: { id: number; name: string; below: string; free: number; topmost: number } | undefined;
  for (const field of fields) {
    const place = parseFieldName(field.name);
    const below = place && byName.get(fieldName(place.col, place.row + 1));
    const vaults = Object.values(field.vaults);
    if (field.type !== 'vault' || field.full || !below || below.type !== 'vault' || vaults.length === 0)
      continue;
    const occupied = vaults.map((v) => v.position!);
    const free = nextFreePosition(occupied, fieldSlotCount(field.type, warehouse.field_capacity));
    if (free === null) continue;
    const topmost = vaults.reduce((top, v) => (v.position! < top.position! ? v : top));
    chosen = { id: field.id, name: field.name, below: below.name, free, topmost: topmost.id };
    break;
  }
  if (!chosen) throw new Error(`no field with vaults and a free slot in ${warehouse.name}`);

  const staged = await ok<Record<string, { id: number }>>(call, 'GET', '/api/stage/vaults');
  const stagedVault = Object.values(staged)[0];
  if (!stagedVault) throw new Error('the company has no staged vault');

  let rackPick: { warehouseId: number; rack: RackDto; shelfId: number; palletId: number } | undefined;
  for (const summary of summaries) {
    for (const rack of await ok<RackDto[]>(call, 'GET', `/api/racks/warehouse/${summary.id}`)) {
      const shelf = rack.shelves.find((s) => s.pallets.length > 0);
      if (shelf)
        rackPick ??= { warehouseId: summary.id, rack, shelfId: shelf.id, palletId: shelf.pallets[0]!.id };
    }
  }
  if (!rackPick) throw new Error('the company has no pallet on a rack');

  return {
    companyId: me.companyId,
    warehouseId: home.id,
    warehouseName: home.name,
    fieldId: chosen.id,
    fieldName: chosen.name,
    fieldBelowName: chosen.below,
    freePosition: chosen.free,
    placedVaultId: chosen.topmost,
    stagedVaultId: stagedVault.id,
    rackWarehouseId: rackPick.warehouseId,
    rackId: rackPick.rack.id,
    shelfId: rackPick.shelfId,
    palletId: rackPick.palletId,
    checklist,
  };
}
