import {
  ACTIVE_CHECKLIST_EXISTS,
  type AnswerChecklistInput,
  type ChecklistDto,
  type CreateChecklistInput,
  type EditChecklistInput,
} from '../../../domain/schemas/checklist.schema';
import type { SessionUser } from '../../../domain/schemas/auth.schema';
import { sameChecklistWarehouse, warehouseSlug } from '../../../domain/rules/text';
import { type DatabaseHandle, type Db, isUniqueViolation, nowIso } from '../../db/database';
import { recordEvent } from '../../events/event-log.repo';
import { badRequest, conflict, notFound } from '../../http/errors';
import {
  type ChecklistTaskRow,
  activeChecklistIdOfWarehouse,
  deleteTasks,
  findActiveChecklistsBySlug,
  findChecklist,
  insertChecklist,
  insertTasks,
  listChecklists,
  listTasks,
  lockChecklist,
  updateChecklist,
  updateTask,
  warehouseOfCompany,
} from './checklists.repo';
import { presentChecklist } from './checklists.presenter';

const CHECKLIST_NOT_FOUND = 'Checklist not found.';
const WAREHOUSE_NOT_FOUND = 'Warehouse not found.';
const NO_ACTIVE_CHECKLIST = 'No active checklist found for this warehouse.';

async function loadChecklist(db: Db, id: number, companyId: number | null): Promise<ChecklistDto> {
  const row = await findChecklist(db, id, companyId);
  if (!row) throw notFound(CHECKLIST_NOT_FOUND);
  return presentChecklist(row, await listTasks(db, [row.id]));
}

/** Runs a write; a second active checklist for one warehouse (caught by the partial unique index) is a 409. */
async function refuseSecondActive<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(ACTIVE_CHECKLIST_EXISTS);
    throw error;
  }
}

export async function listCompanyChecklists(db: Db, companyId: number): Promise<ChecklistDto[]> {
  const rows = await listChecklists(db, companyId);
  const tasks = await listTasks(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => presentChecklist(row, tasks));
}

export async function createChecklist(
  database: DatabaseHandle,
  user: SessionUser,
  input: CreateChecklistInput,
): Promise<ChecklistDto> {
  const id = await refuseSecondActive(() =>
    database.db.transaction().execute(async (trx) => {
      const warehouse = await warehouseOfCompany(trx, user.companyId, input.warehouse_id);
      if (!warehouse) throw notFound(WAREHOUSE_NOT_FOUND);
      if (await activeChecklistIdOfWarehouse(trx, warehouse.id)) throw conflict(ACTIVE_CHECKLIST_EXISTS);
      const checklistId = await insertChecklist(trx, {
        companyId: user.companyId,
        warehouseId: warehouse.id,
        description: input.description,
        isActive: true,
        createdAt: nowIso(),
      });
      await insertTasks(
        trx,
        user.companyId,
        checklistId,
        input.tasks.map((text, i) => ({ text, position: i + 1 })),
      );
      await recordEvent(trx, {
        companyId: user.companyId,
        userId: user.id,
        kind: 'checklist.added',
        entityType: 'checklist',
        entityId: checklistId,
        warehouseId: warehouse.id,
      });
      return checklistId;
    }),
  );
  return loadChecklist(database.db, id, user.companyId);
}

/**
 * The active checklist of the warehouse named in a fill-in link. A signed-in caller only sees their company's;
 * a signed-out caller gets it only when exactly one warehouse of that name (in any company) has an active checklist,
 * so a shared name never shows one company's checklist to another company's staff.
 */
export async function activeChecklistByWarehouseName(
  db: Db,
  name: string,
  companyId: number | null,
): Promise<ChecklistDto> {
  const compact = warehouseSlug(name.replace(/-/g, ' ')).replace(/-/g, '');
  if (!compact) throw notFound(NO_ACTIVE_CHECKLIST);
  const candidates = (await findActiveChecklistsBySlug(db, compact, companyId)).filter((row) =>
    sameChecklistWarehouse(row.warehouse_name, name),
  );
  if (candidates.length !== 1) throw notFound(NO_ACTIVE_CHECKLIST);
  const row = candidates[0]!;
  return presentChecklist(row, await listTasks(db, [row.id]));
}

