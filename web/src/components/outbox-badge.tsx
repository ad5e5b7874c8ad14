import { CloudOff, RotateCcw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { floorOutbox, replayFloorOutbox, useFloorOutbox } from '../lib/outbox/floor-outbox';
import type { Intent } from '../lib/outbox/outbox';
import { useOnline } from '../lib/connection-status';
import { Button } from './ui/button';
import { ConfirmDialog } from './ui/confirm-dialog';
import { Dialog } from './ui/dialog';
import { formatCount } from '@/lib/format';

/**
 * The top bar's count of floor changes this tablet has not brought to the server yet (issue 30), shown only while
 * there are some. It opens the list: what waits, and what the server refused with its reason, each with Retry and
 * Discard.
 */
export function OutboxBadge() {
  const intents = useFloorOutbox();
  const [open, setOpen] = useState(false);
  if (intents.length === 0) return null;
  const attention = intents.filter((i) => i.state === 'attention').length;
  const label =
    attention > 0
      ? `${intents.length} not synced, ${attention} need${attention === 1 ? 's' : ''} attention`
      : `${intents.length} not synced`;
  return (
    <>
      <button
        type="button"
        data-testid="outbox-badge"
        aria-label={`${label}: show the changes waiting on this device`}
        onClick={() => setOpen(true)}
        className={`flex items-center gap-1.5 rounded-lg px-2 py-1.5 text-sm font-semibold focus-visible:outline-3 focus-visible:outline-white pointer-coarse:min-h-11 pointer-coarse:min-w-11 ${
          attention > 0 ? 'bg-red-600 text-white' : 'bg-amber-300 text-amber-950'
        }`}
      >
        <CloudOff className="h-5 w-5" aria-hidden />
        <span>{intents.length}</span> <span className="hidden sm:inline">not synced</span>
      </button>
      <OutboxDialog open={open} onOpenChange={setOpen} intents={intents} />
    </>
  );
}

function OutboxDialog({
  open,
  onOpenChange,
  intents,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  intents: readonly Intent[];
}) {
  const online = useOnline();
  const [sending, setSending] = useState(false);
  const [discarding, setDiscarding] = useState<Intent | null>(null);
  const attention = intents.filter((i) => i.state === 'attention');
  const waiting = intents.filter((i) => i.state === 'waiting');

  async function sendNow() {
    setSending(true);
    try {
      const result = await replayFloorOutbox();
      if (result.applied.length > 0) toast.success(`${formatCount(result.applied.length, 'change')} synced`);
      if (result.interrupted)
        toast.error('Still no connection to the server. The changes wait on this device.');
    } finally {
      setSending(false);
    }
  }

  async function retry(intent: Intent) {
    await floorOutbox.retry(intent.key);
    await sendNow();
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Changes not synced"
      description="Made on this device and not yet on the server. They are sent in order as soon as the connection is back."
      wide
    >
      {intents.length === 0 && <p className="text-sm text-slate-600">Everything is synced.</p>}
      {attention.length > 0 && (
        <section aria-labelledby="outbox-attention" className="mb-4">
          <h3 id="outbox-attention" className="mb-2 font-semibold text-red-800">
            Needs attention
          </h3>
          <ul className="space-y-2">
            {attention.map((intent) => (
              <li
                key={intent.key}
                data-testid="outbox-attention"
                className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm"
              >
                <p className="font-medium text-slate-900">{intent.label}</p>
                <p className="mt-1 text-red-800">{intent.messages?.join(' ')}</p>
                <div className="mt-2 flex flex-wrap gap-2">
                  <Button variant="secondary" onClick={() => void retry(intent)} disabled={sending}>
                    <RotateCcw className="h-4 w-4" aria-hidden /> Retry
                  </Button>
                  <Button variant="danger" onClick={() => setDiscarding(intent)} disabled={sending}>
                    <Trash2 className="h-4 w-4" aria-hidden /> Discard
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        </section>
      )}
      {waiting.length > 0 && (
        <section aria-labelledby="outbox-waiting">
          <h3 id="outbox-waiting" className="mb-2 font-semibold text-slate-900">
            Waiting to be sent
          </h3>
          <ol className="space-y-1 text-sm">
            {waiting.map((intent) => (
              <li key={intent.key} data-testid="outbox-waiting" className="rounded-lg bg-amber-50 px-3 py-2">
                {intent.label}
              </li>
            ))}
          </ol>
          <div className="mt-4 flex justify-end">
            <Button onClick={() => void sendNow()} disabled={sending || !online}>
              {sending ? 'Sending...' : online ? 'Send now' : 'Waiting for the connection'}
            </Button>
          </div>
        </section>
      )}
      <ConfirmDialog
        open={discarding !== null}
        onOpenChange={(next) => {
          if (!next) setDiscarding(null);
        }}
        title="Discard this change?"
        message={`"${discarding?.label ?? ''}" will not reach the server. This cannot be undone.`}
        confirmLabel="Discard change"
        danger
        onConfirm={() => {
          if (discarding)
            void floorOutbox.discard(discarding.key).then(() => toast.success('Change discarded'));
          setDiscarding(null);
        }}
      />
    </Dialog>
  );
}
