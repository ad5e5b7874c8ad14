import type { FormEvent, ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { ErrorList } from '@/components/ui/error-list';
import { FormField, TextInput } from '@/components/ui/form-field';

/** Today as the date inputs write it (yyyy-mm-dd). */
export const today = () => new Date().toISOString().slice(0, 10);

/** A billing form card: its fields in a row of six, the submit button last, its problems on a line below. */
export function BillingForm({
  label,
  onSubmit,
  submitLabel,
  pending,
  messages,
  secondary = false,
  children,
}: {
  label: string;
  onSubmit: (event: FormEvent) => void;
  submitLabel: string;
  pending: boolean;
  messages: string[];
  secondary?: boolean;
  children: ReactNode;
}) {
  return (
    <form
      onSubmit={onSubmit}
      aria-label={label}
      className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-3 lg:grid-cols-6"
    >
      {children}
      <div className="flex items-end">
        <Button
          type="submit"
          variant={secondary ? 'secondary' : 'primary'}
          className="w-full"
          disabled={pending}
        >
          {submitLabel}
        </Button>
      </div>
      <div className="sm:col-span-3 lg:col-span-6">
        <ErrorList messages={messages} />
      </div>
    </form>
  );
}

/** An amount typed as a decimal in the company's currency. */
export function AmountField({
  currency,
  value,
  onChange,
  label = `Amount (${currency})`,
}: {
  currency: string;
  value: string;
  onChange: (value: string) => void;
  label?: string;
}) {
  return (
    <FormField label={label}>
      <TextInput inputMode="decimal" value={value} onValue={onChange} />
    </FormField>
  );
}

/** A day picked with the browser's date input. */
export function DateField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <FormField label={label}>
      <TextInput type="date" value={value} onValue={onChange} />
    </FormField>
  );
}
