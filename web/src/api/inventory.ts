import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  InventoryCodeDto,
  InventoryCodeInput,
  InventoryDto,
  InventoryItemDto,
  InventoryItemInput,
  InventoryItemUpdateInput,
  PortalInventoryDto,
} from '@domain/schemas/inventory.schema';
import type { SignatureKind } from '@domain/rules/inventory';
import { api, uploadWithProgress } from '../lib/api-client';
import { invalidate } from './invalidate';
import { getQuery } from './get-query';

/** Condition inventories (issue 29, decision 049): a unit's inventory, the company's codes, the portal's view. */
export const inventoryQueries = {
  all: ['inventory'] as const,
  ofUnit: (vaultId: number) =>
    getQuery<InventoryDto>(['inventory', vaultId], `/api/vaults/${vaultId}/inventory`),
  codes: () => getQuery<InventoryCodeDto[]>(['inventory', 'codes'], '/api/inventory-codes'),
  portal: (vaultId: number) =>
    getQuery<PortalInventoryDto>(['portal', 'inventory', vaultId], `/api/portal/units/${vaultId}/inventory`),
};

export const inventoryPdfUrl = (vaultId: number, timeZone?: string) =>
  `/api/vaults/${vaultId}/inventory.pdf${timeZone ? `?${new URLSearchParams({ tz: timeZone })}` : ''}`;
export const attachmentUrl = (id: number) => `/api/attachments/${id}`;
export const portalPhotoUrl = (id: number) => `/api/portal/inventory-photos/${id}`;

export const useInventory = (vaultId: number) => useQuery(inventoryQueries.ofUnit(vaultId));
export const useInventoryCodes = () => useQuery(inventoryQueries.codes());
export const usePortalInventory = (vaultId: number) => useQuery(inventoryQueries.portal(vaultId));

/** Every change answers the unit's whole inventory, which replaces the cached one. */
function useInventoryWrite<Input>(vaultId: number, send: (input: Input) => Promise<InventoryDto>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (inventory) => queryClient.setQueryData(inventoryQueries.ofUnit(vaultId).queryKey, inventory),
    onError: () => invalidate(queryClient, inventoryQueries.ofUnit(vaultId).queryKey),
  });
}

export const useAddInventoryItem = (vaultId: number) =>
  useInventoryWrite(vaultId, (item: InventoryItemInput) =>
    api.post<InventoryDto>(`/api/vaults/${vaultId}/inventory/items`, item),
  );

export const useAddInventoryPhoto = (vaultId: number, onProgress: (percent: number) => void) =>
  useInventoryWrite(vaultId, ({ photo, itemId }: { photo: Blob; itemId: number | null }) => {
    const form = new FormData();
    if (itemId !== null) form.append('item_id', String(itemId));
    form.append('photo', photo, `photo-${Date.now()}.jpg`);
    return uploadWithProgress<InventoryDto>(`/api/vaults/${vaultId}/inventory/photos`, form, onProgress);
  });

export const useSignInventory = (vaultId: number) =>
  useInventoryWrite(
    vaultId,
    ({ kind, signer, drawing }: { kind: SignatureKind; signer: string; drawing: Blob }) => {
      const form = new FormData();
      form.append('kind', kind);
      form.append('signer', signer);
      form.append('signature', drawing, `signature-${kind}.png`);
      return uploadWithProgress<InventoryDto>(`/api/vaults/${vaultId}/inventory/signatures`, form, () => {});
    },
  );

/** Changes of one item or photo answer less than the whole inventory: it is fetched again. */
function useInventoryChange<Input, Answer>(vaultId: number, send: (input: Input) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () => invalidate(queryClient, inventoryQueries.ofUnit(vaultId).queryKey),
  });
}

export const useChangeInventoryItem = (vaultId: number) =>
  useInventoryChange(vaultId, ({ id, ...change }: InventoryItemUpdateInput & { id: number }) =>
    api.patch<{ item: InventoryItemDto }>(`/api/inventory-items/${id}`, change),
  );
export const useRemoveInventoryItem = (vaultId: number) =>
  useInventoryChange(vaultId, (id: number) => api.delete<{ ok: true }>(`/api/inventory-items/${id}`));
export const useRemoveInventoryPhoto = (vaultId: number) =>
  useInventoryChange(vaultId, (id: number) => api.delete<{ ok: true }>(`/api/inventory-photos/${id}`));

function useCodesWrite<Input>(send: (input: Input) => Promise<InventoryCodeDto[]>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (codes) => {
      queryClient.setQueryData(inventoryQueries.codes().queryKey, codes);
      // every inventory shows the codes as its choices and legend
      void invalidate(queryClient, inventoryQueries.all);
    },
  });
}

export const useAddInventoryCode = () =>
  useCodesWrite((code: InventoryCodeInput) => api.post<InventoryCodeDto[]>('/api/inventory-codes', code));
export const useRemoveInventoryCode = () =>
  useCodesWrite((id: number) => api.delete<InventoryCodeDto[]>(`/api/inventory-codes/${id}`));
