import { ClipboardList } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useCreatePullList, usePullLists } from '@/api/pull-lists';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorList } from '@/components/ui/error-list';
import { QueryView } from '@/components/ui/query-view';
import { SelectInput, TextInput } from '@/components/ui/form-field';
import { Page } from '@/components/ui/page';
import { paths } from '@/config/paths';
import { errorMessages } from '@/lib/api-client';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useFormat } from '@/lib/format';

/** Pull lists: make one for an order or a customer (also reached from search and the vault page), and open one. */
export default function PullListsPage() {
  useDocumentTitle('Pull lists');
  const [params] = useSearchParams();
  const lists = usePullLists();
  const create = useCreatePullList();
  const navigate = useNavigate();
  const format = useFormat();
  const [kind, setKind] = useState<'order' | 'customer'>(params.get('customer') ? 'customer' : 'order');
  const [name, setName] = useState(params.get('customer') ?? params.get('order') ?? '');

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(kind === 'order' ? { order_name: name } : { customer_name: name }, {
      onSuccess: (list) => navigate(paths.pullList(list.id)),
    });
  }

  return (
    <Page title="Pull lists">
      <form
        onSubmit={submit}
        className="mb-6 flex flex-wrap items-end gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
        aria-label="New pull list"
      >
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          Pull by
          <SelectInput value={kind} onValue={setKind}>
            <option value="order">Order number</option>
            <option value="customer">Customer</option>
          </SelectInput>
        </label>
        <label className="flex min-w-56 flex-1 flex-col gap-1 text-sm font-medium text-slate-700">
          {kind === 'order' ? 'Order number' : 'Customer name'}
          <TextInput value={name} onValue={setName} required />
        </label>
        <Button
          type="submit"
          disabled={create.isPending || name.trim() === ''}
          aria-describedby={name.trim() === '' ? 'pull-list-why' : undefined}
        >
          Make pull list
        </Button>
        {name.trim() === '' && (
          <p id="pull-list-why" className="w-full text-xs text-slate-600">
            Type {kind === 'order' ? 'an order number' : "a customer's name"} to make its pull list.
          </p>
        )}
        {create.isError && (
          <div className="w-full">
            <ErrorList messages={errorMessages(create.error)} />
          </div>
        )}
      </form>
      <QueryView
        query={lists}
        empty={
          <EmptyState icon={ClipboardList} title="No pull lists yet.">
            Start one above for an order or a customer.
          </EmptyState>
        }
      >
        {(pullLists) => (
          <ul className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm">
            {pullLists.map((list) => (
              <li key={list.id}>
                <Link
                  to={paths.pullList(list.id)}
                  className="flex min-h-14 flex-wrap items-center gap-3 px-4 py-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-accent"
                >
                  <span className="flex-1 font-semibold text-slate-800">{list.title}</span>
                  <span className="text-sm text-slate-500">
                    {format.count(list.vault_count, 'vault')}
                    {list.released_at
                      ? ', released'
                      : list.left_in_fields > 0
                        ? `, ${list.left_in_fields} still in fields`
                        : ', all pulled'}
                  </span>
                  <span className="text-xs text-slate-500">{format.dateTime(list.created_at)}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </Page>
  );
}
