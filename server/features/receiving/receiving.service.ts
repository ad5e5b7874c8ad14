import { fieldSlotCount } from '@domain/rules/capacity';
import { FIELD_FULL, decideSlot } from '@domain/rules/slots';
import { fieldName } from '@domain/rules/field-names';
import { type ReceivingField, proposalAnswer, proposeSlots } from '@domain/rules/receiving';
import type {
  ReceiveShipmentInput,
  ReceivedDto,
  ShipmentProposalDto,
  ShipmentProposalInput,
} from '@domain/schemas/receiving.schema';
import type { Actor } from '../../auth/actor';
import type { Db } from '../../db/database';
import { lockFields, lockWarehouses } from '../../db/locks';
import { badRequest, notFound } from '../../http/errors';
import { findField } from '../fields/fields.repo';
import { findWarehouse } from '../warehouses/warehouses.repo';
import { FIELD_NOT_FOUND } from '../fields/field-loader';
import { occupiedPositions } from '../vaults/vaults.repo';
import { addVaultIn, withConflictMapping } from '../vaults/vaults.service';
import { slotField } from '../vaults/slot-placement';
import { findCustomerFields, findFieldsWithRoom, findOccupied } from './receiving.repo';

/**
 * The fields as the proposal sees them: their free room and how many of the customer's vaults stand there. Only the
 * fields it can use (with a free slot) or must know of (the customer's) are read, counted per field in the database
 * rather than reading every vault; a field's taken slots are stood in for by a full stack of that height until the
 * real positions of the chosen fields are read (gaps only change the positions).
 */
async function receivingFields(db: Db, companyId: number, customer: string): Promise<ReceivingField[]> {
  const [withRoom, customers] = await Promise.all([
    findFieldsWithRoom(db, companyId),
    findCustomerFields(db, companyId, customer.trim().toUpperCase()),
  ]);
  const mine = new Map(customers.map((f) => [f.id, f.mine]));
  const fields = [...customers, ...withRoom.filter((f) => !mine.has(f.id))];
  return fields.map((f) => {
    const capacity = fieldSlotCount(f.type, Number(f.field_capacity));
    const taken = Math.min(f.n, capacity);
    return {
      fieldId: f.id,
      fieldName: fieldName(f.col, f.row),
      warehouseId: f.warehouse_id,
      warehouseName: f.warehouse_name,
      type: f.type,
      full: Boolean(f.full),
      capacity,
      occupied: Array.from({ length: taken }, (_, i) => capacity - i),
      customerVaults: mine.get(f.id) ?? 0,
    };
  });
}

/** POST /api/receiving/proposal: a slot for each vault of the shipment, keeping the order together. */
export async function proposeShipment(
  db: Db,
  companyId: number,
  input: ShipmentProposalInput,
): Promise<ShipmentProposalDto> {
  const fields = await receivingFields(db, companyId, input.customer_name);
  const types = input.vaults.map((v) => v.type);
  const first = proposeSlots(fields, types);
  // the same choice of fields with the real taken slots of the chosen ones, for the right positions
  const chosenIds = [...new Set(first.proposals.map((p) => p.fieldId))];
  const occupied = new Map<number, number[]>(chosenIds.map((id) => [id, []]));
  for (const slot of await findOccupied(db, companyId, chosenIds))
    occupied.get(slot.field_id)!.push(slot.position);
  const chosen = fields
    .filter((f) => occupied.has(f.fieldId))
    .map((f) => ({ ...f, occupied: occupied.get(f.fieldId)! }));
  const { proposals } = proposeSlots(chosen, types);
  return proposalAnswer(fields, proposals, first.unplaced, new Set(occupied.keys()));
}

/**
 * POST /api/receiving: every vault of the shipment into its chosen field, at that field's next free slot, in one
 * transaction: all of them or none. The fields are locked up front in id order (decision 003), then each vault goes
 * through the add's own rules (type, full flag, capacity, next free slot).
 */
export async function receiveShipment(
  db: Db,
  actor: Actor,
  input: ReceiveShipmentInput,
): Promise<ReceivedDto> {
  return withConflictMapping(() =>
    db.transaction().execute(async (trx) => {
      const fieldIds = [...new Set(input.vaults.map((v) => v.field_id))];
      const located = await Promise.all(fieldIds.map((id) => findField(trx, actor.companyId, id)));
      if (located.some((f) => f === undefined)) throw notFound(FIELD_NOT_FOUND);
      await lockWarehouses(
        trx,
        located.map((f) => f!.warehouse_id),
        'share',
      );
      await lockFields(trx, fieldIds);
      const added: ReceivedDto['vaults'] = [];
      for (const vault of input.vaults) {
        const field = located.find((f) => f!.id === vault.field_id)!;
        const occupied = (await occupiedPositions(trx, actor.companyId, field.id)).map((v) => v.position);
        const warehouse = await findWarehouse(trx, actor.companyId, field.warehouse_id);
        const place = slotField({ ...field, field_capacity: warehouse?.field_capacity });
        const decision = decideSlot(place, occupied, { type: vault.type, customerName: input.customer_name });
        // a shipment names the field that has no room left, marked full or not
        if (!decision.ok && (decision.reason === 'full' || decision.reason === 'no-room'))
          throw badRequest(`${FIELD_FULL} (field ${place.name})`);
        if (!decision.ok) throw badRequest(decision.message);
        const position = decision.slot;
        const dto = await addVaultIn(trx, actor, {
          vault_id: vault.name,
          customer_name: input.customer_name,
          order_name: input.order_name,
          type: vault.type,
          note: undefined,
          field_id: field.id,
          position,
        });
        added.push({
          id: dto.id,
          name: dto.name,
          field_name: dto.field_name,
          warehouse_name: dto.warehouse_name,
          position: dto.position,
        });
      }
      return { vaults: added };
    }),
  );
}
