import type { FieldDto, VaultDto } from '@domain/schemas/warehouse.schema';
import { digOutCounts } from '@domain/rules/dig-out';
import { fieldName } from '@domain/rules/field-names';
import type { FieldRow } from './fields.repo';

export function presentField(row: FieldRow, vaults: VaultDto[]): FieldDto {
  const byId: Record<number, VaultDto> = {};
  const digOut = digOutCounts(vaults);
  for (const vault of vaults) {
    vault.dig_out = digOut.get(vault.id) ?? null;
    byId[vault.id] = vault;
  }
  return {
    id: row.id,
    name: fieldName(row.col, row.row),
    type: row.type,
    full: Boolean(row.full),
    warehouse_id: row.warehouse_id,
    vaults: byId,
  };
}
