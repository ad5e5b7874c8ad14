import { CheckCircle2, CircleAlert, ClipboardX, ThumbsDown, ThumbsUp } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { warehouseNameFromChecklistSlug } from '@domain/rules/text';
import {
  type AnswerChecklistInput,
  type ChecklistDto,
  type ChecklistResponseInput,
  type ChecklistTaskDto,
  NAME_REQUIRED,
} from '@domain/schemas/checklist.schema';
import { CHECKLIST_ERRORS, useActiveChecklist, useAnswerChecklist } from '@/api/checklists';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessages } from '@/lib/api-client';
import { ChecklistFrame } from '../components/checklist-frame';
import { ResponseDialog } from '../components/response-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadFailed } from '@/components/ui/error-list';
import { TextInput } from '@/components/ui/form-field';
import { readRemembered, remember } from '@/lib/remembered';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useFormat } from '@/lib/format';
import { startFloorOutbox } from '@/lib/outbox/floor-outbox';

const CHECKLIST_NAME_KEY = 'warehouse-manager.checklist-name';

/** The whole task list (ids only) with one answer applied, as the server takes it. */
function answerBody(
  checklist: ChecklistDto,
  taskId: number,
  response: ChecklistResponseInput,
  name: string,
): AnswerChecklistInput {
  return {
    filled_out_by: name,
    tasks: checklist.tasks.map((t) => {
      if (t.id !== taskId) return { id: t.id };
      if (response.answer === 'yes') {
        return {
          id: t.id,
          completed: true,
          completed_by: response.someoneElse ? response.otherName : name,
          reason: null,
        };
      }
      return { id: t.id, completed: false, completed_by: name, reason: response.reason };
    }),
  };
}

function TaskRow({
  task,
  canAnswer,
  onAnswer,
}: {
  task: ChecklistTaskDto;
  canAnswer: boolean;
  onAnswer: (answer: 'yes' | 'no') => void;
}) {
  const format = useFormat();
  if (task.completed) {
    return (
      <li
        className="flex items-start gap-3 rounded-xl border border-slate-200 bg-slate-50 p-4"
        aria-label={task.text}
      >
        <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0 text-success" aria-hidden />
        <div className="min-w-0">
          <p className="font-medium wrap-anywhere text-slate-600 line-through decoration-slate-400">
            {task.text}
          </p>
          <p className="mt-1 text-sm text-slate-600">
            Completed by {task.completed_by || 'Unknown'}
            {task.completed_at && (
              <span className="text-slate-600"> · {format.dateTime(task.completed_at)}</span>
            )}
          </p>
        </div>
      </li>
    );
  }
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" aria-label={task.text}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="font-medium wrap-anywhere text-slate-800">{task.text}</p>
        <div className="flex shrink-0 gap-2">
          <Button
            variant="secondary"
            className="min-w-24 border-emerald-300! text-emerald-800! hover:bg-emerald-50!"
            disabled={!canAnswer}
            onClick={() => onAnswer('yes')}
            aria-label={`Yes: ${task.text}`}
          >
            <ThumbsUp className="h-4 w-4" aria-hidden /> Yes
          </Button>
          <Button
            variant="secondary"
            className="min-w-24 border-red-300! text-red-700! hover:bg-red-50!"
            disabled={!canAnswer}
            onClick={() => onAnswer('no')}
            aria-label={`No: ${task.text}`}
          >
            <ThumbsDown className="h-4 w-4" aria-hidden /> No
          </Button>
        </div>
      </div>
      {task.reason && (
        <p className="mt-3 flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <CircleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          <span>
            Not done: {task.reason}
            {task.completed_by && <span className="text-amber-700"> ({task.completed_by})</span>}
          </span>
        </p>
      )}
    </li>
  );
}

