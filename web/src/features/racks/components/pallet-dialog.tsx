import { ErrorList } from '@/components/ui/error-list';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { freeSpots } from '@domain/rules/rack-placement';
import {
  PalletFormSchema,
  SHELF_NOT_FOUND,
  shelfSpaceMessage,
  type PalletDto,
  type ShelfDto,
} from '@domain/schemas/rack.schema';
import { useAddPallet, useDeletePallet, useEditPallet } from '@/api/racks';
import { useRole } from '@/api/session';
import { HOLD_TITLE, HoldPill, useIsPalletHeld } from '@/components/billing/hold-badge';
import { HELD_NEEDS_MANAGER, HELD_NEEDS_REASON } from '@domain/billing/holds';
import { RoleHint } from '@/components/ui/role-hint';
import { Button } from '@/components/ui/button';
import { FormButtons } from '@/components/ui/form-buttons';
import { Dialog } from '@/components/ui/dialog';
import { ApiError, changedMeanwhile, errorMessages } from '@/lib/api-client';
import { useFormIssues } from '@/lib/use-form-issues';
import { DecimalInput, FormField, TextArea, TextInput, inputClass } from '@/components/ui/form-field';
import { PalletChanged, PalletMoveForm } from './pallet-move-form';

export interface PalletTarget {
  shelf: ShelfDto | null;
  /** the free slot that was clicked (adding) */
  slotIndex: number;
  /** the pallet being edited, or null when adding */
  pallet: PalletDto | null;
}

function messagesOf(error: unknown, fallback: string): string[] {
  return error instanceof ApiError && error.status < 500 ? error.messages : [fallback];
}

/**
 * 'Add Pallet' / 'Edit Pallet': the pallet's customer, description, number, notes, weight and spaces; an edited pallet
 * can be moved to another shelf or slot of the warehouse ('Move Pallet').
 */
