import { type FormEvent, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { z } from 'zod';
import { dayOf, dayWriter, isIsoDay } from '@domain/billing/days';
import { sitStartProblem } from '@domain/billing/sit';
import {
  type AccountDto,
  type AccountKind,
  type AccountSummaryDto,
  CreateAccountSchema,
  type NotBilledOrderDto,
  UpdateAccountSchema,
} from '@domain/schemas/billing.schema';
import { useCreateAccount, useEditAccount, useStorageAccount } from '@/api/billing';
import { ChangedMeanwhile } from '@/components/ui/changed-meanwhile';
import { Dialog } from '@/components/ui/dialog';
import { ErrorList, QueryFailed } from '@/components/ui/error-list';
import { FormButtons } from '@/components/ui/form-buttons';
import { FormField, SelectInput, TextArea, TextInput } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { changedMeanwhile, errorMessages, inputErrors } from '@/lib/api-client';
import { useFormat } from '@/lib/format';
import { useFormIssues } from '@/lib/use-form-issues';

/** The terms the form shows, as typed. */
interface Terms {
  kind: AccountKind;
  sit_authorization: string;
  sit_payer: 'customer' | 'agency';
  agency_name: string;
  sit_start: string;
  sit_days_allowed: string;
  bill_to_name: string;
  bill_to_address: string;
}

/** The inputs that show their own error. */
const INPUTS_WITH_ERRORS = [
  'sit_authorization',
  'agency_name',
  'sit_start',
  'sit_days_allowed',
  'bill_to_name',
  'bill_to_address',
] as const;

const newTerms = (order: NotBilledOrderDto): Terms => ({
  kind: 'permanent',
  sit_authorization: '',
  sit_payer: 'customer',
  agency_name: '',
  sit_start: order.move_in,
  sit_days_allowed: '',
  bill_to_name: order.customer_name,
  bill_to_address: '',
});

const termsOf = (account: AccountDto): Terms => ({
  kind: account.kind,
  sit_authorization: account.sit_authorization ?? '',
  sit_payer: account.sit_payer ?? 'customer',
  agency_name: account.agency_name ?? '',
  // a Permanent account made SIT starts, unless told otherwise, on the day its units moved in
  sit_start: account.sit_start ?? account.move_in ?? '',
  sit_days_allowed: account.sit_days_allowed === null ? '' : String(account.sit_days_allowed),
  bill_to_name: account.bill_to_name,
  bill_to_address: account.bill_to_address ?? '',
});

/**
 * What an edit sends besides the form: the terms it does not show, as they were read (the server takes the terms
 * whole, so one left out would be cleared), and the version read, so a change someone made since is refused.
 */
const keptOf = (account: AccountDto) => ({
  agency_reference: account.agency_reference ?? undefined,
  declared_value: account.declared_value,
  note: account.note ?? undefined,
  billing_cycle: account.billing_cycle,
  version: account.version,
});

/** A new account for an order not billed, or an account whose terms change. */
type Subject<A> = { order: NotBilledOrderDto; account?: undefined } | { account: A; order?: undefined };

/**
 * A storage account's terms, one form for both ways: a new account for an order not billed (`order`), or an
 * account's terms changed (`account`, read again with its version first). The values are checked before they are sent
 * with the server's rules (the schema's, and a SIT start not before the units' move-in, named the company's way);
 * what the server still refuses shows at its input too.
 */
export function AccountTermsDialog({
  onClose,
  ...subject
}: Subject<AccountSummaryDto> & { onClose: () => void }) {
  const editing = subject.account;
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={
        editing ? `Terms of ${editing.customer_name}` : `Storage account for ${subject.order.order_name}`
      }
      description={
        editing && editing.orders.length > 0
          ? `${editing.orders.length === 1 ? 'Order' : 'Orders'} ${editing.orders.join(', ')}`
          : undefined
      }
    >
      {editing ? (
        <EditTerms summary={editing} onClose={onClose} />
      ) : (
        <TermsForm subject={subject} onClose={onClose} />
      )}
    </Dialog>
  );
}

/** The account read afresh, so the form starts from its current terms and version; Reload reads it again. */
function EditTerms({ summary, onClose }: { summary: AccountSummaryDto; onClose: () => void }) {
  const account = useStorageAccount(summary.id);
  // the form starts anew from the account read again
  const [reads, setReads] = useState(0);
  if (account.isError && !account.data) return <QueryFailed query={account} />;
  // a copy kept from an earlier opening may be out of date: the form waits for this opening's read
  if (!account.data || (account.isFetching && !account.isFetchedAfterMount))
    return <Spinner label="Loading the terms..." />;
  // once drawn, the form stays, also when a read behind it fails
  return (
    <TermsForm
      key={reads}
      subject={{ account: account.data }}
      onClose={onClose}
      onReload={async () => {
        await account.refetch();
        setReads((n) => n + 1);
      }}
    />
  );
}

