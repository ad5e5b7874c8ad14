import {
  type QueryClient,
  queryOptions,
  useMutation,
  useQueries,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { warehouseSlug } from '@domain/rules/text';
import type {
  AddWarehouseInput,
  FieldDto,
  FieldTypeSchema,
  WarehouseDto,
  WarehouseSummaryDto,
} from '@domain/schemas/warehouse.schema';
import type { z } from 'zod';
import { api } from '../lib/api-client';
import { invalidate } from './invalidate';
import { useSession } from './session';
import { getQuery } from './get-query';

/** Query options of warehouses: the company's list, one warehouse with its fields and vaults, one field. */
export const warehouseQueries = {
  /** every list of warehouses starts with this key */
  lists: ['warehouses'] as const,
  /** every warehouse detail (and its fields) starts with this key */
  details: ['warehouse'] as const,
  list: (companyId: number) =>
    queryOptions({
      queryKey: ['warehouses', companyId] as const,
      queryFn: () => api.get<WarehouseSummaryDto[]>(`/api/warehouse/company/${companyId}`),
      staleTime: 30_000,
    }),
  detail: (warehouseId: number) =>
    getQuery<WarehouseDto>(['warehouse', warehouseId], `/api/warehouse/${warehouseId}`),
  field: (warehouseId: number, fieldId: number) =>
    getQuery<FieldDto>(
      ['warehouse', warehouseId, 'field', fieldId],
      `/api/warehouse/${warehouseId}/${fieldId}`,
    ),
};

/** The company's warehouses (lean: no fields), loaded once a user is signed in. */
export function useWarehouses(companyId: number | undefined) {
  return useQuery({ ...warehouseQueries.list(companyId ?? 0), enabled: companyId !== undefined });
}

/**
 * The signed-in company's warehouse named by an address slug (`/warehouse/{slug}`), with the list it was found in:
 * `summary` is undefined while the list loads and for a slug no warehouse has.
 */
export function useWarehouseBySlug(slug: string) {
  const session = useSession();
  const warehouses = useWarehouses(session.data?.companyId);
  const wanted = warehouseSlug(slug);
  const summary = warehouses.data?.find((w) => w.slug === wanted);
  return { warehouses, summary };
}

/** One warehouse with its fields (keyed by id) and their vaults (keyed by id). */
export function useWarehouse(warehouseId: number | undefined) {
  return useQuery({ ...warehouseQueries.detail(warehouseId ?? 0), enabled: warehouseId !== undefined });
}

/** Several warehouses with their fields, for screens that look across warehouses (finding a vault, moving one). */
export function useWarehouseDetails(warehouseIds: readonly number[]) {
  return useQueries({ queries: warehouseIds.map((id) => warehouseQueries.detail(id)) });
}

/** Fresh data of one field; the warehouse's copy shows meanwhile so the panel never flashes empty. */
export function useField(
  warehouseId: number | undefined,
  fieldId: number | undefined,
  placeholder?: FieldDto,
) {
  return useQuery({
    ...warehouseQueries.field(warehouseId ?? 0, fieldId ?? 0),
    enabled: warehouseId !== undefined && fieldId !== undefined,
    placeholderData: placeholder,
  });
}

/**
 * Anything that changes vaults or fields can change a warehouse's grid, its counts on the dashboard,
 * the stage and the lists other screens show, so all of them are fetched again.
 */
export function refreshWarehouseData(queryClient: QueryClient) {
  return invalidate(queryClient, warehouseQueries.lists, warehouseQueries.details);
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
      queryClient.removeQueries({ queryKey: warehouseQueries.detail(warehouseId).queryKey });
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