export async function editChecklist(
  database: DatabaseHandle,
  user: SessionUser,
  id: number,
  input: EditChecklistInput,
): Promise<ChecklistDto> {
  await refuseSecondActive(() =>
    database.db.transaction().execute(async (trx) => {
      if (database.engine === 'postgres') await lockChecklist(trx, id);
      const row = await findChecklist(trx, id, user.companyId);
      if (!row) throw notFound(CHECKLIST_NOT_FOUND);

      let warehouseId = row.warehouse_id;
      if (input.warehouse_id !== undefined && input.warehouse_id !== row.warehouse_id) {
        const warehouse = await warehouseOfCompany(trx, user.companyId, input.warehouse_id);
        if (!warehouse) throw notFound(WAREHOUSE_NOT_FOUND);
        warehouseId = warehouse.id;
      }
      const willBeActive = input.is_active ?? Boolean(row.is_active);
      if (willBeActive) {
        const activeId = await activeChecklistIdOfWarehouse(trx, warehouseId);
        if (activeId !== undefined && activeId !== id) throw conflict(ACTIVE_CHECKLIST_EXISTS);
      }
      await updateChecklist(trx, id, {
        description: input.description,
        warehouseId: input.warehouse_id === undefined ? undefined : warehouseId,
        isActive: input.is_active,
      });
      if (input.tasks) await replaceTasks(trx, user, id, input.tasks);
      await recordEvent(trx, {
        companyId: user.companyId,
        userId: user.id,
        kind: 'checklist.edited',
        entityType: 'checklist',
        entityId: id,
        warehouseId,
      });
    }),
  );
  return loadChecklist(database.db, id, user.companyId);
}

/** The edit dialog sends the whole list: kept tasks by id (maybe toggled), new ones without an id, the rest removed. */
async function replaceTasks(
  db: Db,
  user: SessionUser,
  checklistId: number,
  tasks: NonNullable<EditChecklistInput['tasks']>,
) {
  const stored = new Map((await listTasks(db, [checklistId])).map((t) => [t.id, t]));
  const keptIds = new Set<number>();
  for (const task of tasks) {
    if (task.id === undefined) continue;
    if (!stored.has(task.id)) throw badRequest('A task in the list is not part of this checklist.');
    if (keptIds.has(task.id)) throw badRequest('A task appears twice in the list.');
    keptIds.add(task.id);
  }
  await deleteTasks(
    db,
    checklistId,
    [...stored.keys()].filter((taskId) => !keptIds.has(taskId)),
  );
  const now = nowIso();
  const added: {
    text: string;
    position: number;
    completed: boolean;
    completedBy: string | null;
    completedAt: string | null;
  }[] = [];
  for (const [index, task] of tasks.entries()) {
    const position = index + 1;
    if (task.id === undefined) {
      const completed = task.completed === true;
      added.push({
        text: task.text,
        position,
        completed,
        completedBy: completed ? user.username : null,
        completedAt: completed ? now : null,
      });
      continue;
    }
    const current = stored.get(task.id)!;
    const changes: Partial<ChecklistTaskRow> = {};
    if (current.position !== position) changes.position = position;
    if (current.text !== task.text) changes.text = task.text;
    if (task.completed !== undefined && task.completed !== Boolean(current.completed)) {
      Object.assign(
        changes,
        task.completed
          ? { completed: 1, completed_by: user.username, completed_at: now, reason: null }
          : { completed: 0, completed_by: null, completed_at: null },
      );
    }
    await updateTask(db, checklistId, task.id, changes);
  }
  await insertTasks(db, user.companyId, checklistId, added);
}

/**
 * Answers from the fill-in page. Only open tasks of this (active) checklist take an answer: Yes completes the task,
 * No records a reason and stays open. Texts, completed tasks and unknown task ids in the list are left as stored.
 */
export async function answerChecklist(
  database: DatabaseHandle,
  caller: SessionUser | null,
  id: number,
  input: AnswerChecklistInput,
): Promise<ChecklistDto> {
  const companyId = await database.db.transaction().execute(async (trx) => {
    if (database.engine === 'postgres') await lockChecklist(trx, id);
    const row = await findChecklist(trx, id, caller?.companyId ?? null);
    if (!row || !row.is_active) throw notFound(CHECKLIST_NOT_FOUND);

    const answers = new Map(input.tasks.map((t) => [t.id, t]));
    const now = nowIso();
    let answered = 0;
    for (const task of await listTasks(trx, [id])) {
      const answer = answers.get(task.id);
      if (!answer || task.completed) continue;
      const by = answer.completed_by?.trim() || input.filled_out_by;
      if (answer.completed === true) {
        await updateTask(trx, id, task.id, {
          completed: 1,
          completed_by: by,
          completed_at: now,
          reason: null,
        });
        answered += 1;
        continue;
      }
      const reason = answer.reason?.trim() ?? '';
      if (reason !== '' && reason !== (task.reason ?? '')) {
        await updateTask(trx, id, task.id, { reason, completed_by: by, completed_at: now });
        answered += 1;
      }
    }
    if (answered > 0) {
      await updateChecklist(trx, id, { filledOutBy: input.filled_out_by });
      await recordEvent(trx, {
        companyId: row.company_id,
        userId: caller?.id ?? null,
        actor: input.filled_out_by,
        kind: 'checklist.answered',
        entityType: 'checklist',
        entityId: id,
        warehouseId: row.warehouse_id,
      });
    }
    return row.company_id;
  });
  return loadChecklist(database.db, id, companyId);
}
