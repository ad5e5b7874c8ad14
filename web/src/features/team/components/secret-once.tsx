import type { FormEvent, ReactNode } from 'react';
import { Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ErrorList } from '@/components/ui/error-list';
import { errorMessages } from '@/lib/api-client';
import { copyText } from '@/lib/copy-text';

/**
 * A value as it is shown once (a token's secret, a webhook's signing secret, a one-time link): the value, a copy
 * button and the note that says what to do with it.
 */
export function SecretOnce({
  label,
  secret,
  note,
  copyLabel = `Copy ${label.toLowerCase()}`,
  copied = 'Copied',
  failed = 'It could not be copied; select it and copy it by hand.',
  testId = 'secret-once',
}: {
  label: string;
  secret: string;
  note: ReactNode;
  copyLabel?: string;
  copied?: string;
  failed?: string;
  testId?: string;
}) {
  return (
    <div className="space-y-2 rounded-lg border border-accent/30 bg-accent/5 p-3" role="status">
      <p className="text-sm font-medium text-slate-700">{label}</p>
      <div className="flex gap-2">
        <input
          readOnly
          value={secret}
          aria-label={label}
          data-testid={testId}
          onFocus={(e) => e.currentTarget.select()}
          className="w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-xs text-slate-800"
        />
        <Button
          variant="secondary"
          onClick={() => void copyText(secret, { copied, failed })}
          aria-label={copyLabel}
        >
          <Copy className="h-4 w-4" aria-hidden /> Copy
        </Button>
      </div>
      <p className="text-xs text-slate-600">{note}</p>
    </div>
  );
}

/**
 * The dialog that makes something with a secret (an API token, a webhook endpoint): first its form (the fields are
 * the children), then, once it is made, its secret shown once and a Done button. `onOpenChange(false)` closes it from
 * Cancel and Done as from the dialog's own close; the caller forgets what was typed and made there.
 */
export function CreateWithSecretDialog({
  open,
  onOpenChange,
  title,
  description,
  secret,
  mutation,
  submit,
  onSubmit,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** the form's title, which also names the form, and the title once the secret is shown */
  title: { form: string; secret: string };
  description: { form: string; secret: string };
  /** the made thing's secret with its label and what to do with it; null while the form is shown */
  secret: { label: string; value: string; note: ReactNode } | null;
  mutation: { isPending: boolean; isError: boolean; error: unknown };
  /** the submit button's label, and its label while the request runs */
  submit: { idle: string; pending: string };
  onSubmit: () => void;
  children: ReactNode;
}) {
  function send(event: FormEvent) {
    event.preventDefault();
    onSubmit();
  }
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={secret ? title.secret : title.form}
      description={secret ? description.secret : description.form}
    >
      {secret ? (
        <div className="space-y-4">
          <SecretOnce label={secret.label} secret={secret.value} note={secret.note} />
          <div className="flex justify-end">
            <Button onClick={() => onOpenChange(false)}>Done</Button>
          </div>
        </div>
      ) : (
        <form onSubmit={send} noValidate aria-label={title.form} className="space-y-4">
          {children}
          {mutation.isError && <ErrorList messages={errorMessages(mutation.error)} />}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="secondary" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={mutation.isPending}>
              {mutation.isPending ? submit.pending : submit.idle}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
