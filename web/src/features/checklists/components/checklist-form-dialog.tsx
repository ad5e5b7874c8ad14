import { Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import {
  type ChecklistDto,
  CreateChecklistSchema,
  DEFAULT_CHECKLIST_TASKS,
  MAX_TASKS,
} from '@domain/schemas/checklist.schema';
import { Button } from '@/components/ui/button';
import { FormButtons } from '@/components/ui/form-buttons';
import { Dialog } from '@/components/ui/dialog';
import { ErrorList } from '@/components/ui/error-list';
import { ToggleSwitch } from '@/components/ui/toggle-switch';
import { TextArea, TextInput, inputClass } from '@/components/ui/form-field';
import { NamedOptions } from '@/components/ui/named-options';
import { useFormIssues } from '@/lib/use-form-issues';

export interface DraftTask {
  /** stored tasks keep their id; new ones get a local key only */
  id?: number;
  key: string;
  text: string;
  completed: boolean;
}

export interface ChecklistDraft {
  warehouse_id: number | '';
  description: string;
  is_active: boolean;
  tasks: DraftTask[];
}

let localKey = 0;
const newKey = () => `new-${++localKey}`;

export function draftOf(checklist: ChecklistDto | null): ChecklistDraft {
  if (!checklist) {
    return {
      warehouse_id: '',
      description: '',
      is_active: true,
      tasks: DEFAULT_CHECKLIST_TASKS.map((text) => ({ key: newKey(), text, completed: false })),
    };
  }
  return {
    warehouse_id: checklist.warehouse_id,
    description: checklist.description,
    is_active: checklist.is_active,
    tasks: checklist.tasks.map((t) => ({
      id: t.id,
      key: `task-${t.id}`,
      text: t.text,
      completed: t.completed,
    })),
  };
}

/** 'New Checklist Info' (adding) and 'Edit Checklist' (editing): warehouse, tasks, description. */
export function ChecklistFormDialog({
  mode,
  initial,
  warehouses,
  pending,
  serverErrors,
  onSubmit,
  onClose,
  onWarehouseChange,
}: {
  mode: 'add' | 'edit';
  initial: ChecklistDraft;
  warehouses: { id: number; name: string }[];
  pending: boolean;
  serverErrors: string[];
  onSubmit: (draft: ChecklistDraft) => void;
  onClose: () => void;
  /** another warehouse was chosen: errors about the previous one (e.g. it already has a checklist) no longer apply */
  onWarehouseChange?: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [newTask, setNewTask] = useState('');
  const issues = useFormIssues();
  const ids = { warehouse: useId(), description: useId(), newTask: useId() };

  const update = (changes: Partial<ChecklistDraft>) => setDraft((d) => ({ ...d, ...changes }));
  const setTask = (key: string, changes: Partial<DraftTask>) =>
    update({ tasks: draft.tasks.map((t) => (t.key === key ? { ...t, ...changes } : t)) });

  function addTask() {
    const text = newTask.trim();
    if (!text || draft.tasks.length >= MAX_TASKS) return;
    update({ tasks: [...draft.tasks, { key: newKey(), text, completed: false }] });
    setNewTask('');
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const checked = issues.check(CreateChecklistSchema, {
      warehouse_id: draft.warehouse_id,
      description: draft.description,
      tasks: draft.tasks.map((t) => t.text),
    });
    if (checked) onSubmit(draft);
  }

  return (
    <Dialog
      open
      wide
      onOpenChange={(open) => {
        if (!open && !pending) onClose();
      }}
      title={mode === 'add' ? 'New Checklist Info' : 'Edit Checklist'}
    >
      <form onSubmit={submit} noValidate className="space-y-5">
        <ErrorList messages={[...issues.messages, ...serverErrors]} />
        <div>
          <label htmlFor={ids.warehouse} className="mb-1 block text-sm font-medium text-slate-700">
            Warehouse <span className="text-danger">*</span>
          </label>
          <select
            id={ids.warehouse}
            value={draft.warehouse_id}
            onChange={(e) => {
              update({ warehouse_id: e.target.value === '' ? '' : Number(e.target.value) });
              issues.clear();
              onWarehouseChange?.();
            }}
            required
            className={inputClass}
          >
            <option value="">Select a warehouse</option>
            <NamedOptions items={warehouses} />
          </select>
        </div>

        <fieldset>
          <legend className="mb-2 text-sm font-medium text-slate-700">Tasks</legend>
          {draft.tasks.length === 0 ? (
            <p className="rounded-lg border border-dashed border-slate-300 px-3 py-4 text-center text-sm text-slate-500">
              No tasks yet. Add one below.
            </p>
          ) : (
            <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
              {draft.tasks.map((task) => (
                <li key={task.key} className="flex items-center gap-3 px-3 py-2">
                  {mode === 'edit' && (
                    <input
                      type="checkbox"
                      checked={task.completed}
                      onChange={(e) => setTask(task.key, { completed: e.target.checked })}
                      aria-label={`Done: ${task.text}`}
                      className="h-5 w-5 shrink-0 rounded border-slate-300 accent-accent pointer-coarse:h-11 pointer-coarse:w-11"
                    />
                  )}
                  <span
                    className={`min-w-0 flex-1 text-sm ${task.completed ? 'text-slate-600 line-through' : 'text-slate-700'}`}
                  >
                    {task.text}
                  </span>
                  <button
                    type="button"
                    onClick={() => update({ tasks: draft.tasks.filter((t) => t.key !== task.key) })}
                    aria-label={`Remove task: ${task.text}`}
                    className="rounded-md p-2 text-slate-500 hover:bg-red-50 hover:text-danger focus-visible:outline-2 focus-visible:outline-danger"
                  >
                    <Trash2 className="h-4 w-4" aria-hidden />
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div className="mt-2 flex gap-2">
            <label htmlFor={ids.newTask} className="sr-only">
              New task
            </label>
            <TextInput
              id={ids.newTask}
              value={newTask}
              onValue={setNewTask}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  addTask();
                }
              }}
              maxLength={300}
              placeholder="Add a task..."
            />
            <Button
              variant="secondary"
              className="shrink-0 whitespace-nowrap"
              onClick={addTask}
              disabled={newTask.trim() === ''}
            >
              <Plus className="h-4 w-4" aria-hidden /> Add Task
            </Button>
          </div>
        </fieldset>

        <div>
          <label htmlFor={ids.description} className="mb-1 block text-sm font-medium text-slate-700">
            Description
          </label>
          <TextArea
            id={ids.description}
            value={draft.description}
            onValue={(description) => update({ description })}
            rows={3}
            maxLength={2000}
          />
        </div>

        {mode === 'edit' && (
          <div className="rounded-lg border border-slate-200 px-3 py-2">
            <ToggleSwitch
              label="Active"
              hint="Floor staff can fill in only the active checklist of a warehouse."
              checked={draft.is_active}
              onCheckedChange={(is_active) => update({ is_active })}
            />
          </div>
        )}

        <FormButtons
          submit={mode === 'add' ? 'Add Checklist' : 'Save Changes'}
          pending={pending}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
