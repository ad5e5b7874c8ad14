import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  ReceiveShipmentInput,
  ReceivedDto,
  ShipmentProposalDto,
  ShipmentProposalInput,
} from '@domain/schemas/receiving.schema';
import { api } from '../lib/api-client';
import { type SentOrQueued, sendOrQueue } from '../lib/outbox/floor-outbox';
import type { SlotHold } from '../lib/outbox/outbox';
import { refreshWarehouseData } from './warehouses';

export function useShipmentProposal() {
  return useMutation({
    mutationFn: (input: ShipmentProposalInput) =>
      api.post<ShipmentProposalDto>('/api/receiving/proposal', input),
  });
}

/** What the page calls a shipment waiting on the tablet: "shipment of 3 units for ACME". */
export const shipmentLabel = (body: { customer_name?: unknown; vaults?: unknown }) => {
  const count = Array.isArray(body.vaults) ? body.vaults.length : 0;
  return `shipment of ${count} ${count === 1 ? 'unit' : 'units'} for ${String(body.customer_name ?? '').toUpperCase()}`;
};

/**
 * Stores a shipment in the chosen fields. One that gets no answer waits in the tablet's outbox (issue 30) with its
 * Idempotency-Key; its basis is each vault's field (the server takes that field's next free slot, or refuses the whole
 * shipment when a field has no room left), and `holds` are the slots the tablet shows taken meanwhile.
 */
export function useReceiveShipment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      input,
      holds,
    }: {
      input: ReceiveShipmentInput;
      holds: SlotHold[];
    }): Promise<SentOrQueued<ReceivedDto>> =>
      sendOrQueue<ReceivedDto>({
        kind: 'receiving',
        label: `Receive ${shipmentLabel(input)} (order ${input.order_name})`,
        method: 'POST',
        url: '/api/receiving',
        body: { ...input },
        holds,
      }),
    onSettled: () => refreshWarehouseData(queryClient),
  });
}
