import { Paperclip, Trash2 } from 'lucide-react';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { FILE_TOO_LARGE, isCouchboxField, MAX_UPLOAD_BYTES } from '@domain/rules/capacity';
import { UpdateVaultSchema } from '@domain/schemas/vault.schema';
import { placeholderKind } from '@domain/rules/placeholders';
import type { FieldDto, VaultDto, WarehouseDto } from '@domain/schemas/warehouse.schema';
import { digOutCount } from '@domain/rules/dig-out';
import { vaultTitle, withArticle } from '@domain/rules/vault-title';
import {
  type UpdateVaultBody,
  useDeleteAttachment,
  useDeleteVault,
  useUpdateVault,
  useUploadAttachment,
} from '@/api/vaults';
import type { AttachmentDto } from '@domain/schemas/warehouse.schema';
import { ProgressBar } from '@/components/ui/progress-bar';
import { useRole } from '@/api/session';
import { RoleHint } from '@/components/ui/role-hint';
import { Button } from '@/components/ui/button';
import { FormButtons } from '@/components/ui/form-buttons';
import { useAlertMessage } from '@/components/ui/alert-message';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ErrorList } from '@/components/ui/error-list';
import { paths } from '@/config/paths';
import { errorMessages } from '@/lib/api-client';
import { fileInputClass } from '@/components/ui/form-field';
import { fieldVaultKind, useVaultForm, VaultFields, VaultModeToggle } from '@/components/vault-fields';

