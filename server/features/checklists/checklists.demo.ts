import { DEFAULT_CHECKLIST_TASKS } from '../../../domain/schemas/checklist.schema';
import type { Db } from '../../db/database';
import { nowIso } from '../../db/database';
import { newChecklistKey } from './checklist-key';
import { insertChecklist, insertTasks, updateChecklist } from './checklists.repo';

const DEMO_FILLER = 'Sam Ortiz';

/** An active cleaning checklist for the first demo warehouse, with its first task already answered. */
export async function seedDemoChecklists(db: Db, companyId: number, warehouseIds: number[]): Promise<void> {
  const warehouseId = warehouseIds[0];
  if (warehouseId === undefined) return;
  const now = nowIso();
  const checklistId = await insertChecklist(db, {
    companyId,
    warehouseId,
    description: 'End-of-day cleaning round. Answer each task as you finish it.',
    isActive: true,
    linkKey: newChecklistKey(),
    createdAt: now,
  });
  await insertTasks(
    db,
    companyId,
    checklistId,
    DEFAULT_CHECKLIST_TASKS.map((text, i) =>
      i === 0
        ? { text, position: 1, completed: true, completedBy: DEMO_FILLER, completedAt: now }
        : { text, position: i + 1 },
    ),
  );
  await updateChecklist(db, checklistId, { filledOutBy: DEMO_FILLER });
}
