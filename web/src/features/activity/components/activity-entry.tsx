import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { rackTitle } from '@domain/rules/rack-placement';
import { ROLE_LABELS, type Role } from '@domain/rules/roles';
import type { ActivityItemDto } from '@domain/schemas/activity.schema';
import { paths } from '@/config/paths';
import { formatCount, useFormat } from '@/lib/format';

interface Place {
  warehouse?: string;
  field?: string;
  position?: number;
  slot?: number;
  shelfId?: number;
  rack?: string;
  rackId?: number;
  shelf?: number;
}
interface Details {
  before?: Place | null;
  after?: Place | null;
  place?: Place | null;
  created?: boolean;
  reason?: string;
  /** an invoice's number (invoice.issued, invoice.paid) */
  number?: number;
  changes?: Record<string, { label?: string; before: unknown; after: unknown }>;
  field?: string;
  full?: boolean;
  type?: string;
  email?: string;
  name?: string;
  /** what a hold override let a unit do: 'pulled' or 'released' */
  action?: string;
  /** customer events (issue 29): the old name, a new address, a customer the units already named, a link mailed */
  renamedFrom?: string;
  newEmail?: boolean;
  hadUnits?: boolean;
  mailed?: boolean;
  /** a webhook endpoint's address (issue 31) */
  url?: string;
  role?: string;
  result?: string;
  expectedField?: string | null;
  fields?: unknown;
  notChecked?: string[];
  found?: number;
  missing?: number;
  unexpected?: number;
  vaults?: unknown;
  pallets?: unknown;
  checks?: unknown;
  count?: number;
  direction?: string;
  operation?: string;
  description?: string;
  /** a customer's request (issue 29): the request a unit was loaded for, the truck, a Manager's override */
  requestId?: number;
  truck?: string | null;
  overrideReason?: string;
  /** a cancelled pull list's title */
  title?: string | null;
}

/** Where a vault or pallet stood: 'Main A1 slot 3', 'the stage', or nothing for events without a place. */
function placeText(place: Place | null | undefined, staged = 'the stage'): string {
  if (place === undefined) return '';
  if (place === null) return staged;
  if (place.field) return `${place.warehouse ?? ''} ${place.field} slot ${place.position ?? ''}`.trim();
  if (place.rack)
    return `${place.warehouse ?? ''} ${rackTitle(place.rack)} shelf ${place.shelf ?? ''} slot ${place.slot ?? ''}`.trim();
  if (place.slot !== undefined) return `slot ${place.slot}`;
  return '';
}

/** A place as text, its field a link to the field in its warehouse (a vault's place before and after a change). */
function PlaceLink({ place, staged }: { place: Place | null | undefined; staged?: string }) {
  const text = placeText(place, staged);
  if (place?.field && place.warehouse)
    return (
      <Link to={paths.warehouseField(place.warehouse, place.field)} className={linkClass}>
        {text}
      </Link>
    );
  return <>{text}</>;
}

/** A role as the Team page names it ('Floor'), or as recorded when it is not one of today's roles. */
const roleName = (role: string) => (role in ROLE_LABELS ? ROLE_LABELS[role as Role] : role);

const show = (value: unknown) =>
  value === null || value === undefined || value === '' ? '(empty)' : String(value);

const linkClass =
  'font-semibold text-blue-800 underline decoration-blue-300 underline-offset-2 hover:text-blue-950';

/** A link to what an entry names, when it still has a page; plain bold text otherwise. */
function Named({ to, children }: { to?: string; children: ReactNode }) {
  if (!to) return <strong>{children}</strong>;
  return (
    <Link to={to} className={linkClass}>
      {children}
    </Link>
  );
}

/** A pallet that is still there opens in its rack, marked (issue 27 point 5); a deleted one has no page. */
function palletLink(item: ActivityItemDto, details: Details): string | undefined {
  const rackId = details.after?.rackId ?? details.before?.rackId;
  if (item.kind === 'pallet.deleted' || item.kind === 'pallet.removed') return undefined;
  if (!item.warehouse || !rackId || !item.entityId) return undefined;
  return paths.rackPallet(item.warehouse, rackId, item.entityId);
}

const count = (value: unknown) =>
  Array.isArray(value) ? value.length : typeof value === 'number' ? value : 0;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * One history entry as a sentence a manager can read: who did what to which vault, field, member or check, where it
 * was before and after, each named thing a link to its page (issue 27 point 5, issue 34).
 */
