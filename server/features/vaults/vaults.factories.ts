import type { VaultDto } from '@domain/schemas/warehouse.schema';
import { fieldSlotCount, nextFreePosition, type VaultType } from '@domain/rules/capacity';
import { fieldName } from '@domain/rules/field-names';
import type { Db } from '../../db/database';
import { uniqueSuffix } from '../../db/factories';
import { systemActor } from '../../auth/actor';
import { findField } from '../fields/fields.repo';
import { findWarehouse } from '../warehouses/warehouses.repo';
import { occupiedPositions } from './vaults.repo';
import { addVault, createStagedVault } from './vaults.service';

// Vault builders for the demo seed, API tests and browser tests: they go through the same services as the API.

export interface BuildVaultOptions {
  companyId: number;
  fieldId: number;
  /** a real customer by default; 'EMPTY VAULT', 'EMPTY LIFTVAN', ... make placeholders */
  customerName?: string;
  orderName?: string;
  /** the vault number */
  name?: string;
  type?: VaultType;
  note?: string;
}

/** A vault in the field's next free slot (the highest free position). */
export async function buildVault(db: Db, options: BuildVaultOptions): Promise<VaultDto> {
  const field = await findField(db, options.companyId, options.fieldId);
  if (!field) throw new Error(`field ${options.fieldId} is not in company ${options.companyId}`);
  const warehouse = await findWarehouse(db, options.companyId, field.warehouse_id);
  const occupied = (await occupiedPositions(db, options.companyId, field.id)).map((v) => v.position);
  const position = nextFreePosition(occupied, fieldSlotCount(field.type, warehouse?.field_capacity));
  if (position === null) throw new Error(`field ${fieldName(field.col, field.row)} is full`);
  const suffix = uniqueSuffix();
  return addVault(db, systemActor(options.companyId), {
    vault_id: options.name ?? `V-${suffix.slice(-6).toUpperCase()}`,
    customer_name: (options.customerName ?? `CUSTOMER ${suffix.toUpperCase()}`).toUpperCase(),
    order_name: options.orderName ?? `ORD-${suffix.slice(-5).toUpperCase()}`,
    type: options.type ?? 'vault',
    note: options.note,
    field_id: field.id,
    position,
  });
}

export interface BuildStagedVaultOptions {
  companyId: number;
  customerName?: string;
  orderName?: string;
  name?: string;
  type?: VaultType;
  note?: string;
}

/** A vault waiting on the stage (no field, no position). */
export async function buildStagedVault(db: Db, options: BuildStagedVaultOptions): Promise<VaultDto> {
  const suffix = uniqueSuffix();
  return createStagedVault(db, systemActor(options.companyId), {
    name: options.name ?? `S-${suffix.slice(-6).toUpperCase()}`,
    customer_name: (options.customerName ?? `CUSTOMER ${suffix.toUpperCase()}`).toUpperCase(),
    order_name: options.orderName ?? `ORD-${suffix.slice(-5).toUpperCase()}`,
    type: options.type,
    note: options.note,
  });
}
