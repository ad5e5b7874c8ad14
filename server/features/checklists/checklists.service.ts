import {
  ACTIVE_CHECKLIST_EXISTS,
  AnswerChecklistSchema,
  type ChecklistDto,
  type CreateChecklistInput,
  type EditChecklistInput,
} from '@domain/schemas/checklist.schema';
import type { SessionUser } from '@domain/schemas/auth.schema';
import { sameChecklistWarehouse, warehouseSlug } from '@domain/rules/text';
import { type DatabaseHandle, type Db, isUniqueViolation, nowIso } from '../../db/database';
import { recordEvent } from '../../events/event-log.repo';
import { badRequest, conflict, forbidden, notFound, parseInput } from '../../http/errors';
import { keyMatches, newChecklistKey } from './checklist-key';
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
  setChecklistKey,
  updateChecklist,
  updateTask,
} from './checklists.repo';
import { presentChecklist } from './checklists.presenter';
import { requireWarehouse } from '../warehouses/warehouse-access';

export const CHECKLIST_NOT_FOUND = 'Checklist not found.';
export const NO_ACTIVE_CHECKLIST = 'No active checklist found for this warehouse.';
export const FILL_IN_ANSWERS_ONLY =
  'The fill-in link can only answer open tasks; sign in to change the checklist itself.';

async function loadChecklist(db: Db, id: number, companyId: number | null): Promise<ChecklistDto> {
  const row = await findChecklist(db, id, companyId);
  if (!row) throw notFound(CHECKLIST_NOT_FOUND);
  return presentChecklist(row, await listTasks(db, row.company_id, [row.id]), companyId === row.company_id);
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
    companyId,
    rows.map((r) => r.id),
  );
  return rows.map((row) => presentChecklist(row, tasks, true));
}