function TermsForm({
  subject: given,
  onClose,
  onReload,
}: {
  subject: Subject<AccountDto>;
  onClose: () => void;
  onReload?: () => Promise<void>;
}) {
  // the account as this form read it: a refetch behind it (after another change) does not move its version
  const [subject] = useState(given);
  const { account } = subject;
  const create = useCreateAccount();
  const edit = useEditAccount();
  const saving = account ? edit : create;
  const issues = useFormIssues();
  const writeDay = dayWriter(useFormat().locale);
  const [form, setForm] = useState<Terms>(() =>
    subject.account ? termsOf(subject.account) : newTerms(subject.order),
  );
  const [reloading, setReloading] = useState(false);
  const set =
    <K extends keyof Terms>(key: K) =>
    (value: Terms[K]) =>
      setForm((f) => ({ ...f, [key]: value }));

  // drawn after the dialog opened (the account was being read), the form takes the focus the dialog would have given
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const active = document.activeElement;
    if (account && (!active || active === document.body || active.hasAttribute('data-dialog-close')))
      formRef.current?.querySelector<HTMLElement>('select, input, textarea')?.focus();
  }, [account]);

  const moveIn = subject.account ? subject.account.move_in : subject.order.move_in;
  // a start kept as it was stands, as on the server (an imported account's SIT began before its units came in)
  const keptStart = account?.kind === 'sit' ? account.sit_start : null;
  const sitStart = (values: { kind?: AccountKind; sit_start?: string }, ctx: z.RefinementCtx) => {
    if (values.kind !== 'sit' || !values.sit_start || !isIsoDay(values.sit_start)) return;
    if (values.sit_start === keptStart || moveIn === null) return;
    const problem = sitStartProblem(dayOf(values.sit_start), dayOf(moveIn), writeDay);
    if (problem) ctx.addIssue({ code: 'custom', path: ['sit_start'], message: problem });
  };

  const conflict = changedMeanwhile(saving.error);
  // Save is off until the terms are read again: Reload takes the focus, in view below the form's end
  const reloadRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (conflict) reloadRef.current?.focus();
  }, [conflict]);
  // each message under its input, the form's own check first; the list below the form has the others
  const byInput = { ...(saving.isError ? inputErrors(saving.error) : {}), ...issues.byField };
  const errorOf = (input: (typeof INPUTS_WITH_ERRORS)[number]) => byInput[input];
  const atInputs = INPUTS_WITH_ERRORS.map(errorOf);
  const otherErrors = [
    ...issues.messages,
    ...(saving.isError && !conflict ? errorMessages(saving.error) : []),
  ].filter((m) => !atInputs.includes(m));

  function submit(event: FormEvent) {
    event.preventDefault();
    create.reset();
    edit.reset();
    if (account) {
      const values = { ...keptOf(account), ...form };
      if (!issues.check(UpdateAccountSchema.superRefine(sitStart), values)) return;
      edit.mutate(
        { id: account.id, ...values },
        {
          onSuccess: () => {
            toast.success(`Terms saved for ${account.customer_name}`);
            onClose();
          },
        },
      );
      return;
    }
    const { order } = subject;
    const values = { order_ids: [order.order_id], ...form };
    if (!issues.check(CreateAccountSchema.superRefine(sitStart), values)) return;
    create.mutate(values, {
      onSuccess: () => {
        toast.success(`Account created for ${order.order_name}`);
        onClose();
      },
    });
  }

  async function reload() {
    setReloading(true);
    try {
      await onReload?.();
    } finally {
      setReloading(false);
    }
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="space-y-3">
      <FormField label="Kind">
        <SelectInput value={form.kind} onValue={set('kind')}>
          <option value="permanent">Permanent</option>
          <option value="sit">SIT (storage in transit)</option>
        </SelectInput>
      </FormField>
      {form.kind === 'sit' && (
        <>
          <FormField label="Authorization number" error={errorOf('sit_authorization')}>
            <TextInput value={form.sit_authorization} onValue={set('sit_authorization')} />
          </FormField>
          <FormField label="Paid during SIT by">
            <SelectInput value={form.sit_payer} onValue={set('sit_payer')}>
              <option value="customer">The customer</option>
              <option value="agency">A carrier or agency</option>
            </SelectInput>
          </FormField>
          {form.sit_payer === 'agency' && (
            <FormField label="Carrier or agency" error={errorOf('agency_name')}>
              <TextInput value={form.agency_name} onValue={set('agency_name')} />
            </FormField>
          )}
          <FormField label="SIT start" error={errorOf('sit_start')}>
            <TextInput
              type="date"
              min={moveIn ?? undefined}
              value={form.sit_start}
              onValue={set('sit_start')}
            />
          </FormField>
          <FormField
            label="SIT days allowed"
            hint="Blank: the company's default"
            error={errorOf('sit_days_allowed')}
          >
            <TextInput inputMode="numeric" value={form.sit_days_allowed} onValue={set('sit_days_allowed')} />
          </FormField>
        </>
      )}
      <FormField label="Bill to" error={errorOf('bill_to_name')}>
        <TextInput value={form.bill_to_name} onValue={set('bill_to_name')} />
      </FormField>
      <FormField label="Bill-to address" error={errorOf('bill_to_address')}>
        <TextArea rows={2} value={form.bill_to_address} onValue={set('bill_to_address')} />
      </FormField>
      {conflict && (
        <ChangedMeanwhile
          announce
          reload="Reload terms"
          reloading={reloading}
          onReload={() => void reload()}
          buttonRef={reloadRef}
        >
          Someone else changed these terms after you opened them, so nothing was saved. Reload to see their
          terms, then make your change again.
        </ChangedMeanwhile>
      )}
      <ErrorList messages={otherErrors} />
      <FormButtons
        submit={account ? 'Save terms' : 'Create account'}
        busy={account ? 'Saving...' : 'Creating...'}
        pending={saving.isPending}
        disabled={conflict}
        onCancel={onClose}
      />
    </form>
  );
}
