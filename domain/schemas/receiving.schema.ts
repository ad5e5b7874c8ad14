import { z } from 'zod';
import { VAULT_TYPES } from '../rules/capacity';
import { customerName, optionalText, rowId, safeName } from './form-values';

export const MAX_SHIPMENT = 200;

const shipmentVault = z.object({
  type: z.enum(VAULT_TYPES, { error: 'Type must be vault, liftvan, t2 or couchbox.' }),
  name: safeName('Vault number', optionalText('Vault number', 50)),
  field_id: rowId('field_id').optional(),
});

const shipment = {
  customer_name: customerName,
  order_name: safeName(
    'Order number',
    z.string({ error: 'Order number is required.' }).trim().min(1, 'Order number is required.').max(50),
  ),
};

/** POST /api/receiving/proposal: the shipment's vaults, each by type (and number); the answer proposes slots. */
export const ShipmentProposalSchema = z.object({
  ...shipment,
  vaults: z
    .array(shipmentVault, { error: 'List the vaults of the shipment.' })
    .min(1, 'List the vaults of the shipment.')
    .max(MAX_SHIPMENT, `At most ${MAX_SHIPMENT} vaults at a time.`),
});
export type ShipmentProposalInput = z.infer<typeof ShipmentProposalSchema>;

/** POST /api/receiving: the shipment with the field chosen for each vault; the server takes the next free slots. */
export const ReceiveShipmentSchema = z.object({
  ...shipment,
  vaults: z
    .array(shipmentVault.extend({ field_id: rowId('field_id') }), {
      error: 'List the vaults of the shipment.',
    })
    .min(1, 'List the vaults of the shipment.')
    .max(MAX_SHIPMENT, `At most ${MAX_SHIPMENT} vaults at a time.`),
});
export type ReceiveShipmentInput = z.infer<typeof ReceiveShipmentSchema>;

export interface SlotProposalDto {
  index: number;
  field_id: number;
  field_name: string;
  warehouse_id: number;
  warehouse_name: string;
  position: number;
}

export interface ShipmentProposalDto {
  proposals: SlotProposalDto[];
  /** indexes of vaults no field had room for */
  unplaced: number[];
  /** every field a vault of this shipment may go to, for changing a proposal */
  fields: {
    field_id: number;
    field_name: string;
    warehouse_id: number;
    warehouse_name: string;
    couchbox: boolean;
    free: number;
  }[];
}

export interface ReceivedDto {
  vaults: {
    id: number;
    name: string | null;
    field_name: string | null;
    warehouse_name: string | null;
    position: number | null;
  }[];
}

// Answer schemas (decision 045), typed to the DTOs.
export const ShipmentProposalDtoSchema: z.ZodType<ShipmentProposalDto> = z.object({
  proposals: z.array(
    z.object({
      index: z.number().int(),
      field_id: z.number().int(),
      field_name: z.string(),
      warehouse_id: z.number().int(),
      warehouse_name: z.string(),
      position: z.number().int(),
    }),
  ),
  unplaced: z.array(z.number().int()),
  fields: z.array(
    z.object({
      field_id: z.number().int(),
      field_name: z.string(),
      warehouse_id: z.number().int(),
      warehouse_name: z.string(),
      couchbox: z.boolean(),
      free: z.number().int(),
    }),
  ),
});

export const ReceivedDtoSchema: z.ZodType<ReceivedDto> = z.object({
  vaults: z.array(
    z.object({
      id: z.number().int(),
      name: z.string().nullable(),
      field_name: z.string().nullable(),
      warehouse_name: z.string().nullable(),
      position: z.number().int().nullable(),
    }),
  ),
});
