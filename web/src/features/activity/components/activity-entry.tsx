import type { ActivityItemDto } from '../../../../../domain/schemas/activity.schema';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const VERBS: Record<string, string> = {
  'vault.added': 'added',
  'vault.moved': 'moved',
  'vault.staged': 'staged',
  'vault.edited': 'edited',
  'vault.deleted': 'deleted',
  'vault.released': 'released',
  'vault.attachment': 'attached a file to',
  'vault.attachment-deleted': 'removed a file from',
  'pallet.added': 'added pallet',
  'pallet.edited': 'edited pallet',
  'pallet.deleted': 'deleted pallet',
  'check.started': 'started a warehouse check',
  'check.field-opened': 'opened a field of a warehouse check',
  'check.scanned': 'scanned during a warehouse check',
  'check.finished': 'finished a warehouse check',
  'check.moved': 'moved after a warehouse check',
  'check.searched': 'searched for after a warehouse check',
};

interface Place {
  warehouse?: string;
  field?: string;
  position?: number;
  slot?: number;
  shelfId?: number;
}
interface Details {
  before?: Place | null;
  after?: Place | null;
  place?: Place | null;
  changes?: Record<string, { label?: string; before: unknown; after: unknown }>;
}

/** Where a vault or pallet stood: 'Main A1 slot 3', 'the stage', or nothing for events without a place. */
export function placeText(place: Place | null | undefined, staged = 'the stage'): string {
  if (place === undefined) return '';
  if (place === null) return staged;
  if (place.field) return `${place.warehouse ?? ''} ${place.field} slot ${place.position ?? ''}`.trim();
  if (place.slot !== undefined) return `slot ${place.slot}`;
  return '';
}

const show = (value: unknown) =>
  value === null || value === undefined || value === '' ? '(empty)' : String(value);

/** One recorded change, in words: who did what, where it was before and after, and each field's old and new value. */
export function ActivityEntry({
  item,
  showSubject = true,
}: {
  item: ActivityItemDto;
  showSubject?: boolean;
}) {
  const details = (item.details ?? {}) as Details;
  const hasMove = 'before' in details || 'after' in details;
  const verb = VERBS[item.kind] ?? item.kind.replace('.', ' ').replace(/-/g, ' ');
  const subject = item.subject ?? item.customer ?? '';
  return (
    <li
      className="space-y-1 border-t border-slate-100 px-4 py-3 first:border-t-0"
      data-testid="activity-entry"
    >
      <p className="text-sm text-slate-800">
        <strong>{item.actor ?? 'Someone'}</strong> {verb}
        {showSubject && subject && (
          <>
            {' '}
            <strong>{subject}</strong>
            {item.subject && item.customer && <span className="text-slate-600"> ({item.customer})</span>}
          </>
        )}
        {item.warehouse && !hasMove && <span className="text-slate-600"> in {item.warehouse}</span>}
      </p>
      {hasMove && item.kind !== 'vault.edited' && (
        <p className="text-sm text-slate-700" data-testid="activity-places">
          {details.before === null && item.kind.endsWith('added') ? (
            <>
              <span className="text-slate-500">at</span> {placeText(details.after)}
            </>
          ) : (
            <>
              <span className="text-slate-500">from</span> {placeText(details.before)}{' '}
              <span className="text-slate-500">to</span>{' '}
              {placeText(details.after, item.kind.endsWith('deleted') ? 'nowhere (deleted)' : 'the stage')}
            </>
          )}
        </p>
      )}
      {details.place && <p className="text-sm text-slate-700">at {placeText(details.place)}</p>}
      {details.changes && Object.keys(details.changes).length > 0 && (
        <ul className="text-sm text-slate-700">
          {Object.entries(details.changes).map(([key, change]) => (
            <li key={key}>
              {change.label ?? key}: {show(change.before)} → {show(change.after)}
            </li>
          ))}
        </ul>
      )}
      <p className="text-xs text-slate-500">
        <time dateTime={item.at}>{when.format(new Date(item.at))}</time>
      </p>
    </li>
  );
}
