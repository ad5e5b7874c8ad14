import { Gem, PackageOpen } from 'lucide-react';
import { toast } from 'sonner';
import type { InventoryDto, InventoryItemDto } from '@domain/schemas/inventory.schema';
import { useChangeInventoryItem, useRemoveInventoryItem } from '@/api/inventory';
import { ConfirmRemoval, RemoveButton, useRemoval } from './confirm-removal';
import { EmptyState } from '@/components/ui/empty-state';
import { errorMessages } from '@/lib/api-client';
import { useFormat } from '@/lib/format';

/** The unit's items: codes, high value, and at delivery a tick per item with who and when. */
export function ItemList({ inventory, canWrite }: { inventory: InventoryDto; canWrite: boolean }) {
  const vaultId = inventory.vault.id;
  const change = useChangeInventoryItem(vaultId);
  const removal = useRemoval<InventoryItemDto>(useRemoveInventoryItem(vaultId));
  const format = useFormat();
  const locked = inventory.pickup !== null;
  const delivered = inventory.items.filter((i) => i.delivered_at).length;

  if (inventory.items.length === 0)
    return (
      <EmptyState icon={PackageOpen} title="No items yet">
        Add each item with its sticker number and condition.
      </EmptyState>
    );

  const tick = (item: InventoryItemDto, on: boolean) =>
    change.mutate(
      { id: item.id, delivered: on },
      {
        onSuccess: () =>
          toast.success(on ? `Item ${item.sticker} delivered` : `Item ${item.sticker} not delivered`),
        onError: (error) => toast.error(errorMessages(error).join(' ')),
      },
    );

  return (
    <section aria-labelledby="inventory-items" className="space-y-2">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="inventory-items" className="text-lg font-semibold text-slate-800">
          Items
        </h2>
        <p className="text-sm text-slate-600" data-testid="delivered-count">
          {format.count(inventory.items.length, 'item')} · {delivered} delivered
        </p>
      </div>
      <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
        {inventory.items.map((item) => (
          <li key={item.id} className="flex items-center gap-3 p-3" data-testid="inventory-item">
            <label
              className="flex min-h-11 min-w-11 cursor-pointer items-center justify-center"
              title="Delivered"
            >
              <input
                type="checkbox"
                className="h-6 w-6 accent-emerald-600"
                checked={item.delivered_at !== null}
                disabled={!canWrite || inventory.delivery !== null || change.isPending}
                aria-label={`Item ${item.sticker} delivered`}
                onChange={(e) => tick(item, e.target.checked)}
              />
            </label>
            <span className="w-12 shrink-0 font-mono text-lg font-bold text-slate-900">{item.sticker}</span>
            <div className="min-w-0 flex-1">
              <p className="font-medium text-slate-900">
                {item.description}
                {item.high_value && (
                  <span className="ml-2 inline-flex items-center gap-1 rounded bg-violet-100 px-1.5 text-xs font-semibold text-violet-800">
                    <Gem className="h-3 w-3" aria-hidden /> High value
                  </span>
                )}
              </p>
              <p className="text-sm text-slate-600">
                {item.room ?? 'No room'}
                {item.delivered_at &&
                  ` · delivered ${format.dateTime(item.delivered_at)} by ${item.delivered_by ?? 'someone'}`}
              </p>
              {item.codes.length > 0 && (
                <p className="font-mono text-sm font-semibold text-amber-900 sm:hidden">
                  {item.codes.join(' ')}
                </p>
              )}
            </div>
            <div className="hidden flex-wrap justify-end gap-1 sm:flex">
              {item.codes.map((code) => (
                <span
                  key={code}
                  className="rounded bg-amber-100 px-2 py-0.5 font-mono text-sm font-semibold text-amber-900"
                >
                  {code}
                </span>
              ))}
            </div>
            {canWrite && !locked && (
              <RemoveButton label={`Remove item ${item.sticker}`} onClick={() => removal.ask(item)} />
            )}
          </li>
        ))}
      </ul>
      <ConfirmRemoval
        of={removal}
        title={`Remove item ${removal.removing?.sticker ?? ''}?`}
        message="The item and its photos are removed from this inventory."
        confirmLabel="Remove item"
        done={(item) => `Item ${item.sticker} removed`}
      />
    </section>
  );
}
