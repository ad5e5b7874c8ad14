import { CheckCircle2 } from 'lucide-react';
import { toast } from 'sonner';
import type { SignatureKind } from '@domain/rules/inventory';
import type { InventoryDto } from '@domain/schemas/inventory.schema';
import { attachmentUrl, useSignInventory } from '@/api/inventory';
import { ErrorList } from '@/components/ui/error-list';
import { errorMessages } from '@/lib/api-client';
import { useFormat } from '@/lib/format';
import { SignaturePad } from './signature-pad';
import { Panel } from '@/components/ui/panel';

const TITLES: Record<SignatureKind, string> = { pickup: 'At pickup', delivery: 'At delivery' };

/** The customer's two signatures: at pickup (receiving), then at delivery once the items are ticked off. */
export function SignaturesSection({ inventory, canWrite }: { inventory: InventoryDto; canWrite: boolean }) {
  const sign = useSignInventory(inventory.vault.id);
  const format = useFormat();
  return (
    <Panel title="Customer's signature">
      <div className="grid gap-4 md:grid-cols-2">
        {(['pickup', 'delivery'] as const).map((kind) => {
          const signed = inventory[kind];
          return (
            <div key={kind} className="space-y-2" data-testid={`signature-${kind}`}>
              <h3 className="font-semibold text-slate-700">{TITLES[kind]}</h3>
              {signed ? (
                <div className="space-y-1">
                  <p className="flex items-center gap-1.5 text-sm text-emerald-800">
                    <CheckCircle2 className="h-4 w-4" aria-hidden />
                    Signed by {signed.signer}, {format.dateTime(signed.signed_at)}
                  </p>
                  {signed.attachment_id && (
                    <img
                      src={attachmentUrl(signed.attachment_id)}
                      alt={`Signature of ${signed.signer}`}
                      className="h-24 rounded border border-slate-200 bg-white object-contain"
                    />
                  )}
                </div>
              ) : !canWrite ? (
                <p className="text-sm text-slate-500">Not signed yet.</p>
              ) : inventory.items.length === 0 ? (
                <p className="text-sm text-slate-500">
                  Add the items first; then the customer signs for them.
                </p>
              ) : kind === 'delivery' && inventory.pickup === null ? (
                <p className="text-sm text-slate-500">
                  The customer signs at delivery after signing at pickup.
                </p>
              ) : (
                <SignaturePad
                  label={`Signature ${TITLES[kind].toLowerCase()}`}
                  pending={sign.isPending && sign.variables?.kind === kind}
                  onSave={(drawing, signer) =>
                    sign.mutate(
                      { kind, signer, drawing },
                      { onSuccess: () => toast.success(`Signed ${TITLES[kind].toLowerCase()} by ${signer}`) },
                    )
                  }
                />
              )}
              {sign.isError && sign.variables?.kind === kind && (
                <ErrorList messages={errorMessages(sign.error)} />
              )}
            </div>
          );
        })}
      </div>
    </Panel>
  );
}