export function EditVaultForm({
  vault,
  field,
  warehouse,
}: {
  vault: VaultDto;
  field: FieldDto;
  warehouse: WarehouseDto;
}) {
  const navigate = useNavigate();
  const updateVault = useUpdateVault();
  // a Viewer sees the vault and its files, and changes nothing
  const readOnly = !useRole().can('floor');
  const deleteVault = useDeleteVault();
  const upload = useUploadAttachment();
  const deleteAttachment = useDeleteAttachment();

  const couchboxField = isCouchboxField(field.type);
  const startKind = placeholderKind(vault.customer_name);
  const wasEmpty = startKind !== null;
  // what was typed for a real customer stays while Empty Mode shows the placeholder's name, until the save
  const form = useVaultForm({
    mode: wasEmpty ? 'empty' : 'regular',
    couchboxField,
    values: {
      kind: startKind ?? fieldVaultKind(couchboxField),
      customer: wasEmpty ? '' : vault.customer_name,
      vaultNumber: vault.name ?? '',
      order: vault.order_name ?? '',
      note: vault.note ?? '',
    },
  });
  const { mode, values, empty, shown, issues } = form;
  const [confirmChange, setConfirmChange] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [uploading, setUploading] = useState<{ name: string; percent: number } | null>(null);
  const [attachmentToDelete, setAttachmentToDelete] = useState<AttachmentDto | null>(null);
  // the version this edit started from: if someone else saves meanwhile, the server refuses rather than overwrite
  const [baseVersion] = useState(vault.version);
  const alert = useAlertMessage();

  // back to the warehouse with this field still chosen
  const backTo = `${paths.warehouse(warehouse.name)}?field=${encodeURIComponent(field.name)}`;
  const busy = upload.isPending || updateVault.isPending || deleteVault.isPending;

  function changeMode(next: typeof mode) {
    if (next === mode) return;
    form.setMode(next);
    issues.clear();
  }

  function buildBody(): UpdateVaultBody & { name: string } {
    // a real vault keeps its stored kind; a placeholder turned back into a vault takes its field's kind
    const regularType = wasEmpty ? fieldVaultKind(couchboxField) : vault.type;
    return {
      name: shown.number,
      customer_name: shown.customer_name,
      order_name: shown.order_name,
      note: shown.note,
      type: empty ? values.kind : regularType,
      version: baseVersion,
    };
  }

  // mutateAsync settles even when the refreshed warehouse has already unmounted this form (the vault moved or is
  // gone), so the toast and the way back always happen
  function save(body: UpdateVaultBody & { name: string }) {
    updateVault
      .mutateAsync({ vaultId: vault.id, body })
      .then(() => {
        toast.success(
          `${vaultTitle({ name: body.name || null, customer_name: body.customer_name }, field.name)} saved`,
        );
        navigate(backTo);
      })
      .catch(() => undefined)
      .finally(() => setConfirmChange(false));
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const body = buildBody();
    if (!issues.check(UpdateVaultSchema, body)) return;
    if (empty && !wasEmpty) {
      setConfirmChange(true);
      return;
    }
    save(body);
  }

  function onFile(event: ChangeEvent<HTMLInputElement>) {
    const input = event.target;
    const file = input.files?.[0];
    if (!file) return;
    if (file.size > MAX_UPLOAD_BYTES) {
      alert.show('File Too Large', FILE_TOO_LARGE);
      input.value = '';
      return;
    }
    setUploading({ name: file.name, percent: 0 });
    upload
      .mutateAsync({
        vaultId: vault.id,
        file,
        onProgress: (percent) => setUploading({ name: file.name, percent }),
      })
      .then(
        ({ attachment }) => toast.success(`${attachment.file_name} uploaded and saved to the vault`),
        (error: unknown) => toast.error(errorMessages(error).join(' ')),
      )
      .finally(() => {
        setUploading(null);
        input.value = '';
      });
  }

  function onDeleteAttachment() {
    if (!attachmentToDelete) return;
    const { id, file_name } = attachmentToDelete;
    deleteAttachment
      .mutateAsync(id)
      .then(
        () => toast.success(`${file_name} deleted`),
        (error: unknown) => toast.error(errorMessages(error).join(' ')),
      )
      .finally(() => setAttachmentToDelete(null));
  }

  // a vault opened from a bookmark has no page to go back to: the way back is always its warehouse (spec 2.9)
  function onDelete() {
    deleteVault.mutateAsync(vault.id).then(
      () => {
        toast.success(`${vaultTitle(vault, field.name)} deleted`);
        navigate(backTo);
      },
      (error: unknown) => {
        setConfirmDelete(false);
        toast.error(errorMessages(error).join(' '));
      },
    );
  }

  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <form
        onSubmit={onSubmit}
        noValidate
        aria-label="Edit Vault"
        className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
      >
        {/* the fieldset draws no box of its own, so the spacing is between its children (on the form, it spaced only
            the fieldset) */}
        <fieldset disabled={readOnly} className="contents space-y-4">
          {readOnly && <RoleHint needed="floor" />}
          {updateVault.isError && <ErrorList messages={errorMessages(updateVault.error)} />}
          <div className="flex flex-wrap items-center justify-between gap-3">
            <VaultModeToggle
              mode={mode}
              onChange={changeMode}
              labels={{ regular: 'Regular Mode', empty: 'Empty Mode' }}
            />
            <p className="text-sm text-slate-500">
              {vault.order_name && (
                <Link
                  to={`${paths.pullLists}?${new URLSearchParams({ order: vault.order_name }).toString()}`}
                  className="mr-3 inline-flex items-center font-semibold text-accent underline pointer-coarse:min-h-11"
                >
                  Pull list for order {vault.order_name}
                </Link>
              )}
              {warehouse.name}, field {field.name}, position {vault.position}
              {vault.position !== null && (
                <span data-testid="dig-out">
                  {' · '}
                  {digOutText(
                    digOutCount(
                      vault.position,
                      Object.values(field.vaults).map((v) => v.position ?? 0),
                    ),
                  )}
                </span>
              )}
            </p>
          </div>
          <VaultFields
            {...form.fields}
            numberName="name"
            noteRows={4}
            notePlaceholder="Add a note..."
            vaultId={vault.id}
          />
          <div className="flex flex-wrap justify-between gap-3 border-t border-slate-100 pt-4">
            <Button variant="danger" onClick={() => setConfirmDelete(true)} disabled={busy}>
              Delete
            </Button>
            <FormButtons
              submit="Save"
              pending={updateVault.isPending}
              disabled={busy}
              onCancel={() => navigate(backTo)}
              className=""
            />
          </div>
        </fieldset>
      </form>

      <section
        aria-label="Attachments"
        className="space-y-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
      >
        <h2 className="text-sm font-semibold tracking-wide text-slate-500 uppercase">Attachments</h2>
        {vault.attachments.length === 0 ? (
          <p className="text-sm text-slate-500">No attachments</p>
        ) : (
          <ul className="space-y-1">
            {vault.attachments.map((attachment) => (
              <li key={attachment.id} className="flex items-center justify-between gap-2">
                <a
                  href={attachment.file_url}
                  target="_blank"
                  rel="noreferrer"
                  className="inline-flex min-w-0 items-center gap-2 rounded px-1 py-1 text-sm font-medium text-accent hover:underline"
                >
                  <Paperclip className="h-4 w-4 shrink-0" aria-hidden />
                  <span className="truncate">{attachment.file_name}</span>
                </a>
                <button
                  type="button"
                  onClick={() => setAttachmentToDelete(attachment)}
                  disabled={readOnly}
                  aria-label={`Delete attachment ${attachment.file_name}`}
                  title="Delete attachment"
                  className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-lg text-slate-500 hover:bg-red-50 hover:text-danger focus-visible:outline-2 focus-visible:outline-danger"
                >
                  <Trash2 className="h-4 w-4" aria-hidden />
                </button>
              </li>
            ))}
          </ul>
        )}
        {uploading && <ProgressBar label={`Uploading ${uploading.name}`} percent={uploading.percent} />}
        <label className="block">
          <span className="mb-1 block text-sm font-medium text-slate-700">Upload Attachment</span>
          <input
            type="file"
            name="attachment"
            onChange={onFile}
            disabled={readOnly || upload.isPending}
            aria-describedby="attachment-hint"
            className={fileInputClass}
          />
        </label>
        <p id="attachment-hint" className="text-xs text-slate-600">
          A file is saved to the vault as soon as it is uploaded; Cancel does not undo it. Up to 5 MB.
        </p>
      </section>

      <ConfirmDialog
        open={confirmChange}
        onOpenChange={(open) => {
          if (!updateVault.isPending) setConfirmChange(open);
        }}
        title="Confirm Vault Change"
        message={`You are changing the vault to ${withArticle(shown.customer_name)}. This will erase vault info. Are you sure?`}
        confirmLabel="Confirm"
        onConfirm={() => save({ ...buildBody(), order_name: '', note: '', attachments: [] })}
        pending={updateVault.isPending}
        danger
      />
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={(open) => {
          if (!deleteVault.isPending) setConfirmDelete(open);
        }}
        title="Confirm Delete"
        message="Are you sure you want to delete this vault? This action cannot be undone."
        confirmLabel="Delete"
        onConfirm={onDelete}
        pending={deleteVault.isPending}
        danger
      />
      <ConfirmDialog
        open={attachmentToDelete !== null}
        onOpenChange={(open) => {
          if (!open && !deleteAttachment.isPending) setAttachmentToDelete(null);
        }}
        title="Delete Attachment"
        message={`Are you sure you want to delete ${attachmentToDelete?.file_name ?? 'this attachment'}? This action cannot be undone.`}
        confirmLabel="Delete"
        onConfirm={onDeleteAttachment}
        pending={deleteAttachment.isPending}
        danger
      />
      {alert.element}
    </div>
  );
}

function digOutText(count: number): string {
  return count === 0
    ? 'on top, nothing to dig out'
    : `${count} ${count === 1 ? 'vault' : 'vaults'} to dig out`;
}
