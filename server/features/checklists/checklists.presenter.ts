import type { ChecklistDto, ChecklistTaskDto } from '@domain/schemas/checklist.schema';
import { fillInPath } from './checklist-key';
import type { ChecklistRow, ChecklistTaskRow } from './checklists.repo';

export function presentTask(row: ChecklistTaskRow): ChecklistTaskDto {
  return {
    id: row.id,
    text: row.text,
    completed: Boolean(row.completed),
    completed_by: row.completed_by,
    reason: row.reason,
    completed_at: row.completed_at,
  };
}

/**
 * A checklist as the API shows it. Only the company's own staff (`staff`) get the fill-in link with its key;
 * a caller who came through the link already holds it.
 */
export function presentChecklist(
  row: ChecklistRow,
  tasks: readonly ChecklistTaskRow[],
  staff: boolean,
): ChecklistDto {
  return {
    id: row.id,
    description: row.description,
    warehouse_id: row.warehouse_id,
    warehouseName: row.warehouse_name,
    is_active: Boolean(row.is_active),
    created_at: row.created_at,
    filled_out_by: row.filled_out_by,
    tasks: tasks.filter((t) => t.checklist_id === row.id).map(presentTask),
    ...(staff && { fill_in_url: fillInPath(row.warehouse_name, row.link_key) }),
  };
}
