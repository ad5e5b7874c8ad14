import { naturalCompare } from './text';
import { compareFieldNames } from './field-names';

/**
 * The pull planner (issue 16): which vaults come off which field, in which order, to take out every vault of an
 * order or a customer. A stack is taken from the top (position 1 is the top slot), so per field everything at or
 * above the deepest vault wanted must come off once, top-down: the wanted ones go to the stage, the others (only in
 * the way) are set aside and later put back. Vaults below the deepest wanted one are never touched, and no vault is
 * handled twice while pulling, so the number of handlings is the least possible.
 */

export interface PlanVault {
  id: number;
  position: number;
  /** true for a vault of the order or customer being pulled */
  wanted: boolean;
}

export interface PlanFieldInput {
  fieldId: number;
  fieldName: string;
  warehouseId: number;
  warehouseName: string;
  vaults: readonly PlanVault[];
}

export type PlanRole = 'pull' | 'in-the-way';

export interface PlanStep {
  vaultId: number;
  /** where it stands when the plan is made */
  position: number;
  role: PlanRole;
}

export interface PlannedField {
  fieldId: number;
  fieldName: string;
  warehouseId: number;
  warehouseName: string;
  /** top-down: each step takes the field's topmost vault at that moment */
  steps: PlanStep[];
  /** the vaults set aside, in the order they go back (last off, first back), so the stack keeps its order */
  putBack: number[];
}

export interface PullPlan {
  /** fields in walking order: by warehouse, then natural field order */
  fields: PlannedField[];
  /**
   * vault handlings the plan needs: per field every vault at or above its deepest wanted vault comes off once, and
   * each vault only in the way goes back once more
   */
  handlings: number;
  /** the vaults only in the way (each counted twice in `handlings`: off and back) */
  inTheWay: number;
  /** wanted vaults the plan takes out */
  pulled: number;
}

function walkingOrder(a: PlanFieldInput, b: PlanFieldInput): number {
  return (
    naturalCompare(a.warehouseName, b.warehouseName) ||
    a.warehouseId - b.warehouseId ||
    compareFieldNames(a.fieldName, b.fieldName) ||
    a.fieldId - b.fieldId
  );
}

/** The steps of one field: every vault at or above the deepest wanted one, top-down. */
export function planField(field: PlanFieldInput): PlannedField {
  let deepest = 0;
  for (const vault of field.vaults) if (vault.wanted && vault.position > deepest) deepest = vault.position;
  const steps: PlanStep[] = field.vaults
    .filter((v) => v.position <= deepest)
    .sort((a, b) => a.position - b.position)
    .map((v) => ({ vaultId: v.id, position: v.position, role: v.wanted ? 'pull' : 'in-the-way' }));
  const putBack = steps
    .filter((s) => s.role === 'in-the-way')
    .map((s) => s.vaultId)
    .reverse();
  return {
    fieldId: field.fieldId,
    fieldName: field.fieldName,
    warehouseId: field.warehouseId,
    warehouseName: field.warehouseName,
    steps,
    putBack,
  };
}

/** The plan over every field that holds a wanted vault; fields without one are left out. */
export function planPull(fields: readonly PlanFieldInput[]): PullPlan {
  const planned = fields
    .filter((f) => f.vaults.some((v) => v.wanted))
    .sort(walkingOrder)
    .map(planField);
  let inTheWay = 0;
  let off = 0;
  for (const field of planned) {
    off += field.steps.length;
    inTheWay += field.putBack.length;
  }
  return { fields: planned, handlings: off + inTheWay, inTheWay, pulled: off - inTheWay };
}
