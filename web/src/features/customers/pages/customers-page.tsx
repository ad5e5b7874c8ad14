import { Mail, Pencil, Send, Users } from 'lucide-react';
import { LINK_COPY_MESSAGES, copyText } from '@/lib/copy-text';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import type { CustomerDto, PortalLinkDto } from '@domain/schemas/customer.schema';
import { useAddCustomer, useChangeCustomer, useCustomers, useSendPortalLink } from '@/api/customers';
import { Button } from '@/components/ui/button';
import { FormButtons } from '@/components/ui/form-buttons';
import { Dialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorList } from '@/components/ui/error-list';
import { FormField, TextInput } from '@/components/ui/form-field';
import { Page } from '@/components/ui/page';
import { QueryView } from '@/components/ui/query-view';
import { errorMessages } from '@/lib/api-client';
import { useFormat } from '@/lib/format';
import { useDocumentTitle } from '@/lib/use-document-title';

/** Add a customer, or change one's name or address. */
function CustomerDialog({ customer, onClose }: { customer: CustomerDto | null; onClose: () => void }) {
  const [name, setName] = useState(customer?.name ?? '');
  const [email, setEmail] = useState(customer?.email ?? '');
  const add = useAddCustomer();
  const change = useChangeCustomer();
  const saving = add.isPending || change.isPending;
  const failed = add.error ?? change.error;
  function submit(event: FormEvent) {
    event.preventDefault();
    const done = (c: CustomerDto) => {
      toast.success(customer ? `${c.name} saved` : `${c.name} added`);
      onClose();
    };
    if (customer) change.mutate({ id: customer.id, name, email }, { onSuccess: done });
    else add.mutate({ name, email }, { onSuccess: done });
  }
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={customer ? 'Edit customer' : 'Add customer'}
    >
      <form onSubmit={submit} className="space-y-4">
        <FormField label="Name">
          <TextInput value={name} onValue={setName} autoComplete="off" />
        </FormField>
        <FormField label="Email" hint="The portal link goes to this address.">
          <TextInput type="email" value={email} onValue={setEmail} autoComplete="off" />
        </FormField>
        {failed && <ErrorList messages={errorMessages(failed)} />}
        <FormButtons submit="Save" pending={saving} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

/** A portal link to hand over by hand (no SMTP set up): shown once, with a copy button. */
function CopyLinkDialog({
  link,
  customer,
  onClose,
}: {
  link: PortalLinkDto;
  customer: string;
  onClose: () => void;
}) {
  const format = useFormat();
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Portal link for ${customer}`}>
      <div className="space-y-3">
        <input
          readOnly
          value={link.url}
          aria-label="Portal link"
          data-testid="portal-link"
          onFocus={(e) => e.currentTarget.select()}
          className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-xs"
        />
        <p className="text-sm text-slate-600">
          E-mail is not set up, so send this link to the customer yourself. It signs them in once, until{' '}
          {format.dateTime(link.expiresAt)}.
        </p>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          <Button onClick={() => void copyText(link.url, LINK_COPY_MESSAGES)}>Copy link</Button>
        </div>
      </div>
    </Dialog>
  );
}

export default function CustomersPage() {
  useDocumentTitle('Customers');
  const customers = useCustomers();
  const send = useSendPortalLink();
  const format = useFormat();
  const [editing, setEditing] = useState<CustomerDto | null | 'new'>(null);
  const [shown, setShown] = useState<{ link: PortalLinkDto; customer: string } | null>(null);

  function sendLink(customer: CustomerDto) {
    send.mutate(customer.id, {
      onSuccess: (link) => {
        if (link.mailId !== null) toast.success(`Portal link e-mailed to ${customer.email}`);
        else setShown({ link, customer: customer.name });
      },
      onError: (error) => toast.error(errorMessages(error).join(' ')),
    });
  }

  return (
    <Page title="Customers" actions={<Button onClick={() => setEditing('new')}>Add customer</Button>}>
      <QueryView
        query={customers}
        loading="Loading customers..."
        empty={
          <EmptyState icon={Users} title="No customers yet">
            Customers appear here as vaults are stored for them; add one with an e-mail to send a portal link.
          </EmptyState>
        }
      >
        {(list) => (
          <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
            {list.map((customer) => (
              <li
                key={customer.id}
                className="flex flex-wrap items-center gap-3 p-3"
                data-testid="customer-row"
              >
                {/* the name and its line keep a readable width; on a phone the buttons wrap below them */}
                <div className="min-w-48 flex-1">
                  <p className="font-semibold text-slate-900">{customer.name}</p>
                  <p className="text-sm text-slate-600">
                    {customer.email ?? 'No e-mail'} · {customer.units}{' '}
                    {customer.units === 1 ? 'unit' : 'units'}
                    {customer.lastPortalSignInAt &&
                      ` · portal opened ${format.dateTime(customer.lastPortalSignInAt)}`}
                  </p>
                </div>
                <Button
                  variant="secondary"
                  onClick={() => setEditing(customer)}
                  aria-label={`Edit ${customer.name}`}
                >
                  <Pencil className="h-4 w-4" aria-hidden /> Edit
                </Button>
                <Button
                  onClick={() => sendLink(customer)}
                  disabled={!customer.email || send.isPending}
                  title={customer.email ? undefined : 'Add an e-mail first'}
                  aria-label={`Send portal link to ${customer.name}`}
                >
                  {customer.email ? (
                    <Send className="h-4 w-4" aria-hidden />
                  ) : (
                    <Mail className="h-4 w-4" aria-hidden />
                  )}
                  Send portal link
                </Button>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      {editing !== null && (
        <CustomerDialog customer={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
      {shown && <CopyLinkDialog link={shown.link} customer={shown.customer} onClose={() => setShown(null)} />}
    </Page>
  );
}
