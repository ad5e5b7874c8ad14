import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { GridChangeDto } from '@domain/schemas/layout.schema';
import type {
  EditDimensionsInput,
  GridChangeSchema,
  WarehouseDto,
  WarehouseSummaryDto,
} from '@domain/schemas/warehouse.schema';
import { api } from '../lib/api-client';
import { refreshWarehouseData, warehouseQueries } from './warehouses';

export function useEditDimensions(warehouseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EditDimensionsInput) =>
      api.patch<WarehouseSummaryDto>(`/api/warehouse/${warehouseId}/edit-dimensions`, input),
    onSuccess: () => refreshWarehouseData(queryClient),
  });
}

/** Places the VAULTS block; the plan shows the new spot at once and goes back if the save fails. */
export function useMoveFieldGrid(warehouseId: number) {
  const queryClient = useQueryClient();
  const key = warehouseQueries.detail(warehouseId).queryKey;
  return useMutation({
    mutationFn: (location: { x: number; y: number }) =>
      api.put<{ fieldgridLocation: { x: number; y: number } }>(`/api/warehouse/${warehouseId}/field-grid`, {
        fieldgridLocation: location,
      }),
    onMutate: async (location) => {
      await queryClient.cancelQueries({ queryKey: key, exact: true });
      const previous = queryClient.getQueryData<WarehouseDto>(key);
      if (previous) queryClient.setQueryData<WarehouseDto>(key, { ...previous, fieldgridLocation: location });
      return { previous };
    },
    onError: (_error, _location, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSettled: () => refreshWarehouseData(queryClient),
  });
}

/** A grid change as the editor picks it; sent as the contract's GridChangeSchema form. */
export type GridChangeInput = Pick<z.input<typeof GridChangeSchema>, 'direction' | 'count'> & {
  operation: NonNullable<z.input<typeof GridChangeSchema>['operation']>;
};

/** Adds or removes columns (left, right) or rows (bottom); sent as form data, as the API describes it. */
export function useChangeGrid(warehouse: { id: number; rows: number; cols: number }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ direction, operation, count }: GridChangeInput) => {
      const form = new FormData();
      form.set('warehouse_id', String(warehouse.id));
      form.set('direction', direction);
      form.set('opperation', operation);
      form.set('warehouse_cols', String(warehouse.cols));
      form.set('warehouse_rows', String(warehouse.rows));
      form.set('count', String(count));
      return operation === 'plus'
        ? api.post<GridChangeDto>('/api/fields/', form)
        : api.delete<GridChangeDto>('/api/fields/', form);
    },
    onSettled: () => refreshWarehouseData(queryClient),
  });
}
