import type { FieldDto, VaultDto } from '../../../domain/schemas/warehouse.schema';
import { fieldName } from '../../../domain/rules/field-names';
import type { FieldRow } from './fields.repo';

export function presentField(row: FieldRow, vaults: VaultDto[]): FieldDto {
  const byId: Record<number, VaultDto> = {};
  for (const vault of vaults) byId[vault.id] = vault;
  return {
    id: row.id,
    name: fieldName(row.col, row.row),
    type: row.type,
    full: Boolean(row.full),
    warehouse_id: row.warehouse_id,
    vaults: byId,
  };
}
