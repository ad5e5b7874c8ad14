import type { ReactNode, Ref } from 'react';
import { Button } from './button';

/**
 * After a save refused because someone else changed the thing since it was opened (409): nothing was saved, and one
 * button opens it anew as it is now. `announce` when the refusal's own message is not shown in an alert already.
 */
export function ChangedMeanwhile({
  children,
  reload,
  reloading = false,
  onReload,
  buttonRef,
  announce = false,
}: {
  children: ReactNode;
  /** the button's words, e.g. 'Reload terms' */
  reload: string;
  reloading?: boolean;
  onReload: () => void;
  buttonRef?: Ref<HTMLButtonElement>;
  announce?: boolean;
}) {
  return (
    <div
      role={announce ? 'alert' : undefined}
      className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm"
    >
      <p className="text-amber-900">{children}</p>
      <Button ref={buttonRef} variant="secondary" disabled={reloading} onClick={onReload}>
        {reloading ? 'Reloading...' : reload}
      </Button>
    </div>
  );
}
