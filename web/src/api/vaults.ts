import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  AddVaultInput,
  DeleteVaultAnswer,
  MoveVaultInput,
  UpdateVaultSchema,
} from '@domain/schemas/vault.schema';
import type { AttachmentDto, VaultDto } from '@domain/schemas/warehouse.schema';
import { type SentOrQueued, sendOrQueue } from '../lib/outbox/floor-outbox';
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES } from '@domain/rules/capacity';
import { ApiError, api, uploadWithProgress } from '../lib/api-client';
import { refreshVaultData } from './stage';

/** The add-vault form as it is sent: every field of the contract (form data carries text, the ids numbers). */
export type NewVaultForm = {
  [K in Exclude<keyof AddVaultInput, 'company_id'>]-?: K extends 'field_id' | 'position' ? number : string;
} & {
  attachment?: File | null;
  /** called with 0-100 while an attachment travels */
  onProgress?: (percent: number) => void;
};

/** POST /api/vaults/ is form data so the attachment can travel with the vault. */
export function useAddVault() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (form: NewVaultForm): Promise<SentOrQueued<VaultDto>> => {
      // the vault travels as JSON, or as a multipart form with its file; an add that gets no answer waits in the
      // tablet's outbox (issue 30), the file's bytes with it; its basis is the slot it names, which the server refuses
      // once it is no longer the free one
      const { attachment, onProgress, ...fields } = form;
      // the server refuses a larger file too; the tablet says so before keeping 5 MB it could not send
      if (attachment && attachment.size > MAX_UPLOAD_BYTES) throw new ApiError(413, [FILE_TOO_LARGE]);
      const shown = form.vault_id || form.customer_name;
      return sendOrQueue<VaultDto>(
        {
          kind: 'add',
          label: `Add vault ${shown} at slot ${form.position}${attachment ? ` with ${attachment.name}` : ''}`,
          method: 'POST',
          url: '/api/vaults/',
          body: fields,
          ...(attachment ? { file: { field: 'attachment', name: attachment.name, blob: attachment } } : {}),
        },
        onProgress,
      );
    },
    onSettled: () => refreshVaultData(queryClient),
  });
}

/** The body of PUT /api/vaults/{id}, from the contract; `attachments: []` erases them when a vault becomes a placeholder. */
export type UpdateVaultBody = z.input<typeof UpdateVaultSchema>;

export function useUpdateVault() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ vaultId, body }: { vaultId: number; body: UpdateVaultBody }) =>
      api.put<VaultDto>(`/api/vaults/${vaultId}`, { ...body }),
    onSettled: () => refreshVaultData(queryClient),
  });
}

/**
 * Moves a vault into a slot. A move that names its basis (where the vault was seen) and gets no answer waits in the
 * tablet's outbox (issue 30): the answer then says `queued`.
 */
export function useMoveVault() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: MoveVaultInput & { label?: string }): Promise<SentOrQueued<VaultDto>> => {
      const { label, ...body } = input;
      if (!body.basis)
        return { queued: false, answer: await api.put<VaultDto>('/api/vaults/move', { ...body }) };
      return sendOrQueue<VaultDto>({
        kind: 'move',
        label: label ?? `Move vault ${body.vaultId}`,
        method: 'PUT',
        url: '/api/vaults/move',
        body: { ...body },
        vaultId: body.vaultId,
      });
    },
    onSettled: () => refreshVaultData(queryClient),
  });
}

export function useDeleteVault() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vaultId: number) => api.delete<DeleteVaultAnswer>(`/api/vaults/${vaultId}`),
    onSettled: () => refreshVaultData(queryClient),
  });
}

/** Deletes several staged vaults, one call each; every one is tried before the first refusal is reported. */
export function useDeleteVaults() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (vaultIds: number[]) => {
      const results = await Promise.allSettled(
        vaultIds.map((id) => api.delete<DeleteVaultAnswer>(`/api/vaults/${id}`)),
      );
      const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (refused) throw refused.reason;
    },
    onSettled: () => refreshVaultData(queryClient),
  });
}

export function useUploadAttachment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      vaultId,
      file,
      onProgress,
    }: {
      vaultId: number;
      file: File;
      /** called with 0-100 as the file travels */
      onProgress?: (percent: number) => void;
    }) => {
      const body = new FormData();
      body.set('vault_id', String(vaultId));
      body.set('attachment', file);
      return uploadWithProgress<{ attachment: AttachmentDto }>('/api/vaults/upload', body, (percent) =>
        onProgress?.(percent),
      );
    },
    onSettled: () => refreshVaultData(queryClient),
  });
}

export function useDeleteAttachment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (attachmentId: number) =>
      api.delete<{ attachmentId: number; vaultId: number }>(`/api/attachments/${attachmentId}`),
    onSettled: () => refreshVaultData(queryClient),
  });
}
