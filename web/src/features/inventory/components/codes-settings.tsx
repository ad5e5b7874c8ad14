import { Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { InventoryCodeSchema } from '@domain/schemas/inventory.schema';
import { useAddInventoryCode, useInventoryCodes, useRemoveInventoryCode } from '@/api/inventory';
import { Button } from '@/components/ui/button';
import { ConfirmRemoval, RemoveButton, useRemoval } from './confirm-removal';
import { ErrorList } from '@/components/ui/error-list';
import { QueryView } from '@/components/ui/query-view';
import { FormField, TextInput } from '@/components/ui/form-field';
import { errorMessages } from '@/lib/api-client';

/** The Manager's small settings: the company's own condition codes beside the standard ones. */
export function CodesSettings() {
  const codes = useInventoryCodes();
  const add = useAddInventoryCode();
  const removal = useRemoval<{ id: number; code: string }>(useRemoveInventoryCode());
  const [code, setCode] = useState('');
  const [meaning, setMeaning] = useState('');
  const [issues, setIssues] = useState<string[]>([]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = InventoryCodeSchema.safeParse({ code, meaning });
    if (!checked.success) return setIssues(checked.error.issues.map((i) => i.message));
    setIssues([]);
    add.mutate(
      { code, meaning },
      {
        onSuccess: () => {
          toast.success(`Code ${checked.data.code} added`);
          setCode('');
          setMeaning('');
        },
        onError: (error) => setIssues(errorMessages(error)),
      },
    );
  };

  return (
    <details className="rounded-xl border border-slate-200 bg-white p-4">
      <summary className="min-h-11 cursor-pointer content-center text-lg font-semibold text-slate-800">
        Condition codes of the company
      </summary>
      <QueryView query={codes} loading="Loading the codes...">
        {(list) => (
          <ul className="my-3 flex flex-wrap gap-2">
            {list.map((c) => (
              <li
                key={c.code}
                className="flex items-center gap-1 rounded-lg border border-slate-200 py-1 pr-1 pl-3 text-sm"
              >
                <span className="font-mono font-semibold">{c.code}</span> {c.meaning}
                {c.standard ? (
                  <span className="px-2 text-xs text-slate-500">standard</span>
                ) : (
                  <RemoveButton
                    label={`Remove code ${c.code}`}
                    onClick={() => c.id && removal.ask({ id: c.id, code: c.code })}
                  />
                )}
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3" aria-label="Add a condition code">
        <FormField label="Code" className="w-28">
          <TextInput value={code} maxLength={4} onValue={setCode} />
        </FormField>
        <FormField label="Meaning" className="min-w-48 flex-1">
          <TextInput value={meaning} maxLength={60} onValue={setMeaning} />
        </FormField>
        <Button type="submit" disabled={add.isPending}>
          <Plus className="h-4 w-4" aria-hidden /> Add code
        </Button>
      </form>
      {issues.length > 0 && (
        <div className="mt-3">
          <ErrorList messages={issues} />
        </div>
      )}
      <ConfirmRemoval
        of={removal}
        title={`Remove the code ${removal.removing?.code ?? ''}?`}
        message="Only a code no item carries can be removed."
        confirmLabel="Remove code"
        done={(code) => `Code ${code.code} removed`}
      />
    </details>
  );
}
