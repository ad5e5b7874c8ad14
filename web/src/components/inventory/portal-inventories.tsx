import { ClipboardList } from 'lucide-react';
import type { PortalUnitDto } from '@domain/schemas/customer.schema';
import { portalPhotoUrl, usePortalInventory } from '@/api/inventory';
import { QueryFailed } from '@/components/ui/error-list';
import { Spinner } from '@/components/ui/spinner';
import { formatDateTime } from '@/lib/format';

/**
 * The portal's read-only condition inventories (issue 29, decision 049): for each of the customer's units the
 * items with their codes, the photos and who signed. A unit without an inventory says so in a line.
 */
export function PortalInventories({
  units,
  locale,
}: {
  units: PortalUnitDto[] | undefined;
  locale?: string;
}) {
  if (!units || units.length === 0) return null;
  return (
    <section aria-labelledby="portal-inventories" className="space-y-3">
      <h2 id="portal-inventories" className="text-lg font-semibold text-slate-800">
        Condition inventories
      </h2>
      {units.map((unit) => (
        <UnitInventory key={unit.id} unit={unit} locale={locale} />
      ))}
    </section>
  );
}

function UnitInventory({ unit, locale }: { unit: PortalUnitDto; locale?: string }) {
  const inventory = usePortalInventory(unit.id);
  if (inventory.isPending)
    return <Spinner label={`Loading the inventory of ${unit.number ?? 'a unit'}...`} />;
  if (inventory.isError) return <QueryFailed query={inventory} />;
  const data = inventory.data;
  if (data.items.length === 0 && data.photos.length === 0)
    return (
      <p className="text-sm text-slate-600" data-testid="portal-no-inventory">
        Unit {data.unit.number ?? 'without number'}: no condition inventory was taken.
      </p>
    );
  const used = new Set(data.items.flatMap((i) => i.codes));
  return (
    <article
      className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm"
      data-testid="portal-inventory"
    >
      <h3 className="flex items-center gap-2 font-semibold text-slate-900">
        <ClipboardList className="h-4 w-4 text-slate-500" aria-hidden /> Unit{' '}
        {data.unit.number ?? 'without number'}
      </h3>
      <ul className="mt-2 divide-y divide-slate-100 text-sm">
        {data.items.map((item) => (
          <li key={item.id} className="flex items-baseline gap-2 py-1.5">
            <span className="w-10 shrink-0 font-mono font-semibold">{item.sticker}</span>
            <span className="flex-1">
              {item.description}
              {item.room && <span className="text-slate-500"> · {item.room}</span>}
              {item.high_value && <span className="text-violet-700"> · high value</span>}
              {item.delivered_at && <span className="text-emerald-700"> · delivered</span>}
            </span>
            <span className="font-mono font-semibold text-amber-800">{item.codes.join(' ')}</span>
          </li>
        ))}
      </ul>
      {used.size > 0 && (
        <p className="mt-2 text-xs text-slate-600">
          {data.codes
            .filter((c) => used.has(c.code))
            .map((c) => `${c.code} ${c.meaning}`)
            .join(' · ')}
        </p>
      )}
      {data.photos.length > 0 && (
        <ul className="mt-3 grid grid-cols-3 gap-2">
          {data.photos.map((photo) => (
            <li key={photo.id}>
              <img
                src={portalPhotoUrl(photo.id)}
                alt={`Photo of unit ${data.unit.number ?? ''}`}
                className="aspect-square w-full rounded object-cover"
                loading="lazy"
                data-testid="portal-inventory-photo"
              />
            </li>
          ))}
        </ul>
      )}
      {(data.pickup || data.delivery) && (
        <p className="mt-2 text-xs text-slate-600">
          {data.pickup &&
            `Signed at pickup by ${data.pickup.signer}, ${formatDateTime(data.pickup.signed_at, locale)}.`}
          {data.delivery &&
            ` Signed at delivery by ${data.delivery.signer}, ${formatDateTime(data.delivery.signed_at, locale)}.`}
        </p>
      )}
    </article>
  );
}
