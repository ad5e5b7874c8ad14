import { CircleCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { dayOf, dayWriter, isIsoDay } from '@domain/billing/days';
import { sitStartProblem } from '@domain/billing/sit';
import { CreateAccountSchema, type NotBilledOrderDto } from '@domain/schemas/billing.schema';
import { useCreateAccount, useCreateAccountsInBulk, useNotBilled } from '@/api/billing';
import { Button } from '@/components/ui/button';
import { FormButtons } from '@/components/ui/form-buttons';
import { Dialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorList, QueryFailed } from '@/components/ui/error-list';
import { FormField, SelectInput, TextArea, TextInput, inputClass } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { errorMessages, inputErrors } from '@/lib/api-client';
import { useFormat } from '@/lib/format';
import { useFormIssues } from '@/lib/use-form-issues';
import { DataTable, cell, dayCell } from '@/components/ui/data-table';
import { useCalendarDay } from './billing-days';

/** Orders in storage without an account, so nothing is stored for free: one account each, or many at once. */
export function NotBilledTab() {
  const day = useCalendarDay();
  const orders = useNotBilled();
  const bulk = useCreateAccountsInBulk();
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [opening, setOpening] = useState<NotBilledOrderDto | null>(null);
  if (orders.isPending) return <Spinner />;
  if (orders.isError) return <QueryFailed query={orders} />;
  if (orders.data.length === 0)
    return (
      <EmptyState icon={CircleCheck} title="Every stored order is billed">
        Orders appear here when their units are received and no account holds them yet.
      </EmptyState>
    );
  const toggle = (id: number) =>
    setChosen((now) => {
      const next = new Set(now);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const createChosen = () =>
    bulk.mutate([...chosen], {
      onSuccess: ({ created }) => {
        toast.success(`${created} ${created === 1 ? 'account' : 'accounts'} created`);
        setChosen(new Set());
      },
    });
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <Button onClick={createChosen} disabled={chosen.size === 0 || bulk.isPending}>
          Create {chosen.size || ''} Permanent {chosen.size === 1 ? 'account' : 'accounts'}
        </Button>
        <Button variant="secondary" onClick={() => setChosen(new Set(orders.data.map((o) => o.order_id)))}>
          Choose all {orders.data.length}
        </Button>
        <ErrorList messages={bulk.isError ? errorMessages(bulk.error) : []} />
      </div>
      <DataTable
        caption="Orders not billed"
        head={['Choose', 'Order', 'Customer', 'Units', 'Move-in', 'Account']}
      >
        {orders.data.map((o) => (
          <tr key={o.order_id}>
            <td className={cell}>
              <label className="flex min-h-11 min-w-11 cursor-pointer items-center justify-center">
                <input
                  type="checkbox"
                  className="h-5 w-5"
                  aria-label={`Choose order ${o.order_name}`}
                  checked={chosen.has(o.order_id)}
                  onChange={() => toggle(o.order_id)}
                />
              </label>
            </td>
            <td className={`${cell} font-medium`}>{o.order_name}</td>
            <td className={cell}>{o.customer_name}</td>
            <td className={cell}>{o.units}</td>
            <td className={dayCell}>{day(o.move_in)}</td>
            <td className={cell}>
              <Button variant="secondary" onClick={() => setOpening(o)}>
                Create account
              </Button>
            </td>
          </tr>
        ))}
      </DataTable>
      {opening && <AccountDialog order={opening} onClose={() => setOpening(null)} />}
    </div>
  );
}

/** The inputs of the account dialog that show their own error. */
const INPUTS_WITH_ERRORS = [
  'sit_authorization',
  'agency_name',
  'sit_start',
  'sit_days_allowed',
  'bill_to_name',
  'bill_to_address',
] as const;

/**
 * The new account's terms, checked before they are sent with the server's rules: the schema's, and a SIT start not
 * before the order's move-in (named the company's way). What the server still refuses shows at its input too.
 */
function AccountDialog({ order, onClose }: { order: NotBilledOrderDto; onClose: () => void }) {
  const create = useCreateAccount();
  const issues = useFormIssues();
  const writeDay = dayWriter(useFormat().locale);
  const [kind, setKind] = useState<'permanent' | 'sit'>('permanent');
  const [form, setForm] = useState({
    sit_authorization: '',
    sit_payer: 'customer',
    agency_name: '',
    sit_start: order.move_in,
    sit_days_allowed: '',
    bill_to_name: order.customer_name,
    bill_to_address: '',
    note: '',
  });
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));
  // each message under its input, the form's own check first; the list below the form has the others
  const byInput = { ...(create.isError ? inputErrors(create.error) : {}), ...issues.byField };
  const errorOf = (input: (typeof INPUTS_WITH_ERRORS)[number]) => byInput[input];
  const atInputs = INPUTS_WITH_ERRORS.map(errorOf);
  const otherErrors = [...issues.messages, ...(create.isError ? errorMessages(create.error) : [])].filter(
    (m) => !atInputs.includes(m),
  );
  const schema = CreateAccountSchema.superRefine((values, ctx) => {
    if (values.kind !== 'sit' || !values.sit_start || !isIsoDay(values.sit_start)) return;
    const problem = sitStartProblem(dayOf(values.sit_start), dayOf(order.move_in), writeDay);
    if (problem) ctx.addIssue({ code: 'custom', path: ['sit_start'], message: problem });
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    const values = { order_ids: [order.order_id], kind, ...form };
    create.reset();
    if (!issues.check(schema, values)) return;
    create.mutate(values, {
      onSuccess: () => {
        toast.success(`Account created for ${order.order_name}`);
        onClose();
      },
    });
  }
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Storage account for ${order.order_name}`}
    >
      <form onSubmit={submit} noValidate className="space-y-3">
        <FormField label="Kind">
          <SelectInput value={kind} onValue={setKind}>
            <option value="permanent">Permanent</option>
            <option value="sit">SIT (storage in transit)</option>
          </SelectInput>
        </FormField>
        {kind === 'sit' && (
          <>
            <FormField label="Authorization number" error={errorOf('sit_authorization')}>
              <TextInput value={form.sit_authorization} onChange={set('sit_authorization')} />
            </FormField>
            <FormField label="Paid during SIT by">
              <select className={inputClass} value={form.sit_payer} onChange={set('sit_payer')}>
                <option value="customer">The customer</option>
                <option value="agency">A carrier or agency</option>
              </select>
            </FormField>
            {form.sit_payer === 'agency' && (
              <FormField label="Carrier or agency" error={errorOf('agency_name')}>
                <TextInput value={form.agency_name} onChange={set('agency_name')} />
              </FormField>
            )}
            <FormField label="SIT start" error={errorOf('sit_start')}>
              <TextInput type="date" min={order.move_in} value={form.sit_start} onChange={set('sit_start')} />
            </FormField>
            <FormField
              label="SIT days allowed"
              hint="Blank: the company's default"
              error={errorOf('sit_days_allowed')}
            >
              <TextInput
                inputMode="numeric"
                value={form.sit_days_allowed}
                onChange={set('sit_days_allowed')}
              />
            </FormField>
          </>
        )}
        <FormField label="Bill to" error={errorOf('bill_to_name')}>
          <TextInput value={form.bill_to_name} onChange={set('bill_to_name')} />
        </FormField>
        <FormField label="Bill-to address" error={errorOf('bill_to_address')}>
          <TextArea rows={2} value={form.bill_to_address} onChange={set('bill_to_address')} />
        </FormField>
        <ErrorList messages={otherErrors} />
        <FormButtons
          submit="Create account"
          busy="Creating..."
          pending={create.isPending}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