export function PalletDialog({
  warehouseId,
  target,
  onClose,
  onMoved,
  onReload,
}: {
  warehouseId: number;
  target: PalletTarget;
  onClose: () => void;
  /** the pallet went to a shelf of this rack */
  onMoved: (rackId: number) => void;
  /** opens the pallet anew as it is now, after someone else changed it */
  onReload: () => void;
}) {
  const { shelf, pallet, slotIndex } = target;
  const editing = pallet !== null;
  const [opened] = useState(() => ({
    customer_name: pallet?.customerName ?? '',
    name: pallet?.name ?? '',
    pallet_number: pallet?.palletNumber ?? '',
    order_name: pallet?.orderName ?? '',
    notes: pallet?.notes ?? '',
    weight: pallet ? String(pallet.weight) : '',
    pallet_spaces: String(pallet?.shelfSpots ?? 1),
  }));
  const [values, setValues] = useState(opened);
  const dirty = (Object.keys(opened) as (keyof typeof opened)[]).some((key) => values[key] !== opened[key]);
  const issues = useFormIssues();
  // the shelf's own refusals and the server's, beside the schema's issues
  const [refusals, setRefusals] = useState<string[]>([]);
  const errors = [...issues.messages, ...refusals];
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [moving, setMoving] = useState(false);
  // a pallet of an account on hold leaves only with a Manager's reason (decision 039; the server decides)
  const held = useIsPalletHeld()(pallet?.id ?? 0);
  const mayOverride = useRole().can('manager');
  const [reason, setReason] = useState('');
  // a Viewer may open a pallet to read it, not change it (the server refuses it too)
  const readOnly = !useRole().can('floor');
  const addPallet = useAddPallet(warehouseId);
  const editPallet = useEditPallet(warehouseId);
  const deletePallet = useDeletePallet(warehouseId);
  const pending = addPallet.isPending || editPallet.isPending || deletePallet.isPending;

  const set =
    (key: keyof typeof values, upper = false) =>
    (event: { target: { value: string } }) =>
      setValues((v) => ({ ...v, [key]: upper ? event.target.value.toUpperCase() : event.target.value }));

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setRefusals([]);
    const form = issues.check(PalletFormSchema, values);
    if (!form) return;
    if (!shelf) {
      setRefusals([SHELF_NOT_FOUND]);
      return;
    }
    const spans = shelf.pallets.map((p) => ({ id: p.id, slotIndex: p.slotIndex, spots: p.shelfSpots }));
    const free = freeSpots(shelf.capacity, spans, pallet?.id);
    if (form.pallet_spaces > free) {
      setRefusals([shelfSpaceMessage(shelf.capacity, free)]);
      return;
    }
    const body = {
      customer_name: form.customer_name,
      name: form.name,
      pallet_number: form.pallet_number,
      order_name: form.order_name,
      notes: form.notes,
      weight: form.weight,
    };
    if (pallet) {
      editPallet.mutate(
        { ...body, id: pallet.id, pallet_spaces: form.pallet_spaces, version: pallet.version },
        {
          onSuccess: () => {
            toast.success(`Pallet ${form.name || form.customer_name} saved.`);
            onClose();
          },
          onError: (error) => setRefusals(messagesOf(error, 'Failed to edit pallet')),
        },
      );
    } else {
      addPallet.mutate(
        { ...body, shelf_id: shelf.id, slot_index: slotIndex, shelf_spots: form.pallet_spaces },
        {
          onSuccess: () => {
            toast.success(`Pallet ${form.name || form.customer_name} added.`);
            onClose();
          },
          onError: (error) => setRefusals(messagesOf(error, 'Failed to add pallet')),
        },
      );
    }
  }

  function onDelete() {
    if (!pallet) return;
    if (held && reason.trim() === '') {
      setRefusals([HELD_NEEDS_REASON]);
      return;
    }
    // mutateAsync settles even when the refreshed shelf has already unmounted this dialog
    deletePallet.mutateAsync({ palletId: pallet.id, overrideReason: held ? reason.trim() : undefined }).then(
      () => {
        toast.success(`Pallet ${pallet.name || pallet.customerName} deleted.`);
        onClose();
      },
      (error: unknown) => {
        setConfirmDelete(false);
        setRefusals(error instanceof ApiError ? errorMessages(error) : ['Failed to delete pallet']);
      },
    );
  }

  if (moving && pallet)
    return (
      <Dialog open onOpenChange={(open) => !open && onClose()} title="Move Pallet">
        <PalletMoveForm
          warehouseId={warehouseId}
          pallet={pallet}
          onBack={() => setMoving(false)}
          onMoved={(rackId) => {
            onMoved(rackId);
            onClose();
          }}
          onReload={onReload}
        />
      </Dialog>
    );

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && !pending && onClose()}
      title={editing ? 'Edit Pallet' : 'Add Pallet'}
    >
      <form
        onSubmit={onSubmit}
        noValidate
        className="space-y-3"
        aria-label={editing ? 'Edit Pallet' : 'Add Pallet'}
      >
        {shelf && (
          <p className="text-xs text-slate-500">
            Shelf {shelf.position},{' '}
            {editing ? `slot ${pallet.slotIndex + 1}` : `starting at slot ${slotIndex + 1}`} of{' '}
            {shelf.capacity}
          </p>
        )}
        {readOnly && <RoleHint needed="floor" />}
        <fieldset disabled={readOnly} className="contents space-y-3">
          <FormField
            label={
              <>
                Customer Name <span className="text-danger">*</span>
              </>
            }
          >
            <TextInput
              value={values.customer_name}
              onChange={set('customer_name', true)}
              required
              autoFocus
            />
          </FormField>
          <FormField label="Pallet Name / Short Description">
            <TextInput value={values.name} onChange={set('name', true)} />
          </FormField>
          <FormField label="Order (billed on its storage account)">
            <TextInput value={values.order_name} onChange={set('order_name')} placeholder="Optional" />
          </FormField>
          <div className="grid grid-cols-2 gap-3">
            <FormField label="Pallet Number">
              <TextInput value={values.pallet_number} onChange={set('pallet_number')} />
            </FormField>
            <FormField label="Weight">
              <DecimalInput value={values.weight} onChange={set('weight')} placeholder="0" />
            </FormField>
          </div>
          <FormField
            label={
              <>
                Pallet Spaces <span className="text-danger">*</span>
              </>
            }
          >
            <input
              className={inputClass}
              type="number"
              min={1}
              step={1}
              inputMode="numeric"
              value={values.pallet_spaces}
              onChange={set('pallet_spaces')}
              required
            />
          </FormField>
          <FormField label="Notes">
            <TextArea className="min-h-20" value={values.notes} onChange={set('notes')} />
          </FormField>
        </fieldset>
        {held && (
          <div className="flex items-start gap-2 text-sm text-red-800">
            <HoldPill />
            <span>{mayOverride ? HOLD_TITLE : HELD_NEEDS_MANAGER}</span>
          </div>
        )}
        {errors.length > 0 && <ErrorList messages={errors} className="text-sm font-medium text-danger" />}
        {/* someone else changed the pallet since it was opened: it is shown anew (what was typed here is not saved) */}
        {changedMeanwhile(editPallet.error) && <PalletChanged onReload={onReload} />}
        {confirmDelete ? (
          <div className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
            <p>Delete this pallet? This cannot be undone.</p>
            {held && (
              <FormField label="Its storage account is on hold: why may it leave? (kept in its history)">
                <TextInput
                  value={reason}
                  onValue={(text) => {
                    setReason(text);
                    setRefusals([]);
                  }}
                  maxLength={200}
                  autoFocus
                />
              </FormField>
            )}
            <div className="mt-3 flex justify-end gap-2">
              <Button variant="secondary" onClick={() => setConfirmDelete(false)} disabled={pending}>
                Keep it
              </Button>
              <Button variant="danger" onClick={onDelete} disabled={pending}>
                {deletePallet.isPending ? 'Deleting...' : 'Yes, delete'}
              </Button>
            </div>
          </div>
        ) : (
          <div className="flex flex-wrap justify-between gap-2 pt-2">
            <div className="flex gap-2">
              {editing && (
                <>
                  <Button
                    variant="danger"
                    onClick={() => setConfirmDelete(true)}
                    disabled={pending || readOnly || (held && !mayOverride)}
                  >
                    Delete
                  </Button>
                  <Button
                    variant="secondary"
                    onClick={() =>
                      dirty
                        ? setRefusals(['Save your changes first, or cancel them, before moving the pallet.'])
                        : setMoving(true)
                    }
                    disabled={pending || readOnly}
                  >
                    Move
                  </Button>
                </>
              )}
            </div>
            <FormButtons
              submit={editing ? 'Save Pallet' : 'Add Pallet'}
              pending={pending}
              disabled={readOnly}
              onCancel={onClose}
              className=""
            />
          </div>
        )}
      </form>
    </Dialog>
  );
}
