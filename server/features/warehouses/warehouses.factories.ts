import type { FieldDto, VaultDto, WarehouseDto } from '../../../domain/schemas/warehouse.schema';
import { fieldSlotCount, nextFreePosition, type VaultType } from '../../../domain/rules/capacity';
import { fieldName, parseFieldName } from '../../../domain/rules/field-names';
import type { Db } from '../../db/database';
import { uniqueSuffix } from '../../db/factories';
import { changeFieldFull, changeFieldType } from '../fields/fields.service';
import { findField } from '../fields/fields.repo';
import { occupiedPositions } from '../vaults/vaults.repo';
import { addVault, createStagedVault } from '../vaults/vaults.service';
import { systemActor } from '../../auth/actor';
import { findWarehouse } from './warehouses.repo';
import { createWarehouse } from './warehouses.service';

// Factories for the demo seed, API tests and browser tests: they go through the same services as the API.

export interface BuildWarehouseOptions {
  companyId: number;
  name?: string;
  rows?: number;
  cols?: number;
  fieldCapacity?: number;
  length?: number;
  width?: number;
  gridX?: number;
  gridY?: number;
}

export interface BuiltField {
  id: number;
  name: string;
  col: number;
  row: number;
}

export interface BuiltWarehouse {
  id: number;
  name: string;
  slug: string;
  /** every field in column order: A1..A{rows}, B1.. */
  fields: BuiltField[];
  /** a field by name, e.g. field('C4'); throws for a name the grid does not have */
  field(name: string): BuiltField;
  /** the whole warehouse as GET /api/warehouse/{id} answers it right after creation */
  dto: WarehouseDto;
}

/** A warehouse with its full field grid (defaults: 3 columns x 4 rows, capacity 3, 100 x 100 ft). */
export async function buildWarehouse(db: Db, options: BuildWarehouseOptions): Promise<BuiltWarehouse> {
  const dto = await createWarehouse(db, systemActor(options.companyId), {
    name: options.name ?? `Warehouse ${uniqueSuffix()}`,
    rows: options.rows ?? 4,
    cols: options.cols ?? 3,
    field_capacity: options.fieldCapacity ?? 3,
    length: options.length ?? 100,
    width: options.width ?? 100,
    gridX: options.gridX,
    gridY: options.gridY,
  });
  const fields = Object.values(dto.fields)
    .map((f) => ({ id: f.id, name: f.name, ...parseFieldName(f.name)! }))
    .sort((a, b) => a.col - b.col || a.row - b.row);
  const byName = new Map(fields.map((f) => [f.name, f]));
  return {
    id: dto.id,
    name: dto.name,
    slug: dto.slug,
    fields,
    field(name: string) {
      const found = byName.get(name);
      if (!found) throw new Error(`warehouse ${dto.name} has no field ${name}`);
      return found;
    },
    dto,
  };
}

export interface BuildVaultOptions {
  companyId: number;
  fieldId: number;
  /** a real customer by default; 'EMPTY VAULT', 'EMPTY LIFTVAN', ... make placeholders */
  customerName?: string;
  orderName?: string;
  /** the vault number */
  name?: string;
  type?: VaultType;
  note?: string;
}

/** A vault in the field's next free slot (the highest free position). */
export async function buildVault(db: Db, options: BuildVaultOptions): Promise<VaultDto> {
  const field = await findField(db, options.companyId, options.fieldId);
  if (!field) throw new Error(`field ${options.fieldId} is not in company ${options.companyId}`);
  const warehouse = await findWarehouse(db, options.companyId, field.warehouse_id);
  const occupied = (await occupiedPositions(db, field.id)).map((v) => v.position);
  const position = nextFreePosition(occupied, fieldSlotCount(field.type, warehouse?.field_capacity));
  if (position === null) throw new Error(`field ${fieldName(field.col, field.row)} is full`);
  const suffix = uniqueSuffix();
  return addVault(db, systemActor(options.companyId), {
    vault_id: options.name ?? `V-${suffix.slice(-6).toUpperCase()}`,
    customer_name: (options.customerName ?? `CUSTOMER ${suffix.toUpperCase()}`).toUpperCase(),
    order_name: options.orderName ?? `ORD-${suffix.slice(-5).toUpperCase()}`,
    type: options.type ?? 'vault',
    note: options.note,
    field_id: field.id,
    position,
  });
}

export interface BuildStagedVaultOptions {
  companyId: number;
  customerName?: string;
  orderName?: string;
  name?: string;
  type?: VaultType;
  note?: string;
}

/** A vault waiting on the stage (no field, no position). */
export async function buildStagedVault(db: Db, options: BuildStagedVaultOptions): Promise<VaultDto> {
  const suffix = uniqueSuffix();
  return createStagedVault(db, systemActor(options.companyId), {
    name: options.name ?? `S-${suffix.slice(-6).toUpperCase()}`,
    customer_name: (options.customerName ?? `CUSTOMER ${suffix.toUpperCase()}`).toUpperCase(),
    order_name: options.orderName ?? `ORD-${suffix.slice(-5).toUpperCase()}`,
    type: options.type,
    note: options.note,
  });
}

/** Makes the (empty) field a couchbox: it becomes couchbox-T and the field below couchbox-B. */
export async function makeCouchbox(
  db: Db,
  options: { companyId: number; fieldId: number },
): Promise<{ field1: FieldDto; field2: FieldDto | null }> {
  return changeFieldType(db, systemActor(options.companyId), options.fieldId, { type: 'couchbox' });
}

/** Marks a field full, as a user's 'Full' switch does: no vault is added or moved into it. */
export async function markFieldFull(
  db: Db,
  options: { companyId: number; fieldId: number },
): Promise<FieldDto> {
  return changeFieldFull(db, systemActor(options.companyId), options.fieldId, true);
}
