import type { Db } from '../../db/database';

export interface ChecklistRow {
  id: number;
  company_id: number;
  warehouse_id: number;
  warehouse_name: string;
  description: string;
  is_active: number;
  filled_out_by: string | null;
  link_key: string | null;
  version: number;
  created_at: string;
}

export interface ChecklistTaskRow {
  id: number;
  checklist_id: number;
  position: number;
  text: string;
  completed: number;
  completed_by: string | null;
  reason: string | null;
  completed_at: string | null;
}

function checklistsWithWarehouse(db: Db) {
  return db
    .selectFrom('checklists as c')
    .innerJoin('warehouses as w', 'w.id', 'c.warehouse_id')
    .select([
      'c.id',
      'c.company_id',
      'c.warehouse_id',
      'w.name as warehouse_name',
      'c.description',
      'c.is_active',
      'c.filled_out_by',
      'c.link_key',
      'c.version',
      'c.created_at',
    ]);
}

export async function listChecklists(db: Db, companyId: number): Promise<ChecklistRow[]> {
  return checklistsWithWarehouse(db)
    .where('c.company_id', '=', companyId)
    .orderBy('c.created_at', 'desc')
    .orderBy('c.id', 'desc')
    .execute();
}

/** The checklist with this id; scoped to a company when one is given (signed-in callers). */
export async function findChecklist(
  db: Db,
  id: number,
  companyId: number | null,
): Promise<ChecklistRow | undefined> {
  let query = checklistsWithWarehouse(db).where('c.id', '=', id);
  if (companyId !== null) query = query.where('c.company_id', '=', companyId);
  return query.executeTakeFirst();
}

/**
 * Serialises writers of one checklist on PostgreSQL (SQLite writes are serial already). `companyId` null: the public
 * fill-in, which learns the company from the row it locks.
 */
export async function lockChecklist(db: Db, companyId: number | null, id: number): Promise<void> {
  let query = db.selectFrom('checklists').select('id').where('id', '=', id);
  if (companyId !== null) query = query.where('company_id', '=', companyId);
  await query.forUpdate().executeTakeFirst();
}

/**
 * Active checklists of warehouses whose URL slug, with hyphens dropped, equals `compactSlug`: a cheap
 * pre-filter; the caller confirms each candidate with the exact name rule.
 */
export async function findActiveChecklistsBySlug(
  db: Db,
  compactSlug: string,
  companyId: number | null,
): Promise<ChecklistRow[]> {
  let query = checklistsWithWarehouse(db)
    .where('c.is_active', '=', 1)
    .where((eb) => eb(eb.fn('replace', ['w.slug', eb.val('-'), eb.val('')]), '=', compactSlug));
  if (companyId !== null) query = query.where('c.company_id', '=', companyId);
  return query.orderBy('c.id').limit(200).execute();
}

export async function listTasks(
  db: Db,
  companyId: number,
  checklistIds: readonly number[],
): Promise<ChecklistTaskRow[]> {
  if (checklistIds.length === 0) return [];
  return db
    .selectFrom('checklist_tasks')
    .select(['id', 'checklist_id', 'position', 'text', 'completed', 'completed_by', 'reason', 'completed_at'])
    .where('company_id', '=', companyId)
    .where('checklist_id', 'in', [...checklistIds])
    .orderBy('checklist_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export async function activeChecklistIdOfWarehouse(
  db: Db,
  companyId: number,
  warehouseId: number,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('checklists')
    .select('id')
    .where('company_id', '=', companyId)
    .where('warehouse_id', '=', warehouseId)
    .where('is_active', '=', 1)
    .executeTakeFirst();
  return row?.id;
}

export async function insertChecklist(
  db: Db,
  values: {
    companyId: number;
    warehouseId: number;
    description: string;
    isActive: boolean;
    linkKey: string;
    createdAt: string;
  },
): Promise<number> {
  const row = await db
    .insertInto('checklists')
    .values({
      company_id: values.companyId,
      warehouse_id: values.warehouseId,
      description: values.description,
      is_active: Number(values.isActive),
      filled_out_by: null,
      link_key: values.linkKey,
      created_at: values.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface NewTask {
  text: string;
  position: number;
  completed?: boolean;
  completedBy?: string | null;
  completedAt?: string | null;
}

export async function insertTasks(
  db: Db,
  companyId: number,
  checklistId: number,
  tasks: readonly NewTask[],
): Promise<void> {
  if (tasks.length === 0) return;
  await db
    .insertInto('checklist_tasks')
    .values(
      tasks.map((t) => ({
        company_id: companyId,
        checklist_id: checklistId,
        position: t.position,
        text: t.text,
        completed: Number(t.completed ?? false),
        completed_by: t.completedBy ?? null,
        reason: null,
        completed_at: t.completedAt ?? null,
      })),
    )
    .execute();
}

export async function updateChecklist(
  db: Db,
  companyId: number,
  id: number,
  changes: { description?: string; warehouseId?: number; isActive?: boolean; filledOutBy?: string },
): Promise<void> {
  await db
    .updateTable('checklists')
    .set((eb) => ({
      ...(changes.description !== undefined && { description: changes.description }),
      ...(changes.warehouseId !== undefined && { warehouse_id: changes.warehouseId }),
      ...(changes.isActive !== undefined && { is_active: Number(changes.isActive) }),
      ...(changes.filledOutBy !== undefined && { filled_out_by: changes.filledOutBy }),
      version: eb('version', '+', 1),
    }))
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .execute();
}

/** Replaces the secret of the checklist's fill-in link; answers whether the company has that checklist. */
export async function setChecklistKey(db: Db, companyId: number, id: number, key: string): Promise<boolean> {
  const result = await db
    .updateTable('checklists')
    .set((eb) => ({ link_key: key, version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function updateTask(
  db: Db,
  companyId: number,
  checklistId: number,
  taskId: number,
  changes: Partial<
    Pick<ChecklistTaskRow, 'text' | 'position' | 'completed' | 'completed_by' | 'reason' | 'completed_at'>
  >,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db
    .updateTable('checklist_tasks')
    .set(changes)
    .where('company_id', '=', companyId)
    .where('id', '=', taskId)
    .where('checklist_id', '=', checklistId)
    .execute();
}

export async function deleteTasks(
  db: Db,
  companyId: number,
  checklistId: number,
  taskIds: readonly number[],
): Promise<void> {
  if (taskIds.length === 0) return;
  await db
    .deleteFrom('checklist_tasks')
    .where('company_id', '=', companyId)
    .where('checklist_id', '=', checklistId)
    .where('id', 'in', [...taskIds])
    .execute();
}
