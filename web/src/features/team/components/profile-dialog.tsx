import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { ROLE_LABELS } from '@domain/rules/roles';
import { useSession } from '@/api/session';
import { useChangeProfile } from '@/api/team';
import { FormButtons } from '@/components/ui/form-buttons';
import { Dialog } from '@/components/ui/dialog';
import { ErrorList } from '@/components/ui/error-list';
import { FormField, TextInput } from '@/components/ui/form-field';
import { PasswordField } from '@/components/ui/password-field';
import { errorMessages } from '@/lib/api-client';

/** Every member's own name and password (a new password signs out the member's other devices). */
export function ProfileDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const session = useSession();
  const change = useChangeProfile();
  const [name, setName] = useState(session.data?.username ?? '');
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    change.mutate(
      {
        ...(trimmed !== session.data?.username && { name: trimmed }),
        ...(newPassword !== '' && { currentPassword, newPassword }),
      },
      {
        onSuccess: () => {
          toast.success(newPassword ? 'Saved; your other devices are signed out' : 'Saved');
          setCurrentPassword('');
          setNewPassword('');
          onOpenChange(false);
        },
      },
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="My profile"
      description={
        session.data && (
          <>
            {/* an address of up to 254 characters breaks anywhere rather than widen the dialog */}
            <span className="break-all">{session.data.email}</span>, {ROLE_LABELS[session.data.role]} at{' '}
            {session.data.company.name}
          </>
        )
      }
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="My profile">
        {change.isError && <ErrorList messages={errorMessages(change.error)} />}
        <FormField label="Name">
          <TextInput name="name" value={name} onValue={setName} />
        </FormField>
        <input type="hidden" name="username" autoComplete="username" value={session.data?.email ?? ''} />
        <PasswordField
          label="Current password"
          hint="Only to set a new password."
          name="current-password"
          autoComplete="current-password"
          value={currentPassword}
          onChange={setCurrentPassword}
        />
        <PasswordField
          label="New password"
          name="new-password"
          autoComplete="new-password"
          value={newPassword}
          onChange={setNewPassword}
        />
        <FormButtons submit="Save" pending={change.isPending} onCancel={() => onOpenChange(false)} />
      </form>
    </Dialog>
  );
}
