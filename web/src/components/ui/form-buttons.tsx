import type { ReactNode } from 'react';
import { Button } from './button';

/**
 * A form's closing row: Cancel, then the submit button, which says what is happening while the change is sent
 * (`busy`) and cannot be pressed twice. Cancel waits for the answer too: the change may already be made.
 */
export function FormButtons({
  submit,
  busy = 'Saving...',
  pending,
  disabled = false,
  danger = false,
  onCancel,
  className = 'justify-end pt-2',
}: {
  submit: ReactNode;
  busy?: string;
  pending: boolean;
  /** the submit button is off for another reason too, e.g. nothing is chosen yet */
  disabled?: boolean;
  danger?: boolean;
  onCancel: () => void;
  className?: string;
}) {
  return (
    <div className={`flex gap-3 ${className}`}>
      <Button variant="secondary" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button type="submit" variant={danger ? 'danger' : 'primary'} disabled={pending || disabled}>
        {pending ? busy : submit}
      </Button>
    </div>
  );
}
