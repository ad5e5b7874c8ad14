import type { Db } from '../../db/database';
import { nowIso } from '../../db/database';
import { newChecklistKey } from './checklist-key';
import { insertChecklist, insertTasks, listTasks, type NewTask } from './checklists.repo';

export interface BuiltChecklist {
  id: number;
  /** the fill-in link's secret */
  linkKey: string;
  /** the tasks' ids in their order */
  taskIds: number[];
}

/** A cleaning checklist of a warehouse (active unless told), its tasks numbered in the order given. */
export async function buildChecklist(
  db: Db,
  options: {
    companyId: number;
    warehouseId: number;
    tasks: readonly (string | Omit<NewTask, 'position'>)[];
    description?: string;
    isActive?: boolean;
  },
): Promise<BuiltChecklist> {
  const linkKey = newChecklistKey();
  const id = await insertChecklist(db, {
    companyId: options.companyId,
    warehouseId: options.warehouseId,
    description: options.description ?? 'Cleaning round',
    isActive: options.isActive ?? true,
    linkKey,
    createdAt: nowIso(),
  });
  await insertTasks(
    db,
    options.companyId,
    id,
    options.tasks.map((task, i) => ({
      ...(typeof task === 'string' ? { text: task } : task),
      position: i + 1,
    })),
  );
  const taskIds = (await listTasks(db, options.companyId, [id])).map((task) => task.id);
  return { id, linkKey, taskIds };
}
