import { z } from 'zod';
import { MAX_ROW_ID, safeName, safeText } from './form-values';

export const DEFAULT_CHECKLIST_TASKS = [
  'Are all incoming/outgoing shipments labeled?',
  "Are all 'tools of the trade' boards complete?",
  'Is equipment put back in its designated location?',
  'Is trash picked up and garbages emptied?',
  'Is everything swept and organized?',
] as const;

export const MIN_REASON_LENGTH = 15;
export const NAME_REQUIRED = 'Name is required.';
export const REASON_TOO_SHORT = 'Reason must be at least 15 characters.';
export const SOMEONE_ELSE_NAME_REQUIRED = 'Please enter a name for "someone else".';
export const WAREHOUSE_REQUIRED = 'Warehouse is required.';
export const ACTIVE_CHECKLIST_EXISTS = 'An active checklist for this warehouse already exists.';

export const MAX_TASKS = 100;
const MAX_TASK_TEXT = 300;
const MAX_DESCRIPTION = 2000;
const MAX_PERSON_NAME = 100;
const MAX_REASON = 2000;

const id = z.coerce.number().int().positive().max(MAX_ROW_ID);

const warehouseId = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.coerce
    .number({ error: WAREHOUSE_REQUIRED })
    .int(WAREHOUSE_REQUIRED)
    .positive(WAREHOUSE_REQUIRED)
    .max(MAX_ROW_ID),
);

const description = safeText(
  'Description',
  z
    .string({ error: 'Description must be text.' })
    .trim()
    .max(MAX_DESCRIPTION, `Description must be at most ${MAX_DESCRIPTION} characters.`),
);

const taskText = safeText(
  'A task',
  z
    .string({ error: 'Task text must be text.' })
    .trim()
    .max(MAX_TASK_TEXT, `A task must be at most ${MAX_TASK_TEXT} characters.`),
);

const flag = z.preprocess(
  (v) => (v === 1 || v === 'true' ? true : v === 0 || v === 'false' ? false : v),
  z.boolean({ error: 'Must be true or false.' }),
);

/** POST /api/checklists/: tasks may be plain texts or `{ text }`; blank ones are dropped. */
export const CreateChecklistSchema = z.object({
  description: z.preprocess((v) => v ?? '', description),
  warehouse_id: warehouseId,
  tasks: z
    .array(z.union([taskText, z.object({ text: taskText })]), { error: 'Tasks must be a list.' })
    .max(MAX_TASKS, `A checklist can have at most ${MAX_TASKS} tasks.`)
    .default([])
    .transform((tasks) => tasks.map((t) => (typeof t === 'string' ? t : t.text)).filter((t) => t !== '')),
});
export type CreateChecklistInput = z.infer<typeof CreateChecklistSchema>;

/**
 * PATCH /api/checklists/{id} by a signed-in user editing the checklist. `tasks` is the whole new list:
 * a task with an id keeps its answers (and may be toggled), one without an id is added, a missing one is removed.
 */
export const EditChecklistSchema = z.object({
  description: description.optional(),
  warehouse_id: warehouseId.optional(),
  is_active: flag.optional(),
  tasks: z
    .array(z.object({ id: id.optional(), text: taskText, completed: flag.optional() }), {
      error: 'Tasks must be a list.',
    })
    .max(MAX_TASKS, `A checklist can have at most ${MAX_TASKS} tasks.`)
    .transform((tasks) => tasks.filter((t) => t.text !== ''))
    .optional(),
});
export type EditChecklistInput = z.infer<typeof EditChecklistSchema>;

const personName = safeName(
  'A name',
  z.string().trim().max(MAX_PERSON_NAME, `A name must be at most ${MAX_PERSON_NAME} characters.`),
);

/**
 * PATCH /api/checklists/{id} from the fill-in page (signed in or not): the whole task list and who fills it out.
 * Only answers to open tasks count; task texts and anything else in the body are not taken from it.
 */
export const AnswerChecklistSchema = z.object({
  filled_out_by: safeName(
    'Name',
    z.string({ error: NAME_REQUIRED }).trim().min(1, NAME_REQUIRED).max(MAX_PERSON_NAME),
  ),
  tasks: z
    .array(
      z
        .object({
          id,
          completed: flag.optional(),
          completed_by: personName.nullish(),
          reason: safeText(
            'A reason',
            z.string().max(MAX_REASON, `A reason must be at most ${MAX_REASON} characters.`),
          ).nullish(),
        })
        .superRefine((task, ctx) => {
          const reason = task.reason?.trim() ?? '';
          if (task.completed !== true && reason !== '' && reason.length < MIN_REASON_LENGTH) {
            ctx.addIssue({ code: 'custom', path: ['reason'], message: REASON_TOO_SHORT });
          }
        }),
      { error: 'Tasks must be a list.' },
    )
    .max(MAX_TASKS * 2),
});
export type AnswerChecklistInput = z.infer<typeof AnswerChecklistSchema>;

/** The Checklist Response modal: who did it, and for a No, why not. */
export const ChecklistResponseSchema = z
  .object({
    answer: z.enum(['yes', 'no']),
    someoneElse: z.boolean(),
    otherName: z.string().trim().max(MAX_PERSON_NAME),
    reason: z.string().trim().max(MAX_REASON),
  })
  .superRefine((v, ctx) => {
    if (v.someoneElse && v.otherName === '')
      ctx.addIssue({ code: 'custom', path: ['otherName'], message: SOMEONE_ELSE_NAME_REQUIRED });
    if (v.answer === 'no' && v.reason.length < MIN_REASON_LENGTH) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: REASON_TOO_SHORT });
    }
  });
export type ChecklistResponseInput = z.infer<typeof ChecklistResponseSchema>;

export interface ChecklistTaskDto {
  id: number;
  text: string;
  completed: boolean;
  completed_by: string | null;
  reason: string | null;
  completed_at: string | null;
}

export interface ChecklistDto {
  id: number;
  description: string;
  warehouse_id: number;
  warehouseName: string;
  is_active: boolean;
  created_at: string;
  filled_out_by: string | null;
  tasks: ChecklistTaskDto[];
  /**
   * For the company's signed-in staff only: the fill-in page's address within the site, with the link's secret
   * key (`/{warehouse}-checklist?key=...`); null when no key has been issued yet.
   */
  fill_in_url?: string | null;
  /** the same link whole, at the product's public address (PUBLIC_URL when set), to copy and hand out */
  fill_in_link?: string;
}

// Answer schemas (decision 045), typed to the DTOs.
export const ChecklistDtoSchema: z.ZodType<ChecklistDto> = z.object({
  id: z.number().int(),
  description: z.string(),
  warehouse_id: z.number().int(),
  warehouseName: z.string(),
  is_active: z.boolean(),
  created_at: z.string(),
  filled_out_by: z.string().nullable(),
  tasks: z.array(
    z.object({
      id: z.number().int(),
      text: z.string(),
      completed: z.boolean(),
      completed_by: z.string().nullable(),
      reason: z.string().nullable(),
      completed_at: z.string().nullable(),
    }),
  ),
  fill_in_url: z.string().nullable().optional(),
  fill_in_link: z.string().optional(),
});

/** `?key=`: the fill-in link's secret (an `X-Checklist-Key` header does as well); anything but text is no key. */
export const ChecklistKeyQuerySchema = z.object({
  key: z
    .preprocess((v) => (typeof v === 'string' && v !== '' ? v : undefined), z.string().optional())
    .describe("the fill-in link's secret key"),
});
