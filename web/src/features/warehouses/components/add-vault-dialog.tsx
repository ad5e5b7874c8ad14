import { type ChangeEvent, type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import {
  FILE_TOO_LARGE,
  MAX_UPLOAD_BYTES,
  VAULT_TYPES,
  type VaultType,
} from '../../../../../domain/rules/capacity';
import { emptyCustomerName, vaultNumberDisabled } from '../../../../../domain/rules/placeholders';
import { AddVaultSchema } from '../../../../../domain/schemas/vault.schema';
import { useAddVault } from '../../../api/vaults';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { useAlertMessage } from '../../../components/ui/alert-message';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorList } from '../../../components/ui/error-list';
import { errorMessages } from '../../../lib/api-client';
import { issuesByField } from '../../../lib/form-issues';
import { SegmentedToggle } from '../../../components/ui/segmented-toggle';
import { FormField, inputClass } from '../../../components/ui/form-field';

const kindLabels: Record<VaultType, string> = {
  vault: 'Vault',
  liftvan: 'Liftvan',
  t2: 'T2',
  couchbox: 'Couchbox',
};

export function AddVaultDialog({
  open,
  onOpenChange,
  fieldId,
  position,
  couchboxField,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  fieldId: number;
  position: number;
  couchboxField: boolean;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="New Vault Info" wide>
      {/* mounted only while open, so every opening starts with a blank form */}
      <AddVaultForm
        fieldId={fieldId}
        position={position}
        couchboxField={couchboxField}
        onDone={() => onOpenChange(false)}
      />
    </Dialog>
  );
}

function AddVaultForm({
  fieldId,
  position,
  couchboxField,
  onDone,
}: {
  fieldId: number;
  position: number;
  couchboxField: boolean;
  onDone: () => void;
}) {
  const addVault = useAddVault();
  const alert = useAlertMessage();
  const [mode, setMode] = useState<'regular' | 'empty'>('regular');
  const [kind, setKind] = useState<VaultType>(couchboxField ? 'couchbox' : 'vault');
  const [customer, setCustomer] = useState('');
  const [vaultNumber, setVaultNumber] = useState('');
  const [order, setOrder] = useState('');
  const [note, setNote] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [sent, setSent] = useState<number | null>(null);
  const [issues, setIssues] = useState<Record<string, string>>({});

  const empty = mode === 'empty';
  const numberDisabled = empty && vaultNumberDisabled(kind);
  const kinds = VAULT_TYPES.filter((k) => k !== 'couchbox' || couchboxField);

  function changeMode(next: 'regular' | 'empty') {
    setMode(next);
    setIssues({});
    // empty placeholders carry no order; a real customer must be typed again
    setOrder('');
    if (next === 'regular') setCustomer('');
  }

  function onFile(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0] ?? null;
    if (chosen && chosen.size > MAX_UPLOAD_BYTES) {
      alert.show('File Too Large', FILE_TOO_LARGE);
      event.target.value = '';
      setFile(null);
      return;
    }
    setFile(chosen);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const form = {
      vault_id: numberDisabled ? '' : vaultNumber,
      customer_name: empty ? emptyCustomerName(kind) : customer,
      order_name: empty ? '' : order,
      type: empty ? kind : couchboxField ? 'couchbox' : 'vault',
      note,
      field_id: fieldId,
      position,
    };
    const parsed = AddVaultSchema.safeParse(form);
    if (!parsed.success) {
      setIssues(issuesByField(parsed.error));
      return;
    }
    setIssues({});
    setSent(file ? 0 : null);
    addVault.mutate(
      { ...form, attachment: file, onProgress: setSent },
      {
        onSuccess: (vault) => {
          toast.success(`Vault ${vault.name ?? vault.customer_name} added`);
          onDone();
        },
      },
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="New Vault Info" className="space-y-4">
      {addVault.isError && <ErrorList messages={errorMessages(addVault.error)} />}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SegmentedToggle
          label="Mode"
          options={[
            { value: 'regular', label: 'Regular' },
            { value: 'empty', label: 'Empty' },
          ]}
          value={mode}
          onChange={changeMode}
        />
        <span className="text-sm text-slate-500">Position {position}</span>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Customer Name" error={issues.customer_name} className="sm:col-span-2">
          <input
            name="customer_name"
            value={empty ? emptyCustomerName(kind) : customer}
            onChange={(e) => setCustomer(e.target.value.toUpperCase())}
            disabled={empty}
            required={!empty}
            autoComplete="off"
            className={`${inputClass} uppercase`}
          />
        </FormField>
        {empty && (
          <FormField label="Type">
            <select
              name="type"
              value={kind}
              onChange={(e) => setKind(e.target.value as VaultType)}
              className={inputClass}
            >
              {kinds.map((k) => (
                <option key={k} value={k}>
                  {kindLabels[k]}
                </option>
              ))}
            </select>
          </FormField>
        )}
        <FormField label="Vault Number" error={issues.vault_id}>
          <input
            name="vault_id"
            value={numberDisabled ? '' : vaultNumber}
            onChange={(e) => setVaultNumber(e.target.value)}
            disabled={numberDisabled}
            autoComplete="off"
            className={inputClass}
          />
        </FormField>
        <FormField label="Order Number" error={issues.order_name}>
          <input
            name="order_name"
            value={empty ? '' : order}
            onChange={(e) => setOrder(e.target.value)}
            disabled={empty}
            required={!empty}
            autoComplete="off"
            className={inputClass}
          />
        </FormField>
        <FormField label="Attachment" className="sm:col-span-2">
          <input
            type="file"
            name="attachment"
            onChange={onFile}
            className="block w-full text-sm text-slate-600 pointer-coarse:min-h-11 pointer-coarse:file:min-h-11 file:mr-3 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-700 hover:file:bg-slate-200"
          />
        </FormField>
        <FormField label="Note" error={issues.note} className="sm:col-span-2">
          <textarea
            name="note"
            rows={3}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            className={inputClass}
          />
        </FormField>
      </div>
      {addVault.isPending && file && sent !== null && (
        <ProgressBar label={`Uploading ${file.name}`} percent={sent} />
      )}
      <div className="flex justify-end gap-3 pt-2">
        <Button variant="secondary" onClick={onDone} disabled={addVault.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={addVault.isPending}>
          {addVault.isPending ? 'Adding Vault...' : 'Add Vault'}
        </Button>
      </div>
      {alert.element}
    </form>
  );
}
