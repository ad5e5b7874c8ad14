import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { ErrorList } from '../../components/ui/error-list';
import { api, errorMessages } from '../../lib/api-client';

type Status = 'idle' | 'sending' | 'sent' | 'failed';

const inputClass =
  'w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-800 focus:border-accent focus:ring-2 focus:ring-accent/30 focus:outline-none';

export function ContactForm() {
  const [status, setStatus] = useState<Status>('idle');
  const [errors, setErrors] = useState<string[]>([]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = Object.fromEntries(new FormData(form)) as Record<string, string>;
    const missing = ['name', 'email', 'message'].filter((key) => !data[key]?.trim());
    if (missing.length > 0) {
      setErrors(['Please fill in your name, email and message.']);
      return;
    }
    setStatus('sending');
    setErrors([]);
    try {
      await api.post('/api/contact', data);
      setStatus('sent');
      form.reset();
    } catch (error) {
      setStatus('failed');
      setErrors(errorMessages(error));
    }
  }

  if (status === 'sent') {
    return (
      <div role="status" className="rounded-xl bg-white p-8 text-center shadow-sm">
        <h3 className="text-xl font-semibold text-primary">Thank you!</h3>
        <p className="mt-2 text-slate-600">We received your message and will get back to you shortly.</p>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Contact us" className="space-y-4 rounded-xl bg-white p-6 shadow-sm sm:p-8">
      <ErrorList messages={errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <label className="block">
          <span className="mb-1 block text-sm font-medium text-slate-700">Name</span>
          <input name="name" required autoComplete="name" maxLength={100} className={inputClass} />
        </label>
        <label className="block">
          <span className="mb-1 block text-sm font-medium text-slate-700">Company</span>
          <input name="company" autoComplete="organization" maxLength={100} className={inputClass} />
        </label>
      </div>
      <label className="block">
        <span className="mb-1 block text-sm font-medium text-slate-700">Email</span>
        <input name="email" type="email" required autoComplete="email" maxLength={255} className={inputClass} />
      </label>
      <label className="block">
        <span className="mb-1 block text-sm font-medium text-slate-700">How can we help?</span>
        <textarea name="message" required rows={4} maxLength={5000} className={inputClass} />
      </label>
      <Button type="submit" disabled={status === 'sending'}>
        {status === 'sending' ? 'Sending...' : 'Send message'}
      </Button>
    </form>
  );
}