export async function createChecklist(
  database: DatabaseHandle,
  user: SessionUser,
  input: CreateChecklistInput,
): Promise<ChecklistDto> {
  const id = await refuseSecondActive(() =>
    database.db.transaction().execute(async (trx) => {
      const warehouse = await requireWarehouse(trx, user.companyId, input.warehouse_id);
      if (await activeChecklistIdOfWarehouse(trx, user.companyId, warehouse.id))
        throw conflict(ACTIVE_CHECKLIST_EXISTS);
      const checklistId = await insertChecklist(trx, {
        companyId: user.companyId,
        warehouseId: warehouse.id,
        description: input.description,
        isActive: true,
        linkKey: newChecklistKey(),
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
 * The active checklist of the warehouse named in a fill-in link. The link's key opens it for anyone; the company's
 * signed-in staff need no key. Without either the answer is a 404 that says nothing about what exists, and a
 * warehouse of the same name in another company changes nothing.
 */
export async function activeChecklistByWarehouseName(
  db: Db,
  name: string,
  caller: SessionUser | null,
  key: string | undefined,
): Promise<ChecklistDto> {
  const compact = warehouseSlug(name.replace(/-/g, ' ')).replace(/-/g, '');
  if (!compact) throw notFound(NO_ACTIVE_CHECKLIST);
  const candidates = (await findActiveChecklistsBySlug(db, compact, null)).filter((row) =>
    sameChecklistWarehouse(row.warehouse_name, name),
  );
  const keyed = key === undefined ? undefined : candidates.find((row) => keyMatches(row.link_key, key));
  const own = caller ? candidates.filter((row) => row.company_id === caller.companyId) : [];
  const row = keyed ?? (own.length === 1 ? own[0] : undefined);
  if (!row) throw notFound(NO_ACTIVE_CHECKLIST);
  return presentChecklist(
    row,
    await listTasks(db, row.company_id, [row.id]),
    row.company_id === caller?.companyId,
  );
}

/** Issues a new secret for the checklist's fill-in link; the old link stops working at once. */
export async function renewChecklistKey(db: Db, user: SessionUser, id: number): Promise<ChecklistDto> {
  if (!(await setChecklistKey(db, user.companyId, id, newChecklistKey())))
    throw notFound(CHECKLIST_NOT_FOUND);
  return loadChecklist(db, id, user.companyId);
}

export async function editChecklist(
  database: DatabaseHandle,
  user: SessionUser,
  id: number,
  input: EditChecklistInput,
): Promise<ChecklistDto> {
  await refuseSecondActive(() =>
    database.db.transaction().execute(async (trx) => {
      if (database.engine === 'postgres') await lockChecklist(trx, user.companyId, id);
      const row = await findChecklist(trx, id, user.companyId);
      if (!row) throw notFound(CHECKLIST_NOT_FOUND);

      let warehouseId = row.warehouse_id;
      if (input.warehouse_id !== undefined && input.warehouse_id !== row.warehouse_id) {
        const warehouse = await requireWarehouse(trx, user.companyId, input.warehouse_id);
        warehouseId = warehouse.id;
      }
      const willBeActive = input.is_active ?? Boolean(row.is_active);
      if (willBeActive) {
        const activeId = await activeChecklistIdOfWarehouse(trx, user.companyId, warehouseId);
        if (activeId !== undefined && activeId !== id) throw conflict(ACTIVE_CHECKLIST_EXISTS);
      }
      await updateChecklist(trx, user.companyId, id, {
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
  const stored = new Map((await listTasks(db, user.companyId, [checklistId])).map((t) => [t.id, t]));
  const keptIds = new Set<number>();
  for (const task of tasks) {
    if (task.id === undefined) continue;
    if (!stored.has(task.id)) throw badRequest('A task in the list is not part of this checklist.');
    if (keptIds.has(task.id)) throw badRequest('A task appears twice in the list.');
    keptIds.add(task.id);
  }
  await deleteTasks(
    db,
    user.companyId,
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
    await updateTask(db, user.companyId, checklistId, task.id, changes);
  }
  await insertTasks(db, user.companyId, checklistId, added);
}

const ANSWER_FIELDS = new Set(['filled_out_by', 'tasks']);
const TASK_ANSWER_FIELDS = new Set(['id', 'text', 'completed', 'completed_by', 'reason', 'completed_at']);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * A caller who is not the company's staff may only answer open tasks. Anything else in the body (the description,
 * the warehouse, the active flag, changed task texts, tasks added or left out, a done task reopened) is refused
 * with a 403 rather than silently dropped.
 */
function refuseChangesFromFillIn(body: unknown, stored: readonly ChecklistTaskRow[]): void {
  if (!isRecord(body)) return; // the schema answers 400
  function refuse(what: string): never {
    throw forbidden(`${FILL_IN_ANSWERS_ONLY} (${what})`);
  }
  const extra = Object.keys(body).filter((k) => !ANSWER_FIELDS.has(k));
  if (extra.length > 0) refuse(`it cannot change ${extra.join(', ')}`);
  if (!Array.isArray(body.tasks)) return;
  const byId = new Map(stored.map((t) => [t.id, t]));
  const seen = new Set<number>();
  for (const task of body.tasks) {
    if (!isRecord(task)) continue;
    const unknownField = Object.keys(task).find((k) => !TASK_ANSWER_FIELDS.has(k));
    if (unknownField) refuse(`it cannot change a task's ${unknownField}`);
    const id = typeof task.id === 'string' && /^[0-9]{1,10}$/.test(task.id) ? Number(task.id) : task.id;
    const current = typeof id === 'number' ? byId.get(id) : undefined;
    if (!current) refuse('it cannot add tasks');
    seen.add(current.id);
    if (task.text !== undefined && task.text !== current.text) refuse("it cannot change a task's text");
    const reopens = task.completed === false || task.completed === 0 || task.completed === 'false';
    if (current.completed && reopens) refuse('it cannot reopen a done task');
  }
  if (seen.size < stored.length) refuse('it cannot remove tasks');
}

/**
 * Answers from the fill-in page: by the link's key, or by the company's signed-in staff. Only open tasks of this
 * (active) checklist take an answer: Yes completes the task, No records a reason and stays open.
 */
export async function answerChecklist(
  database: DatabaseHandle,
  caller: SessionUser | null,
  id: number,
  body: unknown,
  key: string | undefined,
): Promise<ChecklistDto> {
  const companyId = await database.db.transaction().execute(async (trx) => {
    if (database.engine === 'postgres') await lockChecklist(trx, null, id);
    const row = await findChecklist(trx, id, null);
    const staff = row !== undefined && caller?.companyId === row.company_id;
    if (!row || !row.is_active || (!staff && !keyMatches(row.link_key, key)))
      throw notFound(CHECKLIST_NOT_FOUND);
    const tasks = await listTasks(trx, row.company_id, [id]);
    if (!staff) refuseChangesFromFillIn(body, tasks);
    const input = parseInput(AnswerChecklistSchema, body);

    const answers = new Map(input.tasks.map((t) => [t.id, t]));
    const now = nowIso();
    let answered = 0;
    for (const task of tasks) {
      const answer = answers.get(task.id);
      if (!answer || task.completed) continue;
      const by = answer.completed_by?.trim() || input.filled_out_by;
      if (answer.completed === true) {
        await updateTask(trx, row.company_id, id, task.id, {
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
        await updateTask(trx, row.company_id, id, task.id, { reason, completed_by: by, completed_at: now });
        answered += 1;
      }
    }
    if (answered > 0) {
      await updateChecklist(trx, row.company_id, id, { filledOutBy: input.filled_out_by });
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
  const row = await findChecklist(database.db, id, companyId);
  if (!row) throw notFound(CHECKLIST_NOT_FOUND);
  return presentChecklist(
    row,
    await listTasks(database.db, companyId, [id]),
    caller?.companyId === companyId,
  );
}
