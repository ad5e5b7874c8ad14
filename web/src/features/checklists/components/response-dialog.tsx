import { type FormEvent, useState } from 'react';
import { ChecklistResponseSchema, type ChecklistResponseInput } from '@domain/schemas/checklist.schema';
import { FormButtons } from '@/components/ui/form-buttons';
import { Dialog } from '@/components/ui/dialog';
import { ErrorList } from '@/components/ui/error-list';
import { FormField, TextArea, TextInput } from '@/components/ui/form-field';
import { useFormIssues } from '@/lib/use-form-issues';

type Answer = ChecklistResponseInput['answer'];

/** The 'Checklist Response' modal: who answers, the answer, and for a No the reason. */
export function ResponseDialog({
  task,
  answer,
  fillerName,
  pending,
  serverErrors,
  onSubmit,
  onClose,
}: {
  task: { text: string } | null;
  answer: Answer;
  fillerName: string;
  pending: boolean;
  serverErrors: string[];
  onSubmit: (response: ChecklistResponseInput) => void;
  onClose: () => void;
}) {
  const [someoneElse, setSomeoneElse] = useState(false);
  const [otherName, setOtherName] = useState('');
  const [reason, setReason] = useState('');
  const issues = useFormIssues();
  const errors: Partial<Record<'otherName' | 'reason', string>> = issues.byField;

  function submit(event: FormEvent) {
    event.preventDefault();
    const response = issues.check(ChecklistResponseSchema, {
      answer,
      someoneElse: answer === 'yes' && someoneElse,
      otherName,
      reason,
    });
    if (response) onSubmit(response);
  }

  return (
    <Dialog
      open={task !== null}
      onOpenChange={(open) => {
        if (!open && !pending) onClose();
      }}
      title="Checklist Response"
      description={task?.text}
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-lg bg-slate-50 px-4 py-3 text-sm">
          <dt className="text-slate-500">Name</dt>
          <dd className="font-semibold text-slate-800">{fillerName}</dd>
          <dt className="text-slate-500">Answer</dt>
          <dd className={`font-semibold ${answer === 'yes' ? 'text-emerald-700' : 'text-danger'}`}>
            {answer === 'yes' ? 'Yes' : 'No'}
          </dd>
        </dl>

        {answer === 'yes' && (
          <div className="space-y-2">
            <label className="flex min-h-10 cursor-pointer items-center gap-3 text-sm text-slate-700 pointer-coarse:min-h-11">
              <input
                type="checkbox"
                checked={someoneElse}
                onChange={(e) => setSomeoneElse(e.target.checked)}
                className="h-5 w-5 rounded border-slate-300 accent-accent"
              />
              Someone else did it
            </label>
            {someoneElse && (
              <FormField label="Who did it?" error={errors.otherName}>
                <TextInput value={otherName} onValue={setOtherName} maxLength={100} autoComplete="off" />
              </FormField>
            )}
          </div>
        )}

        {answer === 'no' && (
          <FormField label="Why was it not done?" error={errors.reason}>
            <TextArea
              value={reason}
              onValue={setReason}
              rows={3}
              maxLength={2000}
              placeholder="Please enter at least 15 characters"
            />
          </FormField>
        )}

        <ErrorList messages={serverErrors} />
        <FormButtons submit="Submit" busy="Submitting..." pending={pending} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
