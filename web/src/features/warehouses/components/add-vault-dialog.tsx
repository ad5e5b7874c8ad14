import { type ChangeEvent, type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES } from '@domain/rules/capacity';
import { AddVaultSchema } from '@domain/schemas/vault.schema';
import { useAddVault } from '@/api/vaults';
import { ProgressBar } from '@/components/ui/progress-bar';
import { useAlertMessage } from '@/components/ui/alert-message';
import { FormButtons } from '@/components/ui/form-buttons';
import { Dialog } from '@/components/ui/dialog';
import { ErrorList } from '@/components/ui/error-list';
import { errorMessages } from '@/lib/api-client';
import { fileInputClass, FormField } from '@/components/ui/form-field';
import {
  fieldVaultKind,
  useVaultForm,
  VaultFields,
  type VaultMode,
  VaultModeToggle,
} from '@/components/vault-fields';

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
  const form = useVaultForm({ mode: 'regular', couchboxField });
  const { mode, values, empty, shown, issues } = form;
  const [file, setFile] = useState<File | null>(null);
  const [sent, setSent] = useState<number | null>(null);

  function changeMode(next: VaultMode) {
    form.setMode(next);
    issues.clear();
    // empty placeholders carry no order; a real customer must be typed again
    form.setValues((v) => ({ ...v, order: '', customer: next === 'regular' ? '' : v.customer }));
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
    const body = {
      vault_id: shown.number,
      customer_name: shown.customer_name,
      order_name: shown.order_name,
      type: empty ? values.kind : fieldVaultKind(couchboxField),
      note: shown.note,
      field_id: fieldId,
      position,
    };
    if (!issues.check(AddVaultSchema, body)) return;
    setSent(file ? 0 : null);
    addVault.mutate(
      { ...body, attachment: file, onProgress: setSent },
      {
        onSuccess: (sent) => {
          if (sent.queued)
            toast.info(
              `Vault ${body.vault_id || body.customer_name} added on this device${file ? ' with its file' : ''}: not synced yet`,
            );
          else toast.success(`Vault ${sent.answer.name ?? sent.answer.customer_name} added`);
          onDone();
        },
      },
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="New Vault Info" className="space-y-4">
      {addVault.isError && <ErrorList messages={errorMessages(addVault.error)} />}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <VaultModeToggle mode={mode} onChange={changeMode} labels={{ regular: 'Regular', empty: 'Empty' }} />
        <span className="text-sm text-slate-500">Position {position}</span>
      </div>
      <VaultFields
        {...form.fields}
        numberName="vault_id"
        noteRows={3}
        beforeNote={
          <FormField label="Attachment" className="sm:col-span-2">
            <input type="file" name="attachment" onChange={onFile} className={fileInputClass} />
          </FormField>
        }
      />
      {addVault.isPending && file && sent !== null && (
        <ProgressBar label={`Uploading ${file.name}`} percent={sent} />
      )}
      <FormButtons submit="Add Vault" busy="Adding Vault..." pending={addVault.isPending} onCancel={onDone} />
      {alert.element}
    </form>
  );
}
