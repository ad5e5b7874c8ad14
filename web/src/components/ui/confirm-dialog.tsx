import type { ReactNode } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';

/**
 * Asks before something is changed or destroyed: an alert dialog named by its title and described by its message;
 * the confirm button shows while the action runs.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  message,
  confirmLabel,
  cancelLabel = 'Cancel',
  onConfirm,
  pending = false,
  danger = false,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  onConfirm: () => void;
  pending?: boolean;
  danger?: boolean;
  children?: ReactNode;
}) {
  return (
    <Dialog alert open={open} onOpenChange={onOpenChange} title={title} description={message}>
      {children}
      <div className="mt-6 flex justify-end gap-3">
        <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={pending}>
          {cancelLabel}
        </Button>
        <Button variant={danger ? 'danger' : 'primary'} onClick={onConfirm} disabled={pending}>
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
