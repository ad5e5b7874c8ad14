import type { WarehouseSummaryDto } from '@domain/schemas/warehouse.schema';

export interface StatisticsRow {
  metric: string;
  value: number;
}

/** Spec 2.11 for one warehouse; potential spaces count every vault in the fields, placeholders included. */
export function statisticsRows(
  warehouse: Pick<WarehouseSummaryDto, 'warehouseCapacity' | 'stats'>,
): StatisticsRow[] {
  return [
    { metric: 'Number of Potential Spaces', value: warehouse.warehouseCapacity - warehouse.stats.vaultCount },
    { metric: 'Number of Empty Vaults', value: warehouse.stats.emptyVaultCount },
    { metric: 'Number of Empty Couchboxes', value: warehouse.stats.emptyCouchboxCount },
  ];
}
