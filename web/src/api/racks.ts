import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { rackFootprint } from '@domain/rules/rack-placement';
import type { z } from 'zod';
import type {
  AddPalletSchema,
  AddRackInput,
  EditRackValues,
  MoveRackSchema,
  PalletDto,
  RackDto,
} from '@domain/schemas/rack.schema';
import { api } from '../lib/api-client';
import { holdsQuery } from './billing';
import { invalidate } from './invalidate';
import { getQuery } from './get-query';

export const rackQueries = {
  /** the warehouse's racks with shelves and pallets */
  list: (warehouseId: number) =>
    getQuery<RackDto[]>(['racks', warehouseId], `/api/racks/warehouse/${warehouseId}`),
};

/** The server's answer replaces the rack in its warehouse's list at once, before the list is fetched again. */
function showSavedRack(queryClient: QueryClient, rack: RackDto) {
  queryClient.setQueryData(rackQueries.list(rack.warehouseId).queryKey, (racks) =>
    racks?.map((r) => (r.id === rack.id ? rack : r)),
  );
}

/** The warehouse's racks with shelves and pallets. */
export function useRacks(warehouseId: number | undefined) {
  return useQuery({ ...rackQueries.list(warehouseId ?? 0), enabled: warehouseId !== undefined });
}

export function useAddRack(warehouseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AddRackInput) => api.post<RackDto>(`/api/racks/warehouse/${warehouseId}/add`, input),
    onSuccess: (rack) => {
      queryClient.setQueryData(rackQueries.list(warehouseId).queryKey, (racks) =>
        racks ? [...racks, rack] : [rack],
      );
    },
    onSettled: () => invalidate(queryClient, rackQueries.list(warehouseId).queryKey),
  });
}

/** A rack move as the editor holds it; sent as the contract's MoveRackSchema body. */
export type RackMove = { rackId: number; x: number; y: number } & Pick<
  z.input<typeof MoveRackSchema>,
  'orientation' | 'version'
>;

/** Moves the rack on screen at once, then saves; a refusal puts it back where it was. */
export function useMoveRack(warehouseId: number) {
  const queryClient = useQueryClient();
  const key = rackQueries.list(warehouseId).queryKey;
  return useMutation({
    mutationFn: ({ rackId, x, y, orientation, version }: RackMove) =>
      api.put<RackDto>(`/api/racks/${warehouseId}/rack/${rackId}`, {
        position: { x, y },
        orientation,
        version,
      }),
    onMutate: async (input) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData(key);
      queryClient.setQueryData(key, (racks) =>
        racks?.map((rack) => {
          if (rack.id !== input.rackId) return rack;
          const orientation = input.orientation ?? rack.orientation;
          return {
            ...rack,
            orientation,
            position: { x: input.x, y: input.y, ...rackFootprint({ ...rack, orientation }) },
          };
        }),
      );
      return { previous };
    },
    onError: (_error, _input, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: (rack) => showSavedRack(queryClient, rack),
    onSettled: () => invalidate(queryClient, key),
  });
}

export function useDeleteRack(warehouseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rackId: number) => api.delete<unknown>(`/api/racks/${warehouseId}/rack/${rackId}/delete`),
    onSettled: () => invalidate(queryClient, rackQueries.list(warehouseId).queryKey),
  });
}

/** The pallet's own fields of the add and edit bodies, from the contract. */
export type PalletFields = Pick<
  z.input<typeof AddPalletSchema>,
  'customer_name' | 'name' | 'pallet_number' | 'order_name' | 'notes' | 'weight'
>;

export function useAddPallet(warehouseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PalletFields & { shelf_id: number; slot_index: number; shelf_spots: number }) =>
      api.post<PalletDto>('/api/racks/pallets', { ...input }),
    onSuccess: () => invalidate(queryClient, rackQueries.list(warehouseId).queryKey),
  });
}

export function useEditPallet(warehouseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PalletFields & { id: number; pallet_spaces: number; version?: number }) =>
      api.put<PalletDto>(`/api/racks/pallets/${input.id}/edit`, { ...input }),
    onSuccess: () => invalidate(queryClient, rackQueries.list(warehouseId).queryKey),
  });
}

/** Moves a pallet to a shelf and slot of its warehouse; the server checks the space under the shelves' locks. */
export function useMovePallet(warehouseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      palletId,
      ...body
    }: {
      palletId: number;
      shelf_id: number;
      slot_index: number;
      version: number;
    }) => api.put<PalletDto>(`/api/racks/pallets/${palletId}/move`, body),
    onSuccess: () => invalidate(queryClient, rackQueries.list(warehouseId).queryKey),
  });
}

export function useDeletePallet(warehouseId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    // a pallet of an account on hold leaves only with a Manager's reason (decision 039)
    mutationFn: ({ palletId, overrideReason }: { palletId: number; overrideReason?: string }) =>
      api.delete<unknown>(
        `/api/pallets/${palletId}/delete${overrideReason ? `?override_reason=${encodeURIComponent(overrideReason)}` : ''}`,
      ),
    onSuccess: () => invalidate(queryClient, rackQueries.list(warehouseId).queryKey, holdsQuery().queryKey),
  });
}

/** Rack Info's edit (name, size, orientation, shelves, capacity); the server checks placement and pallets. */
export function useEditRack(warehouseId: number) {
  const queryClient = useQueryClient();
  const key = rackQueries.list(warehouseId).queryKey;
  return useMutation({
    mutationFn: ({ rackId, ...input }: EditRackValues & { rackId: number }) =>
      api.patch<RackDto>(`/api/racks/${warehouseId}/rack/${rackId}`, input),
    onSuccess: (rack) => showSavedRack(queryClient, rack),
    onSettled: () => invalidate(queryClient, key),
  });
}