function sentence(item: ActivityItemDto, details: Details, showSubject: boolean): ReactNode {
  const warehouse = item.warehouse ?? undefined;
  const warehouseLink = warehouse ? <Named to={paths.warehouse(warehouse)}>{warehouse}</Named> : null;
  const inWarehouse = warehouseLink ? <> in {warehouseLink}</> : null;
  const vault =
    showSubject && item.subject ? (
      <>
        {' '}
        <Named
          to={
            item.kind === 'vault.deleted' || item.kind === 'vault.removed'
              ? undefined
              : paths.editVault(item.subject)
          }
        >
          {item.subject}
        </Named>
        {item.customer && <span className="text-slate-600"> ({item.customer})</span>}
      </>
    ) : showSubject && item.customer ? (
      <>
        {' '}
        <strong>{item.customer}</strong>
      </>
    ) : null;
  const pallet =
    showSubject && (item.subject || item.customer) ? (
      <>
        {' '}
        <Named to={palletLink(item, details)}>{item.subject ?? 'a pallet'}</Named>
        {item.customer && <span className="text-slate-600"> ({item.customer})</span>}
      </>
    ) : null;
  // a field is named with a link to it in its warehouse (its panel open there)
  const field = details.field ? (
    <Named to={warehouse ? paths.warehouseField(warehouse, details.field) : undefined}>{details.field}</Named>
  ) : (
    <>a field</>
  );
  const check =
    item.entityId !== null ? (
      <Named to={paths.check(item.entityId)}>check #{item.entityId}</Named>
    ) : (
      'a check'
    );
  const pullList =
    item.entityId !== null ? (
      <Named to={paths.pullList(item.entityId)}>pull list #{item.entityId}</Named>
    ) : (
      'a pull list'
    );
  // a customer's request (issue 29): its step, linked to the request's page
  if (item.kind.startsWith('request.') && item.entityId !== null) {
    const step = item.kind.slice('request.'.length);
    return (
      <>
        {step === 'requested' ? 'entered' : 'moved'}{' '}
        <Named to={paths.request(item.entityId)}>request #{item.entityId}</Named>
        {item.customer && <span className="text-slate-600"> ({item.customer})</span>}
        {step !== 'requested' && <> to {step}</>}
        {details.overrideReason ? <> with units missing: {details.overrideReason}</> : null}
      </>
    );
  }
  switch (item.kind) {
    // invoices (issue 28): the number only, since not every member may see amounts or the billing screens
    case 'invoice.issued':
    case 'invoice.paid':
      return (
        <>
          {item.kind === 'invoice.issued' ? 'issued invoice' : 'recorded the payment that settled invoice'}{' '}
          {details.number}
          {item.customer && <span className="text-slate-600"> ({item.customer})</span>}
        </>
      );
    case 'vault.loaded':
      return (
        <>
          loaded vault{vault} onto {details.truck ? `truck ${details.truck}` : 'the truck'}
          {typeof details.requestId === 'number' && (
            <>
              {' '}
              for <Named to={paths.request(details.requestId)}>request #{details.requestId}</Named>
            </>
          )}
        </>
      );
    case 'vault.added':
      return <>added vault{vault}</>;
    case 'vault.moved':
      return <>moved vault{vault}</>;
    case 'vault.staged':
      return details.created ? <>added vault{vault} to the stage</> : <>staged vault{vault}</>;
    case 'vault.edited':
      return <>edited vault{vault}</>;
    case 'vault.deleted':
      return <>deleted vault{vault}</>;
    case 'vault.removed':
      return (
        <>
          removed vault{vault} with its warehouse{inWarehouse}
        </>
      );
    case 'vault.released':
      return <>released vault{vault}</>;
    case 'vault.attachment':
      return <>attached a file to vault{vault}</>;
    case 'vault.attachment-deleted':
      return <>removed a file from vault{vault}</>;
    case 'pallet.added':
      return (
        <>
          added pallet{pallet}
          {inWarehouse}
        </>
      );
    case 'pallet.edited':
      return (
        <>
          edited pallet{pallet}
          {inWarehouse}
        </>
      );
    case 'pallet.moved':
      return (
        <>
          moved pallet{pallet}
          {inWarehouse}
        </>
      );
    case 'pallet.deleted':
      return (
        <>
          deleted pallet{pallet}
          {inWarehouse}
        </>
      );
    case 'pallet.removed':
      return (
        <>
          removed pallet{pallet} with its {details.reason === 'rack-deleted' ? 'rack' : 'warehouse'}
          {inWarehouse}
        </>
      );
    case 'field.full':
      if (details.full === undefined)
        return (
          <>
            changed whether {field} is full{inWarehouse}
          </>
        );
      return (
        <>
          marked field {field}
          {inWarehouse} <strong>{details.full ? 'full' : 'not full'}</strong>
        </>
      );
    case 'field.type':
      return (
        <>
          made field {field}
          {inWarehouse} {details.type === 'vault' ? 'a vault field' : 'a couchbox'}
        </>
      );
    case 'member.invited':
      return (
        <>
          invited <Named to={paths.team}>{details.email ?? 'a member'}</Named>
          {details.role && <> as {roleName(details.role)}</>}
        </>
      );
    case 'member.joined':
      return (
        <>
          joined the team as <Named to={paths.team}>{details.name ?? details.email ?? 'a member'}</Named>
          {details.role && <> ({roleName(details.role)})</>}
        </>
      );
    case 'member.deactivated':
      return (
        <>
          deactivated <Named to={paths.team}>{details.name ?? details.email ?? 'a member'}</Named>
        </>
      );
    case 'member.changed':
      return (
        <>
          changed member <Named to={paths.team}>{details.name ?? details.email ?? 'a member'}</Named>
        </>
      );
    case 'member.invite-revoked':
      return (
        <>
          revoked the invitation of <Named to={paths.team}>{details.email ?? 'a member'}</Named>
        </>
      );
    case 'member.reset-revoked':
      return (
        <>
          revoked the password link of{' '}
          <Named to={paths.team}>{details.name ?? details.email ?? 'a member'}</Named>
        </>
      );
    case 'warehouse.added':
      return <>added warehouse {warehouseLink}</>;
    case 'warehouse.deleted':
      return (
        <>
          deleted warehouse <strong>{warehouse ?? details.name}</strong>, with{' '}
          {plural(count(details.vaults), 'vault')}
          {details.pallets !== undefined && <> and {plural(count(details.pallets), 'pallet')}</>}
          {count(details.checks) > 0 && <> (check reports kept)</>}
        </>
      );
    case 'warehouse.dimensions-edited':
      return <>changed the size of {warehouseLink}</>;
    case 'warehouse.grid-changed':
      return (
        <>
          {details.operation === 'minus' ? 'removed' : 'added'}{' '}
          {plural(details.count ?? 0, details.direction === 'bottom' ? 'row' : 'column')}{' '}
          {details.direction && <>at the {details.direction} </>}of {warehouseLink}
        </>
      );
    case 'warehouse.field-grid-moved':
      return <>moved the VAULTS block of {warehouseLink}</>;
    case 'rack.added':
    case 'rack.edited':
    case 'rack.moved':
    case 'rack.deleted':
      return (
        <>
          {item.kind.slice(5)} rack <strong>{details.name ?? ''}</strong>
          {inWarehouse}
          {item.kind === 'rack.deleted' && details.pallets !== undefined && (
            <>, with {plural(count(details.pallets), 'pallet')}</>
          )}
        </>
      );
    case 'check.started':
      return (
        <>
          started {check} of {warehouseLink ?? 'a warehouse'} ({plural(count(details.fields), 'field')})
        </>
      );
    case 'check.field-opened':
      return (
        <>
          opened field {field} in {check}
          {inWarehouse}
        </>
      );
    case 'check.field-recounted':
      return (
        <>
          cleared field {field} to count it again in {check}
          {inWarehouse}
        </>
      );
    case 'check.scanned':
      return (
        <>
          scanned vault{vault} in field {field} for {check}
          {details.result === 'unexpected' && (
            <span className="font-medium text-amber-800">
              {' '}
              - {details.expectedField ? `expected in ${details.expectedField}` : 'not expected there'}
            </span>
          )}
        </>
      );
    case 'check.finished':
      return (
        <>
          finished {check}
          {inWarehouse}: {details.found ?? 0} found, {details.missing ?? 0} missing, {details.unexpected ?? 0}{' '}
          unexpected
          {details.notChecked && details.notChecked.length > 0 && (
            <>, {plural(details.notChecked.length, 'field')} not checked</>
          )}
        </>
      );
    case 'check.cancelled':
      return (
        <>
          cancelled {check}
          {inWarehouse}
        </>
      );
    case 'check.moved':
      return (
        <>
          moved vault{vault} where {check} found it
        </>
      );
    case 'check.searched':
      return (
        <>
          marked vault{vault} as searched for after {check}
        </>
      );
    // pull lists: the list linked (its page stays after release); a cancelled one is gone, named by its title
    case 'pull-list.created':
    case 'pull-list.released':
      return (
        <>
          {item.kind === 'pull-list.created' ? 'made' : 'released'} {pullList}
          {typeof details.vaults === 'number' && <> of {formatCount(details.vaults, 'vault')}</>}
        </>
      );
    case 'pull-list.pulled':
      return <>pulled a vault of {pullList}</>;
    case 'pull-list.set-aside':
      return <>set a vault aside for {pullList}</>;
    case 'pull-list.put-back':
      return <>put back a vault set aside for {pullList}</>;
    case 'pull-list.cancelled':
      return <>cancelled pull list {details.title ? `"${details.title}"` : `#${item.entityId ?? ''}`}</>;
    // a unit of an account on hold let out by a Manager (issue 28, decision 039)
    case 'vault.hold-override':
    case 'pallet.hold-override':
      return (
        <>
          overrode the hold to {details.action === 'pulled' ? 'pull' : 'release'}{' '}
          {item.kind === 'pallet.hold-override' ? 'pallet' : 'vault'}
          {item.kind === 'pallet.hold-override' ? pallet : vault}
          {details.reason ? <>: {details.reason}</> : null}
        </>
      );
    // the customers the office keeps (issue 29): names, never addresses
    case 'customer.added':
      return (
        <>
          added customer <Named to={paths.customers}>{item.customer ?? ''}</Named>
          {details.hadUnits ? ' (already on units) with an email address' : ' with an email address'}
        </>
      );
    case 'customer.changed':
      return (
        <>
          {details.renamedFrom ? (
            <>
              renamed customer {details.renamedFrom} to{' '}
              <Named to={paths.customers}>{item.customer ?? ''}</Named>
            </>
          ) : (
            <>
              changed customer <Named to={paths.customers}>{item.customer ?? ''}</Named>
            </>
          )}
          {details.newEmail ? ', with a new email address' : ''}
        </>
      );
    case 'customer.portal-link':
      return (
        <>
          {details.mailed ? 'mailed' : 'made'} a portal link for customer{' '}
          <Named to={paths.customers}>{item.customer ?? ''}</Named>
        </>
      );
    // API tokens and webhooks (issue 31)
    case 'api-token.created':
      return (
        <>
          created API token <Named to={paths.team}>{String(details.name ?? '')}</Named>
        </>
      );
    case 'api-token.revoked':
      return (
        <>
          revoked API token <Named to={paths.team}>{String(details.name ?? '')}</Named>
        </>
      );
    case 'webhook.added':
    case 'webhook.deleted':
    case 'webhook.enabled':
    case 'webhook.disabled':
      return (
        <>
          {item.kind === 'webhook.added'
            ? 'added'
            : item.kind === 'webhook.deleted'
              ? 'deleted'
              : item.kind === 'webhook.enabled'
                ? 'switched on'
                : 'switched off'}{' '}
          webhook <Named to={paths.team}>{String(details.url ?? '')}</Named>
          {details.reason ? <> ({String(details.reason)})</> : null}
        </>
      );
    default:
      return (
        <>
          {item.kind.replace('.', ' ').replace(/-/g, ' ')}
          {vault}
          {inWarehouse}
        </>
      );
  }
}

