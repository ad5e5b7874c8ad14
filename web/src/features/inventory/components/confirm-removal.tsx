import type { UseMutationResult } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { errorMessages } from '@/lib/api-client';

/**
 * The question before one row of the inventory (an item, a photo, a company code) is removed: the removal is sent by
 * its id, a toast says it is done, and a refusal is a toast with the server's words.
 */
export function ConfirmRemoval<T extends { id: number }>({
  removing,
  onClose,
  remove,
  title,
  message,
  confirmLabel,
  done,
}: {
  removing: T | null;
  onClose: () => void;
  remove: UseMutationResult<unknown, unknown, number>;
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
