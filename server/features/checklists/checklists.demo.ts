import { DEFAULT_CHECKLIST_TASKS } from '@domain/schemas/checklist.schema';
import type { Db } from '../../db/database';
import { nowIso } from '../../db/database';
import { buildChecklist } from './checklists.factories';
import { updateChecklist } from './checklists.repo';

const DEMO_FILLER = 'Sam Ortiz';

/** An active cleaning checklist for the first demo warehouse, with its first task already answered. */
export async function seedDemoChecklists(db: Db, companyId: number, warehouseIds: number[]): Promise<void> {
  const warehouseId = warehouseIds[0];
  if (warehouseId === undefined) return;
  const now = nowIso();
  const checklist = await buildChecklist(db, {
    companyId,
    warehouseId,
    description: 'End-of-day cleaning round. Answer each task as you finish it.',
    tasks: DEFAULT_CHECKLIST_TASKS.map((text, i) =>
      i === 0 ? { text, completed: true, completedBy: DEMO_FILLER, completedAt: now } : text,
    ),
  });
  await updateChecklist(db, companyId, checklist.id, { filledOutBy: DEMO_FILLER });
}
