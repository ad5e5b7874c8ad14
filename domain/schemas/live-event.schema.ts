import { z } from 'zod';
import type { FieldDto } from './warehouse.schema';

/**
 * GET /api/events frames. Every frame's `id:` is an opaque token the browser only echoes back as Last-Event-ID.
 * - `ready`: a new stream starts at the present (body `{}`)
 * - `change`: one change of the company (body: LiveEventDto)
 * - `reset`: the browser missed more than can be sent, or its Last-Event-ID is unknown: refresh everything
 * - `signed-out`: the stream's session ended; the stream ends with it
 */
export type LiveFrameName = 'ready' | 'change' | 'reset' | 'signed-out';

/** What a browser learns of a change: what changed and where, never the event log's own numbering. */
export interface LiveEventDto {
  /** e.g. 'vault.moved', 'checklist.answered' */
  kind: string;
  /** 'vault' | 'field' | 'warehouse' | 'rack' | 'pallet' | 'checklist' */
  entityType: string;
  entityId: number | null;
  /** the warehouse the change happened in; null when none (a staged vault) or unknown */
  warehouseId: number | null;
  /** the field the change is in: a vault's field after the change (null when staged), the field edited */
  fieldId: number | null;
  /** a vault that left a field (moved or staged): that field, and for a move its warehouse; null otherwise */
  fromFieldId: number | null;
  fromWarehouseId: number | null;
  userId: number | null;
  at: string;
  /**
   * The new state of every field the change touched (a vault change: the field it is in and the field it left; a field
   * change: the field and its couchbox partner), read once after the change, for a stream that watches the warehouse
   * of one of them (`?watch=`, issue 11). Absent when the stream does not watch it, when the change touches no field,
   * when the stream catches up after a reconnect, or when the server could not read them: then the browser refetches.
   */
  fields?: FieldDto[];
}

/** At most this many warehouses a stream watches (`GET /api/events?watch=1,2`); more ids are ignored. */
export const MAX_WATCHED_WAREHOUSES = 20;

/**
 * The warehouses a stream watches, from its `watch` query value (ids separated by commas). The value is a hint that
 * only adds data to the frames, so anything that is not a plain id is ignored rather than refused.
 */
export function readWatchedWarehouses(value: unknown): number[] {
  if (typeof value !== 'string') return [];
  const ids = new Set<number>();
  for (const part of value.split(',')) {
    if (!/^[1-9][0-9]{0,9}$/.test(part) || Number(part) > 2_147_483_647) continue;
    ids.add(Number(part));
    if (ids.size >= MAX_WATCHED_WAREHOUSES) break;
  }
  return [...ids];
}

/** Only text counts; anything else (a repeated key, say) is read as absent, never refused. */
const textOrAbsent = (description: string) =>
  z.preprocess((v) => (typeof v === 'string' ? v : undefined), z.string().optional()).describe(description);

/**
 * The query of GET /api/events (decision 045). Both are hints, so odd values are ignored rather than refused: `watch`
 * is read by `readWatchedWarehouses`, `last` is a Last-Event-ID for a new stream (the header wins).
 */
export const LiveStreamQuerySchema = z.object({
  watch: textOrAbsent('ids of the warehouses shown, separated by commas: their changes carry the new fields'),
  last: textOrAbsent('the id of the last frame seen, for a new stream (the Last-Event-ID header wins)'),
});
