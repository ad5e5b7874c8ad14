import { type ReactNode, useCallback, useRef, useState } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';

interface ShownAlert {
  title: string;
  message: string;
}

/**
 * The in-app alert that stands in for the browser's `alert()` where the spec names one: an alert dialog with the
 * spec's exact text as its description and an OK button, which gives focus back to the control that raised it.
 */
export function AlertMessage({ alert, onClose }: { alert: ShownAlert | null; onClose: () => void }) {
  return (
    <Dialog
      alert
      open={alert !== null}
      onOpenChange={(open) => !open && onClose()}
      title={alert?.title ?? ''}
      description={alert?.message}
    >
      <div className="mt-6 flex justify-end">
        <Button onClick={onClose}>OK</Button>
      </div>
    </Dialog>
  );
}

/**
 * `show(title, message, then?)` opens an {@link AlertMessage}; `then` runs once it is answered. Render `element`
 * where the alert belongs: inside the dialog that raises it, so it stacks above that dialog, or, when that dialog has
 * nothing more to offer, beside it, shown from its `onClosed` so one dialog is open at a time.
 */
export function useAlertMessage(): {
  show: (title: string, message: string, then?: () => void) => void;
  element: ReactNode;
} {
  const [alert, setAlert] = useState<ShownAlert | null>(null);
  const after = useRef<(() => void) | undefined>(undefined);
  const show = useCallback((title: string, message: string, then?: () => void) => {
    after.current = then;
    setAlert({ title, message });
  }, []);
  const close = useCallback(() => {
    setAlert(null);
    const then = after.current;
    after.current = undefined;
    then?.();
  }, []);
  return { show, element: <AlertMessage alert={alert} onClose={close} /> };
}