/** One recorded change, in words: who did what, where it was before and after, and each field's old and new value. */
export function ActivityEntry({
  item,
  showSubject = true,
}: {
  item: ActivityItemDto;
  showSubject?: boolean;
}) {
  const format = useFormat();
  const details = (item.details ?? {}) as Details;
  const hasMove = ('before' in details || 'after' in details) && !details.created;
  return (
    <li
      className="space-y-1 border-t border-slate-100 px-4 py-3 first:border-t-0"
      data-testid="activity-entry"
    >
      <p className="text-sm text-slate-800">
        <strong>{item.actor ?? 'Someone'}</strong> {sentence(item, details, showSubject)}
      </p>
      {/* the words are text beside the place links, so they are inline links of a sentence (WCAG 2.5.8) */}
      {hasMove && item.kind !== 'vault.edited' && (
        <p className="text-sm text-slate-700" data-testid="activity-places">
          {details.before === null && item.kind.endsWith('added') ? (
            <>
              at <PlaceLink place={details.after} />
            </>
          ) : (
            <>
              from <PlaceLink place={details.before} /> to{' '}
              <PlaceLink
                place={details.after}
                staged={
                  item.kind.endsWith('removed')
                    ? 'nowhere (removed with its warehouse)'
                    : item.kind.endsWith('deleted')
                      ? 'nowhere (deleted)'
                      : 'the stage'
                }
              />
            </>
          )}
        </p>
      )}
      {details.place && (
        <p className="text-sm text-slate-700">
          at <PlaceLink place={details.place} />
        </p>
      )}
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
        <time dateTime={item.at}>{format.dateTime(item.at)}</time>
      </p>
    </li>
  );
}
