import { type FormEvent, useState } from 'react';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { ErrorList } from '../ui/error-list';
import { FormField, TextArea } from '../ui/form-field';
import { errorMessages } from '../../lib/api-client';

/** What a held unit is about to do: the dialog's wording follows it. */
export interface HoldOverrideRequest {
  /** "pull HOLD-1" or "release 3 vaults" */
  what: string;
  send: (reason: string) => void;
}

/**
 * A Manager's override of a hold (decision 039): the reason is asked before a unit of an account on hold is pulled or
 * released, and kept in the unit's and the account's history. The server refuses the same step to any other role.
 */
export function HoldOverrideDialog({
  request,
  pending,
  error,
  onOpenChange,
}: {
  request: HoldOverrideRequest | null;
  pending: boolean;
  error: unknown;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog
      open={request !== null}
      onOpenChange={onOpenChange}
      title="Override the hold"
      description="This storage account is on hold for unpaid storage. Say why it may leave anyway: the reason is kept in the unit's and the account's history."
    >
      {request && <ReasonForm key={request.what} request={request} pending={pending} error={error} />}
    </Dialog>
  );
}

function ReasonForm({
  request,
  pending,
  error,
}: {
  request: HoldOverrideRequest;
  pending: boolean;
  error: unknown;
}) {
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  function submit(event: FormEvent) {
    event.preventDefault();
    if (reason.trim() === '') {
      setMissing(true);
      return;
    }
    request.send(reason.trim());
  }
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <FormField label="Reason for the override" error={missing ? 'Give a reason.' : undefined}>
        <TextArea
          className="min-h-24"
          value={reason}
          maxLength={200}
          onValue={(text) => {
            setReason(text);
            setMissing(false);
          }}
        />
      </FormField>
      {error !== null && <ErrorList messages={errorMessages(error)} />}
      <div className="flex justify-end">
        <Button type="submit" variant="danger" disabled={pending}>
          {pending ? 'Saving...' : `Override and ${request.what}`}
        </Button>
      </div>
    </form>
  );
}
