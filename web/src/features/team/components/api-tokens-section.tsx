import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { ROLES, ROLE_LABELS, type Role } from '@domain/rules/roles';
import type { ApiTokenDto, CreatedApiTokenDto } from '@domain/schemas/api-access.schema';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from '@/api/api-access';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorList } from '@/components/ui/error-list';
import { QueryView } from '@/components/ui/query-view';
import { FormField, SelectInput, TextInput } from '@/components/ui/form-field';
import { LabelledOptions } from '@/components/ui/named-options';
import { errorMessages } from '@/lib/api-client';
import { useFormat } from '@/lib/format';
import { CreateWithSecretDialog } from './secret-once';
import { Panel } from '@/components/ui/panel';

const STATUS_LABELS: Record<ApiTokenDto['status'], string> = {
  active: 'Active',
  expired: 'Expired',
  revoked: 'Revoked',
};

function CreateTokenDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateApiToken();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [expiresOn, setExpiresOn] = useState('');
  const [created, setCreated] = useState<CreatedApiTokenDto | null>(null);

  function close(next: boolean) {
    if (!next) {
      setCreated(null);
      setName('');
      setExpiresOn('');
      create.reset();
    }
    onOpenChange(next);
  }

  function onSubmit() {
    create.mutate(
      { name: name.trim(), role, expires_on: expiresOn || null },
      {
        onSuccess: (answer) => {
          setCreated(answer);
          toast.success(`Token ${answer.token.name} created`);
        },
      },
    );
  }

  return (
    <CreateWithSecretDialog
      open={open}
      onOpenChange={close}
      title={{ form: 'New API token', secret: 'Copy the token now' }}
      description={{
        form: 'A program calls the API with this token, with the role you choose, in this company.',
        secret: 'Programs send it as "Authorization: Bearer <token>".',
      }}
      secret={
        created && {
          label: 'API token',
          value: created.secret,
          note: 'This is the only time it is shown: the server keeps only a fingerprint of it. Store it where the program reads it.',
        }
      }
      mutation={create}
      submit={{ idle: 'Create token', pending: 'Creating...' }}
      onSubmit={onSubmit}
    >
      <FormField label="Name" hint="Say what uses it, e.g. Dispatch sync.">
        <TextInput name="token-name" autoComplete="off" value={name} onValue={setName} />
      </FormField>
      <FormField label="Role">
        <SelectInput value={role} onValue={setRole}>
          <LabelledOptions values={ROLES} labels={ROLE_LABELS} />
        </SelectInput>
      </FormField>
      <FormField label="Expires on (optional)" hint="Empty: it works until you revoke it.">
        <TextInput type="date" name="expires-on" value={expiresOn} onValue={setExpiresOn} />
      </FormField>
    </CreateWithSecretDialog>
  );
}

function RevokeTokenButton({ token }: { token: ApiTokenDto }) {
  const revoke = useRevokeApiToken();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="danger"
        onClick={() => {
          revoke.reset();
          setOpen(true);
        }}
        aria-label={`Revoke token ${token.name}`}
      >
        Revoke
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Revoke this token?"
        message={`Programs using ${token.name} are refused from the next request on. This cannot be undone; you can create a new token.`}
        confirmLabel={revoke.isPending ? 'Revoking...' : 'Yes, revoke it'}
        danger
        pending={revoke.isPending}
        onConfirm={() =>
          revoke.mutate(token.id, {
            onSuccess: () => {
              setOpen(false);
              toast.success(`Token ${token.name} revoked`);
            },
          })
        }
      >
        {revoke.isError && <ErrorList messages={errorMessages(revoke.error)} />}
      </ConfirmDialog>
    </>
  );
}

/** The company's API tokens: create (the secret shown once), see when each was last used, revoke. */
export function ApiTokensSection() {
  const tokens = useApiTokens();
  const format = useFormat();
  const [creating, setCreating] = useState(false);
  return (
    <Panel
      id="api-tokens-title"
      title="API tokens"
      hint="Let other programs read and change this company's data."
      actions={
        <Button onClick={() => setCreating(true)}>
          <KeyRound className="h-4 w-4" aria-hidden /> New token
        </Button>
      }
    >
      <CreateTokenDialog open={creating} onOpenChange={setCreating} />
      <QueryView
        query={tokens}
        loading="Loading the tokens..."
        empty={
          <EmptyState icon={KeyRound} title="No API tokens yet">
            Create one for each program that should reach the API.
          </EmptyState>
        }
      >
        {(list) => (
          <ul aria-labelledby="api-tokens-title" className="divide-y divide-slate-100">
            {list.map((token) => (
              <li
                key={token.id}
                data-testid="api-token-row"
                aria-label={token.name}
                className="flex flex-wrap items-center justify-between gap-3 py-3"
              >
                <div className="min-w-0 space-y-1">
                  <p className="font-semibold break-words text-slate-800">
                    {token.name}{' '}
                    <span className="font-mono text-xs font-normal text-slate-500">...{token.hint}</span>
                  </p>
                  <p className="text-xs text-slate-600">
                    {ROLE_LABELS[token.role]} · created {format.dateTime(token.created_at)}
                    {token.created_by && <> by {token.created_by}</>} · last used{' '}
                    {token.last_used_at ? format.dateTime(token.last_used_at) : 'never'}
                    {token.expires_at && token.status === 'active' && (
                      <> · expires {format.dateTime(token.expires_at)}</>
                    )}
                  </p>
                </div>
                <div className="flex items-center gap-3">
                  <span
                    className={`text-sm ${token.status === 'active' ? 'text-green-700' : 'text-slate-600'}`}
                    data-testid="api-token-status"
                  >
                    {STATUS_LABELS[token.status]}
                  </span>
                  {token.status === 'active' && <RevokeTokenButton token={token} />}
                </div>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </Panel>
  );
}
