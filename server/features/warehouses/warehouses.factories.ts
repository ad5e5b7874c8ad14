import type { WarehouseDto } from '@domain/schemas/warehouse.schema';
import { parseFieldName } from '@domain/rules/field-names';
import type { Db } from '../../db/database';
import { uniqueSuffix } from '../../db/factories';
import { systemActor } from '../../auth/actor';
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
