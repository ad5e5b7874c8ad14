import type { FieldDto } from '@domain/schemas/warehouse.schema';
import type { Db } from '../../db/database';
import { systemActor } from '../../auth/actor';
import { changeFieldFull, changeFieldType } from './fields.service';

// Field builders for the demo seed, API tests and browser tests: they go through the same services as the API.

/** Makes the (empty) field a couchbox: it becomes couchbox-T and the field below couchbox-B. */
export async function makeCouchbox(
  db: Db,
  options: { companyId: number; fieldId: number },
): Promise<{ field1: FieldDto; field2: FieldDto | null }> {
  return changeFieldType(db, systemActor(options.companyId), options.fieldId, { type: 'couchbox' });
}

/** Marks a field full, as a user's 'Full' switch does: no vault is added or moved into it. */
export async function markFieldFull(
  db: Db,
  options: { companyId: number; fieldId: number },
): Promise<FieldDto> {
  return changeFieldFull(db, systemActor(options.companyId), options.fieldId, true);
}
