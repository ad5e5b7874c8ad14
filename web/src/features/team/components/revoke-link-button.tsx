import { useState } from 'react';
import { toast } from 'sonner';
import { useRevokeLink } from '@/api/team';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ErrorList } from '@/components/ui/error-list';
import { errorMessages } from '@/lib/api-client';

/** Revokes an unused invitation or password link, after asking: the link stops working at once. */
export function RevokeLinkButton({ linkId, what }: { linkId: number; what: string }) {
  const revoke = useRevokeLink();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="secondary"
        onClick={() => {
          revoke.reset();
          setOpen(true);
        }}
        aria-label={`Revoke ${what}`}
      >
        Revoke
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Revoke this link?"
        message={`${what[0]!.toUpperCase()}${what.slice(1)} stops working at once. You can make a new link later.`}
        confirmLabel={revoke.isPending ? 'Revoking...' : 'Yes, revoke it'}
        danger
        pending={revoke.isPending}
        onConfirm={() =>
          revoke.mutate(linkId, {
            onSuccess: () => {
              setOpen(false);
              toast.success('Link revoked');
            },
          })
        }
      >
        {revoke.isError && <ErrorList messages={errorMessages(revoke.error)} />}
      </ConfirmDialog>
    </>
  );
}
