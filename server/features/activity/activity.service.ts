import { toCsv } from '@domain/rules/csv';
import {
  ACTIVITY_PAGE_SIZE,
  type ActivityItemDto,
  type ActivityPageDto,
  type ActivityQuery,
} from '@domain/schemas/activity.schema';
import type { Db } from '../../db/database';
import { indexEventTail } from '../../events/event-search.repo';
import { notFound } from '../../http/errors';
import {
  type ActivityRow,
  findActivity,
  findEntityHistory,
  listMemberNames,
  listWarehouseNames,
} from './activity.repo';

/** At most this many lines in one CSV export; narrow the filters for more. */
export const MAX_EXPORT_ROWS = 100_000;
const EXPORT_BATCH = 2_000;

function parsePayload(payload: string | null): unknown {
  if (payload === null) return null;
  try {
    return JSON.parse(payload);
  } catch {
    return null;
  }
}

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));

export function presentActivity(row: ActivityRow): ActivityItemDto {
  return {
    id: Number(row.id),
    at: iso(row.created_at),
    kind: row.kind,
    entityType: row.entity_type,
    entityId: row.entity_id === null ? null : Number(row.entity_id),
    userId: row.user_id === null ? null : Number(row.user_id),
    actor: row.actor,
    warehouseId: row.warehouse_id === null ? null : Number(row.warehouse_id),
    warehouse: row.warehouse_name,
    subject: row.subject,
    customer: row.customer,
    details: parsePayload(row.payload),
  };
}

export async function loadActivity(
  db: Db,
  companyId: number,
  query: ActivityQuery,
): Promise<ActivityPageDto> {
  // every read of the history first indexes what was recorded since the last catch-up, so it never misses an event
  await indexEventTail(db);
  const [rows, members, warehouses] = await Promise.all([
    findActivity(db, companyId, query, ACTIVITY_PAGE_SIZE + 1),
    listMemberNames(db, companyId),
    listWarehouseNames(db, companyId),
  ]);
  const page = rows.slice(0, ACTIVITY_PAGE_SIZE);
  return {
    items: page.map(presentActivity),
    nextCursor: rows.length > ACTIVITY_PAGE_SIZE ? Number(page.at(-1)!.id) : null,
    members: members.map((m) => ({ id: m.id, name: m.username })),
    warehouses,
  };
}

export const VAULT_HISTORY_NOT_FOUND = 'Vault not found';

/** A vault's timeline; a vault the company never had answers 404, like any id that is not its own. */
export async function loadVaultHistory(
  db: Db,
  companyId: number,
  vaultId: number,
): Promise<ActivityItemDto[]> {
  await indexEventTail(db);
  const rows = await findEntityHistory(db, companyId, 'vault', vaultId);
  if (rows.length === 0) throw notFound(VAULT_HISTORY_NOT_FOUND);
  return rows.map(presentActivity);
}

interface Place {
  warehouse?: string;
  field?: string;
  position?: number;
  slot?: number;
}
const placeText = (place: unknown): string => {
  if (place === null || place === undefined) return '';
  const p = place as Place;
  if (p.field !== undefined) return `${p.warehouse ?? ''} ${p.field} slot ${p.position ?? ''}`.trim();
  if (p.slot !== undefined) return `slot ${p.slot}`;
  return '';
};

/** One line of an event, readable in a spreadsheet: what changed from what to what. */
export function describeChange(details: unknown): { before: string; after: string; changes: string } {
  const d = (details ?? {}) as { before?: unknown; after?: unknown; changes?: unknown; place?: unknown };
  const changes =
    d.changes && typeof d.changes === 'object'
      ? Object.values(d.changes as Record<string, { label?: string; before: unknown; after: unknown }>)
          .map((c) => `${c.label ?? ''}: ${String(c.before ?? '')} -> ${String(c.after ?? '')}`)
          .join('; ')
      : '';
  return { before: placeText(d.before ?? d.place), after: placeText(d.after ?? d.place), changes };
}

/** The filtered history as CSV, newest first, read in batches so a long history never sits in memory twice. */
export async function exportActivityCsv(db: Db, companyId: number, query: ActivityQuery): Promise<string> {
  await indexEventTail(db);
  const lines: (string | number | null)[][] = [];
  let cursor = query.cursor;
  while (lines.length < MAX_EXPORT_ROWS) {
    const rows = await findActivity(db, companyId, { ...query, cursor }, EXPORT_BATCH);
    for (const row of rows) {
      const item = presentActivity(row);
      const change = describeChange(item.details);
      lines.push([
        item.at,
        item.kind,
        item.actor,
        item.warehouse,
        item.subject,
        item.customer,
        change.before,
        change.after,
        change.changes,
      ]);
    }
    if (rows.length < EXPORT_BATCH) break;
    cursor = Number(rows.at(-1)!.id);
  }
  return toCsv(
    ['When', 'What', 'Who', 'Warehouse', 'Number', 'Customer', 'Before', 'After', 'Changed'],
    lines.slice(0, MAX_EXPORT_ROWS),
  );
}
