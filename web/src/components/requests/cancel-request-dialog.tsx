import { toast } from 'sonner';
import { errorMessages } from '../../lib/api-client';
import { ConfirmDialog } from '../ui/confirm-dialog';

/** What a cancel mutation is handed: the dialog closes either way and says what happened in a toast. */
export interface CancelOutcome {
  onSuccess: () => void;
  onError: (error: unknown) => void;
}

/**
 * The question before a request is cancelled, for the office and the customer's portal alike: `message` says what
 * cancelling does from where it is asked; `cancel` sends it.
 */
export function CancelRequestDialog({
  requestId,
  open,
  onOpenChange,
  message,
  pending,
  cancel,
}: {
  requestId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  message: string;
  pending: boolean;
  cancel: (outcome: CancelOutcome) => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Cancel request #${requestId}?`}
      message={message}
      confirmLabel="Yes, cancel it"
      cancelLabel="No, keep it"
      danger
      pending={pending}
      onConfirm={() =>
        cancel({
          onSuccess: () => {
            onOpenChange(false);
            toast.success(`Request #${requestId} cancelled`);
          },
          onError: (error) => {
            onOpenChange(false);
            toast.error(errorMessages(error).join(' '));
          },
        })
      }
    />
  );
}
