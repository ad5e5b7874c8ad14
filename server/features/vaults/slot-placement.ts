import { fieldName } from '@domain/rules/field-names';
import {
  decideSlot,
  type SlotField,
  type SlotRefusalReason,
  type SlotUnit,
  type SlotWanted,
  typeRefusal,
} from '@domain/rules/slots';
import { HttpError, badRequest } from '../../http/errors';

/** The status of each slot refusal: the caller's mistake is a 400, a field that filled up meanwhile a 409. */
const REFUSAL_STATUS: Record<SlotRefusalReason, number> = {
  'couchbox-bottom': 400,
  'wrong-type': 400,
  'already-here': 400,
  'not-next': 400,
  beyond: 400,
  full: 409,
  taken: 409,
  'no-room': 409,
};

/** A field row (with its warehouse's field capacity) as the slot rules see it. */
export function slotField(row: {
  col: number;
  row: number;
  type: string;
  full: boolean | number;
  field_capacity?: number | string | null;
}): SlotField {
  return {
    name: fieldName(row.col, row.row),
    type: row.type,
    full: Boolean(row.full),
    capacity:
      row.field_capacity === null || row.field_capacity === undefined ? null : Number(row.field_capacity),
  };
}

/** The slot the domain's decision gives the unit, or its refusal as the HTTP error the API answers. */
export function placeOrRefuse(
  field: SlotField,
  occupied: readonly number[],
  unit: SlotUnit,
  wanted: SlotWanted,
): number {
  const decision = decideSlot(field, occupied, unit, wanted);
  if (!decision.ok) throw new HttpError(REFUSAL_STATUS[decision.reason], [decision.message]);
  return decision.slot;
}

/** The unit's type against the field it stands in (a vault's edit may change its type); no field, no check. */
export function checkType(
  type: string,
  customerName: string,
  field: { col: number; row: number; type: string } | null,
): void {
  if (!field) return;
  const refusal = typeRefusal(
    { name: fieldName(field.col, field.row), type: field.type },
    { type, customerName },
  );
  if (refusal) throw badRequest(refusal);
}
