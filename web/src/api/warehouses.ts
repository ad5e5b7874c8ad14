import { useQuery } from '@tanstack/react-query';
import type { WarehouseSummaryDto } from '../../../domain/schemas/warehouse.schema';
import { api } from '../lib/api-client';

export const warehousesQueryKey = (companyId: number) => ['warehouses', companyId] as const;

/** The company's warehouses (lean: no fields), loaded once a user is signed in. */
export function useWarehouses(companyId: number | undefined) {
  return useQuery({
    queryKey: warehousesQueryKey(companyId ?? 0),
    queryFn: () => api.get<WarehouseSummaryDto[]>(`/api/warehouse/company/${companyId}`),
    enabled: companyId !== undefined,
    staleTime: 30_000,
  });
}
