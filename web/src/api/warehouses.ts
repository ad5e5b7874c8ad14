import { type QueryClient, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AddWarehouseInput,
  FieldDto,
  FieldTypeSchema,
  WarehouseDto,
  WarehouseSummaryDto,
} from '../../../domain/schemas/warehouse.schema';
import type { z } from 'zod';
import { api } from '../lib/api-client';
import { useSession } from './session';

export const warehousesQueryKey = (companyId: number) => ['warehouses', companyId] as const;
export const warehouseQueryKey = (warehouseId: number) => ['warehouse', warehouseId] as const;
export const fieldQueryKey = (warehouseId: number, fieldId: number) =>
  ['warehouse', warehouseId, 'field', fieldId] as const;

/** The company's warehouses (lean: no fields), loaded once a user is signed in. */
export function useWarehouses(companyId: number | undefined) {
  return useQuery({
    queryKey: warehousesQueryKey(companyId ?? 0),
    queryFn: () => api.get<WarehouseSummaryDto[]>(`/api/warehouse/company/${companyId}`),
    enabled: companyId !== undefined,
    staleTime: 30_000,
  });
}

/**
 * The signed-in company's warehouse named by an address slug (`/warehouse/{slug}`), with the list it was found in:
 * `summary` is undefined while the list loads and for a slug no warehouse has.
 */
export function useWarehouseBySlug(slug: string) {
  const session = useSession();
  const warehouses = useWarehouses(session.data?.companyId);
  const wanted = slug.toLowerCase();
  const summary = warehouses.data?.find((w) => w.slug === wanted);
  return { warehouses, summary };
}

/** One warehouse with its fields (keyed by id) and their vaults (keyed by id). */
export function useWarehouse(warehouseId: number | undefined) {
  return useQuery({
    queryKey: warehouseQueryKey(warehouseId ?? 0),
    queryFn: () => api.get<WarehouseDto>(`/api/warehouse/${warehouseId}`),
    enabled: warehouseId !== undefined,
  });
}

/** Several warehouses with their fields, for screens that look across warehouses (finding a vault, moving one). */
export function useWarehouseDetails(warehouseIds: readonly number[]) {
  return useQueries({
    queries: warehouseIds.map((id) => ({
      queryKey: warehouseQueryKey(id),
      queryFn: () => api.get<WarehouseDto>(`/api/warehouse/${id}`),
    })),
  });
}

/** Fresh data of one field; the warehouse's copy shows meanwhile so the panel never flashes empty. */
export function useField(
  warehouseId: number | undefined,
  fieldId: number | undefined,
  placeholder?: FieldDto,
) {
  return useQuery({
    queryKey: fieldQueryKey(warehouseId ?? 0, fieldId ?? 0),
    queryFn: () => api.get<FieldDto>(`/api/warehouse/${warehouseId}/${fieldId}`),
    enabled: warehouseId !== undefined && fieldId !== undefined,
    placeholderData: placeholder,
  });
}

/**
 * Anything that changes vaults or fields can change a warehouse's grid, its counts on the dashboard,
 * the stage and the lists other screens show, so all of them are fetched again.
 */
export function refreshWarehouseData(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ['warehouses'] }),
    queryClient.invalidateQueries({ queryKey: ['warehouse'] }),
  ]);
}

export function useAddWarehouse() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AddWarehouseInput) => api.post<WarehouseDto>('/api/warehouse/add-warehouse', input),
    onSuccess: () => refreshWarehouseData(queryClient),
  });
}

export function useDeleteWarehouse() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (warehouseId: number) => api.delete<unknown>(`/api/warehouse/${warehouseId}`),
    onSuccess: (_answer, warehouseId) => {
      queryClient.removeQueries({ queryKey: warehouseQueryKey(warehouseId) });
      return refreshWarehouseData(queryClient);
    },
  });
}

/** The body of PATCH /api/fields/{id} from the contract (field2 names the field below, the hidden bottom half). */
export type SetFieldTypeInput = { fieldId: number } & z.input<typeof FieldTypeSchema>;

export function useSetFieldType() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ fieldId, warehouseId, type, field2 }: SetFieldTypeInput) =>
      api.patch<{ field1: FieldDto; field2: FieldDto }>(`/api/fields/${fieldId}`, {
        type,
        field2,
        warehouseId,
      }),
    onSettled: () => refreshWarehouseData(queryClient),
  });
}

export function useSetFieldFull() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ fieldId, full }: { fieldId: number; full: boolean }) =>
      api.patch<unknown>(`/api/fields/${fieldId}/full`, { full }),
    onSettled: () => refreshWarehouseData(queryClient),
  });
}
