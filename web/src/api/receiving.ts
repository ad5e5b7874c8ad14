import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  ReceiveShipmentInput,
  ReceivedDto,
  ShipmentProposalDto,
  ShipmentProposalInput,
} from '@domain/schemas/receiving.schema';
import { api } from '../lib/api-client';
import { refreshWarehouseData } from './warehouses';

export function useShipmentProposal() {
  return useMutation({
    mutationFn: (input: ShipmentProposalInput) =>
      api.post<ShipmentProposalDto>('/api/receiving/proposal', input),
  });
}

export function useReceiveShipment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ReceiveShipmentInput) => api.post<ReceivedDto>('/api/receiving', input),
    onSettled: () => refreshWarehouseData(queryClient),
  });
}
