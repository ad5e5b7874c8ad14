import { fieldSlotCount } from '@domain/rules/capacity';
import { type ReceivingField, proposalAnswer, proposeSlots } from '@domain/rules/receiving';
import { freeSlotOf } from '@domain/rules/slots';
import type { ShipmentProposalDto } from '@domain/schemas/receiving.schema';
import type { WarehouseDto } from '@domain/schemas/warehouse.schema';
import type { SlotHold } from '@/lib/outbox/outbox';
import type { ShipmentLine } from './shipment-lines';

/**
 * The fields of the warehouses this tablet kept, as the receiving rule sees them: the vaults it last saw, plus the slots
 * its own changes not yet sent hold (`held`: position lists per field id).
 */
export function keptReceivingFields(
  warehouses: readonly WarehouseDto[],
  customer: string,
  held: (fieldId: number) => readonly number[],
): ReceivingField[] {
  const who = customer.trim().toUpperCase();
  return warehouses.flatMap((w) =>
    Object.values(w.fields).map((f) => {
      const vaults = Object.values(f.vaults);
      const positions = vaults.flatMap((v) => (v.position === null ? [] : [v.position]));
      return {
        fieldId: f.id,
        fieldName: f.name,
        warehouseId: w.id,
        warehouseName: w.name,
        type: f.type,
        full: f.full,
        capacity: fieldSlotCount(f.type, w.fieldCapacity),
        occupied: [...new Set([...positions, ...held(f.id)])],
        customerVaults: vaults.filter((v) => v.customer_name.trim().toUpperCase() === who).length,
      };
    }),
  );
}

/**
 * The slot proposal made on the tablet when the server cannot be reached: the same rule the server runs
 * (`proposeSlots`), over the fields the tablet kept, in the server's answer's shape so the page treats both alike.
 */
export function proposeOnTablet(
  fields: readonly ReceivingField[],
  lines: readonly ShipmentLine[],
): ShipmentProposalDto {
  const { proposals, unplaced } = proposeSlots(
    fields,
    lines.map((l) => l.type),
  );
  return proposalAnswer(fields, proposals, unplaced, new Set(proposals.map((p) => p.fieldId)));
}

/**
 * The slots a shipment stored from this tablet holds until it reaches the server: each vault, in shipment order, at its
 * chosen field's next free slot as the tablet knows the field (the server takes the next free slot there itself). A
 * field the tablet does not know holds nothing on the screen.
 */
export function shipmentHolds(
  fields: readonly ReceivingField[],
  lines: readonly ShipmentLine[],
  chosen: Readonly<Record<number, number>>,
  customer: string,
): SlotHold[] {
  const taken = new Map(fields.map((f) => [f.fieldId, [...f.occupied]]));
  const byId = new Map(fields.map((f) => [f.fieldId, f]));
  return lines.flatMap((line, i) => {
    const field = byId.get(chosen[i]!);
    if (!field) return [];
    const occupied = taken.get(field.fieldId)!;
    const position = freeSlotOf(field, field.capacity, occupied);
    if (position === null) return [];
    occupied.push(position);
    const label = line.name
      ? `vault ${line.name} received`
      : `unit of ${customer.trim().toUpperCase()} received`;
    return [{ fieldId: field.fieldId, position, label }];
  });
}
