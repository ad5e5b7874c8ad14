import type { ChecklistDto, ChecklistTaskDto } from '../../../domain/schemas/checklist.schema';
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

export function presentChecklist(row: ChecklistRow, tasks: readonly ChecklistTaskRow[]): ChecklistDto {
  return {
    id: row.id,
    description: row.description,
    warehouse_id: row.warehouse_id,
    warehouseName: row.warehouse_name,
    is_active: Boolean(row.is_active),
    created_at: row.created_at,
    filled_out_by: row.filled_out_by,
    tasks: tasks.filter((t) => t.checklist_id === row.id).map(presentTask),
  };
}
