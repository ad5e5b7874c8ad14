import { CheckCircle2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { ContactSendError, useContactSettings, useSendContactMessage } from '../../api/contact';
import { Button } from '../../components/ui/button';
import { ErrorList } from '../../components/ui/error-list';
import { errorMessages } from '../../lib/api-client';
import { useFormIssues } from '../../lib/use-form-issues';
import { TextArea, TextInput } from '../../components/ui/form-field';

type FieldName = 'name' | 'company' | 'email' | 'message';

/** The schema (and zod with it) loads when someone starts on the form, so the landing page itself stays light. */
const loadSchema = () =>
  import('@domain/schemas/contact.schema').then((module) => module.ContactMessageSchema);

export function ContactForm() {
  const settings = useContactSettings();
  const send = useSendContactMessage(settings.data?.formId);
  const issues = useFormIssues();
  const fieldErrors: Partial<Record<FieldName, string>> = issues.byField;
  const [sent, setSent] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = Object.fromEntries(new FormData(form));
    const message = issues.check(await loadSchema(), values);
    if (!message) return;
    send.mutate(message, {
      onSuccess: () => {
        form.reset();
        setSent(true);
      },
    });
  }

  if (sent) {
    return (
      <div role="status" className="rounded-xl bg-white p-8 text-center shadow-sm">
        <CheckCircle2 className="mx-auto h-10 w-10 text-success" aria-hidden />
        <h3 className="mt-3 text-xl font-semibold text-primary">Thank you!</h3>
        <p className="mt-2 text-slate-600">We received your message and will get back to you shortly.</p>
        <Button variant="secondary" className="mt-6" onClick={() => setSent(false)}>
          Send another message
        </Button>
      </div>
    );
  }

  const sendErrors = send.isError
    ? send.error instanceof ContactSendError
      ? send.error.messages
      : errorMessages(send.error)
    : [];

  const field = (name: FieldName) => ({
    name,
    'aria-invalid': fieldErrors[name] ? true : undefined,
    'aria-describedby': fieldErrors[name] ? `contact-${name}-error` : undefined,
  });
  const fieldError = (name: FieldName) =>
    fieldErrors[name] ? (
      <span id={`contact-${name}-error`} className="mt-1 block text-sm text-danger">
        {fieldErrors[name]}
      </span>
    ) : null;

  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      onFocus={() => void loadSchema()}
      noValidate
      aria-label="Contact us"
      className="space-y-4 rounded-xl bg-white p-6 shadow-sm sm:p-8"
    >
      <ErrorList messages={sendErrors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <label className="block">
          <span className="mb-1 block text-sm font-medium text-slate-700">Name</span>
          <TextInput {...field('name')} required autoComplete="name" maxLength={100} />
          {fieldError('name')}
        </label>
        <label className="block">
          <span className="mb-1 block text-sm font-medium text-slate-700">
            Company <span className="font-normal text-slate-600">(optional)</span>
          </span>
          <TextInput {...field('company')} autoComplete="organization" maxLength={100} />
          {fieldError('company')}
        </label>
      </div>
      <label className="block">
        <span className="mb-1 block text-sm font-medium text-slate-700">Email</span>
        <TextInput {...field('email')} type="email" required autoComplete="email" maxLength={255} />
        {fieldError('email')}
      </label>
      <label className="block">
        <span className="mb-1 block text-sm font-medium text-slate-700">How can we help?</span>
        <TextArea {...field('message')} required rows={4} maxLength={5000} />
        {fieldError('message')}
      </label>
      <Button type="submit" disabled={send.isPending || settings.isPending}>
        {send.isPending ? 'Sending...' : 'Send message'}
      </Button>
    </form>
  );
}
