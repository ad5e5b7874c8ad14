import { AlertTriangle, Send, Webhook } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import {
  type CreatedWebhookDto,
  WEBHOOK_EVENT_KINDS,
  type WebhookEndpointDto,
  type WebhookEventKind,
} from '@domain/schemas/api-access.schema';
import {
  useChangeWebhook,
  useCreateWebhook,
  useDeleteWebhook,
  useSendTestEvent,
  useWebhookDeliveries,
  useWebhooks,
} from '@/api/api-access';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorList, QueryFailed } from '@/components/ui/error-list';
import { QueryView } from '@/components/ui/query-view';
import { FormField, TextInput } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { ToggleSwitch } from '@/components/ui/toggle-switch';
import { errorMessages } from '@/lib/api-client';
import { useFormat } from '@/lib/format';
import { CreateWithSecretDialog } from './secret-once';
import { Panel } from '@/components/ui/panel';

const KINDS = Object.keys(WEBHOOK_EVENT_KINDS) as WebhookEventKind[];
const fail = (error: unknown) => toast.error(errorMessages(error).join(' '));

function AddEndpointDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateWebhook();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [kinds, setKinds] = useState<Set<WebhookEventKind>>(new Set(KINDS));
  const [created, setCreated] = useState<CreatedWebhookDto | null>(null);

  function close(next: boolean) {
    if (!next) {
      setCreated(null);
      setUrl('');
      setDescription('');
      setKinds(new Set(KINDS));
      create.reset();
    }
    onOpenChange(next);
  }

  function onSubmit() {
    create.mutate(
      { url: url.trim(), description: description.trim() || undefined, kinds: [...kinds] },
      {
        onSuccess: (answer) => {
          setCreated(answer);
          toast.success('Webhook endpoint added');
        },
      },
    );
  }

  return (
    <CreateWithSecretDialog
      open={open}
      onOpenChange={close}
      title={{ form: 'Add a webhook endpoint', secret: 'Copy the signing secret now' }}
      description={{
        form: 'Chosen events are sent to this address as signed JSON, retried for 24 hours.',
        secret:
          'The receiver checks X-Webhook-Signature: HMAC-SHA256 of "<X-Webhook-Timestamp>.<body>" with this secret.',
      }}
      secret={
        created && {
          label: 'Signing secret',
          value: created.secret,
          note: 'This is the only time it is shown. Give it to the receiving program.',
        }
      }
      mutation={create}
      submit={{ idle: 'Add endpoint', pending: 'Adding...' }}
      onSubmit={onSubmit}
    >
      <FormField label="URL" hint="An https:// address of the receiving program.">
        <TextInput
          type="url"
          name="webhook-url"
          autoComplete="off"
          placeholder="https://"
          value={url}
          onValue={setUrl}
        />
      </FormField>
      <FormField label="Description (optional)">
        <TextInput
          name="webhook-description"
          autoComplete="off"
          value={description}
          onValue={setDescription}
        />
      </FormField>
      <fieldset className="grid gap-x-4 gap-y-1 sm:grid-cols-2">
        <legend className="text-sm font-medium text-slate-700">Events</legend>
        {KINDS.map((kind) => (
          <label
            key={kind}
            className="flex min-h-10 items-center gap-2 text-sm text-slate-700 pointer-coarse:min-h-11"
          >
            <input
              type="checkbox"
              checked={kinds.has(kind)}
              onChange={(e) => {
                const next = new Set(kinds);
                if (e.target.checked) next.add(kind);
                else next.delete(kind);
                setKinds(next);
              }}
              className="h-5 w-5"
            />
            {WEBHOOK_EVENT_KINDS[kind]}
          </label>
        ))}
      </fieldset>
    </CreateWithSecretDialog>
  );
}

function Deliveries({ endpointId }: { endpointId: number }) {
  const deliveries = useWebhookDeliveries(endpointId, true);
  const format = useFormat();
  if (deliveries.isPending) return <Spinner label="Loading the deliveries..." />;
  if (deliveries.isError) return <QueryFailed query={deliveries} />;
  if (deliveries.data.length === 0) return <p className="text-sm text-slate-600">Nothing sent yet.</p>;
  return (
    <ul className="divide-y divide-slate-100 text-sm" aria-label="Recent deliveries">
      {deliveries.data.map((d) => (
        <li key={d.id} data-testid="webhook-delivery" className="flex flex-wrap justify-between gap-2 py-2">
          <span className="text-slate-700">
            {d.kind} · {format.dateTime(d.created_at)}
          </span>
          <span
            className={
              d.status === 'sent'
                ? 'text-green-700'
                : d.status === 'failed'
                  ? 'text-red-700'
                  : 'text-slate-600'
            }
          >
            {d.status === 'sent' ? 'Sent' : d.status === 'failed' ? 'Failed' : 'Waiting'}
            {d.last_status_code !== null && <> · answer {d.last_status_code}</>}
            {d.attempts > 1 && <> · {d.attempts} attempts</>}
            {d.status !== 'sent' && d.last_error && <> · {d.last_error}</>}
          </span>
        </li>
      ))}
    </ul>
  );
}

