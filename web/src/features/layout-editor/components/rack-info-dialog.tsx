import { useState } from 'react';
import type { RackDto } from '@domain/schemas/rack.schema';
import { toast } from 'sonner';
import { useDeleteRack } from '@/api/racks';
import { useAlertMessage } from '@/components/ui/alert-message';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { RackEditForm } from './rack-edit-form';

/**
 * 'Rack Info': what the rack is, Edit for a manager, and Delete behind a confirmation (an alert dialog) that warns
 * about its pallets.
 */
export function RackInfoDialog({
  warehouseId,
  rack,
  onClose,
}: {
  warehouseId: number;
  rack: RackDto;
  onClose: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);
  const deleteRack = useDeleteRack(warehouseId);
  const alert = useAlertMessage();
  const pallets = rack.shelves.reduce((sum, shelf) => sum + shelf.pallets.length, 0);

  function onDelete() {
    // mutateAsync settles even when the refreshed plan has already unmounted this dialog
    deleteRack.mutateAsync(rack.id).then(
      () => {
        toast.success(`${rack.name} deleted.`);
        onClose();
      },
      () => {
        setConfirming(false);
        alert.show('Rack Not Deleted', 'Failed to delete rack.');
      },
    );
  }

  const rows: [string, string | number][] = [
    ['Name', rack.name],
    ['Orientation', rack.orientation === 'vertical' ? 'Vertical' : 'Horizontal'],
    ['Width', `${rack.width} ft`],
    ['Length', `${rack.length} ft`],
    ['Capacity', `${rack.capacity} per shelf`],
    ['Shelves', rack.num_shelves],
  ];

  return (
    <Dialog open onOpenChange={(open) => !open && !deleteRack.isPending && onClose()} title="Rack Info">
      {editing ? (
        <RackEditForm
          warehouseId={warehouseId}
          rack={rack}
          onDone={() => setEditing(false)}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <dl className="grid grid-cols-[8rem_1fr] gap-x-4 gap-y-2 text-sm">
          {rows.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="font-medium text-slate-600">{label}</dt>
              <dd className="text-slate-800">{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {editing ? null : (
        <div className="mt-6 flex justify-between gap-2">
          <Button variant="danger" onClick={() => setConfirming(true)}>
            Delete
          </Button>
          <div className="flex gap-2">
            <Button variant="secondary" onClick={() => setEditing(true)}>
              Edit
            </Button>
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
          </div>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => {
          if (!deleteRack.isPending) setConfirming(open);
        }}
        title="Delete Rack"
        message={
          pallets > 0
            ? `This rack holds ${pallets === 1 ? '1 pallet' : `${pallets} pallets`}. Deleting the rack also deletes ${pallets === 1 ? 'it' : 'them'}. This cannot be undone.`
            : `Delete ${rack.name}? This cannot be undone.`
        }
        confirmLabel={
          deleteRack.isPending ? 'Deleting...' : pallets > 0 ? 'Delete rack and pallets' : 'Yes, delete rack'
        }
        onConfirm={onDelete}
        pending={deleteRack.isPending}
        danger
      />
      {alert.element}
    </Dialog>
  );
}
