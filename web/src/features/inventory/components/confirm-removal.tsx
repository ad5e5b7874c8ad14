import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import { Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { errorMessages } from '@/lib/api-client';

export interface Removal<T> {
  /** the row asked about, null while nothing is */
  removing: T | null;
  ask: (row: T) => void;
  close: () => void;
  remove: UseMutationResult<unknown, unknown, number>;
}

/** Which row of a list is about to be removed, and how. */
export function useRemoval<T>(remove: UseMutationResult<unknown, unknown, number>): Removal<T> {
  const [removing, setRemoving] = useState<T | null>(null);
  return { removing, ask: setRemoving, close: () => setRemoving(null), remove };
}

/**
 * The question before one row of the inventory (an item, a photo, a company code) is removed: the removal is sent by
 * its id, a toast says it is done, and a refusal is a toast with the server's words.
 */
export function ConfirmRemoval<T extends { id: number }>({
  of: { removing, close: onClose, remove },
  title,
  message,
  confirmLabel,
  done,
}: {
  of: Removal<T>;
  title: string;
  message: string;
  confirmLabel: string;
  /** the toast once it is removed */
  done: (removed: T) => string;
}) {
  return (
    <ConfirmDialog
      open={removing !== null}
      onOpenChange={(open) => !open && onClose()}
      title={title}
      message={message}
      confirmLabel={confirmLabel}
      danger
      pending={remove.isPending}
      onConfirm={() =>
        removing &&
        remove.mutate(removing.id, {
          onSuccess: () => {
            toast.success(done(removing));
            onClose();
          },
          onError: (error) => {
            toast.error(errorMessages(error).join(' '));
            onClose();
          },
        })
      }
    />
  );
}

/** The bin beside a row that asks the question above. */
export function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Button variant="ghost" className="!px-2" aria-label={label} onClick={onClick}>
      <Trash2 className="h-4 w-4" aria-hidden />
    </Button>
  );
}