function EndpointCard({ endpoint }: { endpoint: WebhookEndpointDto }) {
  const change = useChangeWebhook();
  const remove = useDeleteWebhook();
  const test = useSendTestEvent();
  const format = useFormat();
  const [confirming, setConfirming] = useState(false);
  const [showDeliveries, setShowDeliveries] = useState(false);
  return (
    <li data-testid="webhook-row" aria-label={endpoint.url} className="space-y-3 py-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-mono text-sm break-all text-slate-800">{endpoint.url}</p>
          {endpoint.description && <p className="text-sm text-slate-600">{endpoint.description}</p>}
          <p className="text-xs text-slate-600">
            {KINDS.filter((kind) => endpoint.kinds.includes(kind))
              .map((kind) => WEBHOOK_EVENT_KINDS[kind])
              .join(', ')}
          </p>
        </div>
        <div className="w-44">
          <ToggleSwitch
            label={endpoint.enabled ? 'On' : 'Off'}
            checked={endpoint.enabled}
            disabled={change.isPending}
            onCheckedChange={(enabled) =>
              change.mutate(
                { id: endpoint.id, enabled },
                {
                  onSuccess: () => toast.success(enabled ? 'Endpoint switched on' : 'Endpoint switched off'),
                  onError: fail,
                },
              )
            }
          />
        </div>
      </div>
      {endpoint.disabled_reason && (
        <p role="alert" className="flex gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          <AlertTriangle className="h-4 w-4 shrink-0" aria-hidden /> {endpoint.disabled_reason}
        </p>
      )}
      {endpoint.enabled && endpoint.failing_since && (
        <p className="text-sm text-amber-800">Failing since {format.dateTime(endpoint.failing_since)}.</p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          disabled={!endpoint.enabled || test.isPending}
          onClick={() =>
            test.mutate(endpoint.id, {
              onSuccess: () => {
                setShowDeliveries(true);
                toast.success('Test event queued');
              },
              onError: fail,
            })
          }
        >
          <Send className="h-4 w-4" aria-hidden /> Send test event
        </Button>
        <Button
          variant="secondary"
          aria-expanded={showDeliveries}
          onClick={() => setShowDeliveries((v) => !v)}
        >
          {showDeliveries ? 'Hide deliveries' : 'Recent deliveries'}
        </Button>
        <Button
          variant="danger"
          onClick={() => setConfirming(true)}
          aria-label={`Delete endpoint ${endpoint.url}`}
        >
          Delete
        </Button>
      </div>
      {showDeliveries && <Deliveries endpointId={endpoint.id} />}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete this endpoint?"
        message={`${endpoint.url} is sent nothing more, and its delivery list is deleted.`}
        confirmLabel={remove.isPending ? 'Deleting...' : 'Yes, delete it'}
        danger
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(endpoint.id, {
            onSuccess: () => {
              setConfirming(false);
              toast.success('Endpoint deleted');
            },
          })
        }
      >
        {remove.isError && <ErrorList messages={errorMessages(remove.error)} />}
      </ConfirmDialog>
    </li>
  );
}

/** The company's webhook endpoints: add (the secret shown once), switch on or off, test, deliveries, delete. */
export function WebhooksSection() {
  const webhooks = useWebhooks();
  const [adding, setAdding] = useState(false);
  return (
    <Panel
      id="webhooks-title"
      title="Webhooks"
      hint="Tell other programs when vaults change or a check is finished."
      actions={
        <Button onClick={() => setAdding(true)}>
          <Webhook className="h-4 w-4" aria-hidden /> Add endpoint
        </Button>
      }
    >
      <AddEndpointDialog open={adding} onOpenChange={setAdding} />
      <QueryView
        query={webhooks}
        loading="Loading the endpoints..."
        empty={
          <EmptyState icon={Webhook} title="No webhook endpoints yet">
            Add the address of a program that should hear about changes.
          </EmptyState>
        }
      >
        {(list) => (
          <ul aria-labelledby="webhooks-title" className="divide-y divide-slate-100">
            {list.map((endpoint) => (
              <EndpointCard key={endpoint.id} endpoint={endpoint} />
            ))}
          </ul>
        )}
      </QueryView>
    </Panel>
  );
}
