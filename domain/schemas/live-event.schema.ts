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
}