function FillIn({
  checklist,
  slug,
  linkKey,
}: {
  checklist: ChecklistDto;
  slug: string;
  linkKey: string | null;
}) {
  // the name is remembered on this device, so staff type it once
  const [name, setName] = useState(() => readRemembered(CHECKLIST_NAME_KEY));
  const [nameTouched, setNameTouched] = useState(false);
  const [responding, setResponding] = useState<{ task: ChecklistTaskDto; answer: 'yes' | 'no' } | null>(null);
  const answer = useAnswerChecklist(slug, linkKey);
  const nameId = useId();
  const trimmedName = name.trim();
  const open = checklist.tasks.filter((t) => !t.completed).length;

  function submit(response: ChecklistResponseInput) {
    if (!responding) return;
    answer.mutate(
      { id: checklist.id, answer: answerBody(checklist, responding.task.id, response, trimmedName) },
      {
        onSuccess: (sent) => {
          setResponding(null);
          if (sent.queued)
            toast.info('Answer kept on this device: not synced yet. It is sent once the connection is back.');
          else toast.success('Answer saved.');
        },
      },
    );
  }

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-6 sm:px-6">
      <h1 className="text-2xl font-bold text-primary">{checklist.warehouseName} Checklist</h1>
      {checklist.description && (
        <p className="mt-2 whitespace-pre-wrap wrap-anywhere text-slate-600">{checklist.description}</p>
      )}

      <div className="mt-6 rounded-xl bg-white p-4 shadow-sm">
        <label htmlFor={nameId} className="mb-1 block text-sm font-medium text-slate-700">
          Your Name <span className="text-danger">*</span>
        </label>
        <TextInput
          id={nameId}
          value={name}
          onValue={(text) => {
            setName(text);
            remember(CHECKLIST_NAME_KEY, text.trim());
          }}
          onBlur={() => setNameTouched(true)}
          required
          maxLength={100}
          autoComplete="name"
          aria-invalid={nameTouched && !trimmedName ? true : undefined}
          aria-describedby={`${nameId}-hint`}
          className="sm:max-w-sm"
        />
        <p
          id={`${nameId}-hint`}
          className={`mt-1 text-sm ${nameTouched && !trimmedName ? 'text-danger' : 'text-slate-500'}`}
        >
          {nameTouched && !trimmedName ? NAME_REQUIRED : 'Enter your name to answer the tasks.'}
        </p>
      </div>

      <div className="mt-6 mb-3 flex items-baseline justify-between">
        <h2 className="text-lg font-semibold text-primary">Tasks</h2>
        {checklist.tasks.length > 0 && (
          <p className="text-sm text-slate-600">
            {checklist.tasks.length - open} of {checklist.tasks.length} done
          </p>
        )}
      </div>
      {checklist.tasks.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-slate-500">
          No tasks found for this checklist.
        </p>
      ) : (
        <ul className="space-y-3">
          {checklist.tasks.map((task) => (
            <TaskRow
              key={task.id}
              task={task}
              canAnswer={trimmedName !== ''}
              onAnswer={(a) => {
                answer.reset();
                setResponding({ task, answer: a });
              }}
            />
          ))}
        </ul>
      )}

      {responding && (
        <ResponseDialog
          key={`${responding.task.id}-${responding.answer}`}
          task={responding.task}
          answer={responding.answer}
          fillerName={trimmedName}
          pending={answer.isPending}
          serverErrors={answer.isError ? [CHECKLIST_ERRORS.edit, ...errorMessages(answer.error)] : []}
          onSubmit={submit}
          onClose={() => setResponding(null)}
        />
      )}
    </div>
  );
}

/**
 * `/{warehouse-name}-checklist?key=...`: floor staff answer the warehouse's active checklist, signed out through
 * the link's key, or signed in as the company's staff.
 */
export default function ChecklistFillPage({ slug }: { slug: string }) {
  const [searchParams] = useSearchParams();
  const linkKey = searchParams.get('key');
  const checklist = useActiveChecklist(slug, linkKey);
  const nameFromLink = warehouseNameFromChecklistSlug(slug);
  useDocumentTitle(`${nameFromLink} Checklist`);
  // answers kept on this device while offline are sent from here too (signed out, the app's chrome is not open)
  const queryClient = useQueryClient();
  useEffect(() => startFloorOutbox(() => void queryClient.invalidateQueries()), [queryClient]);

  let content;
  if (checklist.isPending) content = <Spinner label="Loading checklist..." />;
  else if (checklist.isError) {
    content = (
      <LoadFailed
        className="mx-auto max-w-3xl px-4 py-8 sm:px-6"
        messages={[CHECKLIST_ERRORS.fetchActive, ...errorMessages(checklist.error)]}
        onRetry={() => void checklist.refetch()}
      />
    );
  } else if (checklist.data === null) {
    content = (
      <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
        <EmptyState icon={ClipboardX} title="Checklist not found" titleAs="h1">
          No active checklist for “{nameFromLink}” opens with this link. Please check that you have the whole
          link, or ask the office for the current one.
        </EmptyState>
      </div>
    );
  } else content = <FillIn checklist={checklist.data} slug={slug} linkKey={linkKey} />;

  return <ChecklistFrame>{content}</ChecklistFrame>;
}
