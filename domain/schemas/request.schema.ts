import { z } from 'zod';
import { optionalText, rowId, safeText } from './form-values';

/**
 * A customer's request to get goods out (issue 29, point 3; decision 048): a delivery of all or some units, an access
 * visit (the units are dug out for the customer to see, and stay), or a partial pickup.
 */
export const REQUEST_KINDS = ['delivery', 'access', 'pickup'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

export const REQUEST_KIND_LABELS: Record<RequestKind, string> = {
  delivery: 'Delivery',
  access: 'Access visit',
  pickup: 'Partial pickup',
};

/** Requested -> Scheduled -> Pulling -> Loaded -> Delivered, or Cancelled (an access visit is never Loaded). */
export const REQUEST_STATES = [
  'requested',
  'scheduled',
  'pulling',
  'loaded',
  'delivered',
  'cancelled',
] as const;
export type RequestState = (typeof REQUEST_STATES)[number];

export const REQUEST_STATE_LABELS: Record<RequestState, string> = {
  requested: 'Requested',
  scheduled: 'Scheduled',
  pulling: 'Pulling',
  loaded: 'Loaded',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};

/** The states a request is still open in: its units are promised to it and to no other request. */
export const OPEN_REQUEST_STATES: readonly RequestState[] = ['requested', 'scheduled', 'pulling', 'loaded'];

/** The most units one request may name (a whole household is rarely more than a few dozen). */
export const MAX_REQUEST_UNITS = 200;

const day = (label: string) =>
  z.iso.date({ error: `${label} must be a date (YYYY-MM-DD).` }).refine((value) => {
    const parsed = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
  }, `${label} must be a real date.`);

const unitIds = z
  .array(rowId('Unit'), { error: 'Choose the units.' })
  .min(1, 'Choose at least one unit.')
  .max(MAX_REQUEST_UNITS, `A request may name at most ${MAX_REQUEST_UNITS} units.`)
  .refine((ids) => new Set(ids).size === ids.length, 'A unit is named twice.');

const requestFields = {
  kind: z.enum(REQUEST_KINDS, { error: 'Kind must be delivery, access or pickup.' }),
  vault_ids: unitIds,
  wished_date: day('Wished date'),
  address: safeText('Address', optionalText('Address', 300)),
  notes: safeText('Notes', optionalText('Notes', 1000)),
};

const needsAddress = (v: { kind: RequestKind; address?: string | undefined }, ctx: z.RefinementCtx) => {
  if (v.kind !== 'access' && !v.address)
    ctx.addIssue({ code: 'custom', path: ['address'], message: 'Say where the units go: an address.' });
};

/** POST /api/portal/requests: the signed-in customer's own request. */
export const PortalRequestSchema = z.object(requestFields).superRefine(needsAddress);
export type PortalRequestInput = z.infer<typeof PortalRequestSchema>;

/** POST /api/requests: the office enters a request for a customer on the phone. */
export const OfficeRequestSchema = z
  .object({ customer_id: rowId('Customer'), ...requestFields })
  .superRefine(needsAddress);
export type OfficeRequestInput = z.infer<typeof OfficeRequestSchema>;

/** POST /api/requests/{id}/schedule: the day, the crew and the truck. */
export const ScheduleRequestSchema = z.object({
  date: day('Date'),
  crew: safeText(
    'Crew',
    z.string({ error: 'Name the crew.' }).trim().min(1, 'Name the crew.').max(200, 'Crew is too long.'),
  ),
  truck: safeText(
    'Truck',
    z.string({ error: 'Name the truck.' }).trim().min(1, 'Name the truck.').max(100, 'Truck is too long.'),
  ),
});
export type ScheduleRequestInput = z.infer<typeof ScheduleRequestSchema>;

/** POST /api/requests/{id}/load-scans: one scanned label (or typed unit number). */
export const LoadScanSchema = z.object({
  text: z
    .string({ error: 'Scan a label or type a unit number.' })
    .trim()
    .min(1, 'Scan a label or type a unit number.')
    .max(500, 'That scan is too long.'),
});
export type LoadScanInput = z.infer<typeof LoadScanSchema>;

/** POST /api/requests/{id}/load: the load is complete; a Manager's reason when units are missing (or on hold). */
export const LoadRequestSchema = z
  .object({ override_reason: safeText('Override reason', optionalText('Override reason', 300)) })
  .optional()
  .transform((v) => v ?? {});
export type LoadRequestInput = z.infer<typeof LoadRequestSchema>;

/** GET /api/requests?state=: the office's list, all or one state. */
export const RequestListQuerySchema = z.object({
  state: z.enum(REQUEST_STATES, { error: 'Unknown state.' }).optional(),
});

/** One unit of a request, with where it is and whether it is on the truck. */
export interface RequestUnitDto {
  id: number;
  number: string | null;
  type: string;
  order: string | null;
  /** label code (for the load-out screen) */
  label_code: string | null;
  /** 'in-field' (still stored), 'on-stage' (pulled), 'released' (left the warehouse) */
  place: 'in-field' | 'on-stage' | 'released';
  /** the field it stands in, as "Warehouse A1", while stored */
  location: string | null;
  loaded_at: string | null;
  loaded_by: string | null;
}

/** A step a request went through: when and by whom. */
export interface RequestStepDto {
  state: RequestState;
  at: string;
  by: string | null;
}

export interface RequestDto {
  id: number;
  customer_id: number;
  customer_name: string;
  kind: RequestKind;
  state: RequestState;
  wished_date: string;
  address: string | null;
  notes: string | null;
  scheduled_date: string | null;
  crew: string | null;
  truck: string | null;
  pull_list_id: number | null;
  override_reason: string | null;
  created_at: string;
  steps: RequestStepDto[];
  units: RequestUnitDto[];
  version: number;
}

export interface RequestSummaryDto {
  id: number;
  customer_name: string;
  kind: RequestKind;
  state: RequestState;
  wished_date: string;
  scheduled_date: string | null;
  units: number;
  created_at: string;
}

/** What the customer sees of a request in the portal: no crew names, no pull list. */
export interface PortalRequestDto {
  id: number;
  kind: RequestKind;
  state: RequestState;
  wished_date: string;
  scheduled_date: string | null;
  address: string | null;
  notes: string | null;
  created_at: string;
  steps: { state: RequestState; at: string }[];
  units: { id: number; number: string | null; type: string }[];
}

/** The dock's view of a request: requested, loaded and missing units. */
export interface LoadOutDto {
  id: number;
  customer_name: string;
  kind: RequestKind;
  state: RequestState;
  scheduled_date: string | null;
  crew: string | null;
  truck: string | null;
  pull_list_id: number | null;
  requested: number;
  loaded: RequestUnitDto[];
  missing: RequestUnitDto[];
}

export type LoadScanResult = 'loaded' | 'again';

export interface LoadScanAnswer {
  result: LoadScanResult;
  unit: RequestUnitDto;
  load_out: LoadOutDto;
}

const kindSchema = z.enum(REQUEST_KINDS);
const stateSchema = z.enum(REQUEST_STATES);

export const RequestUnitDtoSchema: z.ZodType<RequestUnitDto> = z.object({
  id: z.number().int(),
  number: z.string().nullable(),
  type: z.string(),
  order: z.string().nullable(),
  label_code: z.string().nullable(),
  place: z.enum(['in-field', 'on-stage', 'released']),
  location: z.string().nullable(),
  loaded_at: z.string().nullable(),
  loaded_by: z.string().nullable(),
});

export const RequestDtoSchema: z.ZodType<RequestDto> = z.object({
  id: z.number().int(),
  customer_id: z.number().int(),
  customer_name: z.string(),
  kind: kindSchema,
  state: stateSchema,
  wished_date: z.string(),
  address: z.string().nullable(),
  notes: z.string().nullable(),
  scheduled_date: z.string().nullable(),
  crew: z.string().nullable(),
  truck: z.string().nullable(),
  pull_list_id: z.number().int().nullable(),
  override_reason: z.string().nullable(),
  created_at: z.string(),
  steps: z.array(z.object({ state: stateSchema, at: z.string(), by: z.string().nullable() })),
  units: z.array(RequestUnitDtoSchema),
  version: z.number().int(),
});

export const RequestSummaryDtoSchema: z.ZodType<RequestSummaryDto> = z.object({
  id: z.number().int(),
  customer_name: z.string(),
  kind: kindSchema,
  state: stateSchema,
  wished_date: z.string(),
  scheduled_date: z.string().nullable(),
  units: z.number().int(),
  created_at: z.string(),
});

export const PortalRequestDtoSchema: z.ZodType<PortalRequestDto> = z.object({
  id: z.number().int(),
  kind: kindSchema,
  state: stateSchema,
  wished_date: z.string(),
  scheduled_date: z.string().nullable(),
  address: z.string().nullable(),
  notes: z.string().nullable(),
  created_at: z.string(),
  steps: z.array(z.object({ state: stateSchema, at: z.string() })),
  units: z.array(z.object({ id: z.number().int(), number: z.string().nullable(), type: z.string() })),
});

export const LoadOutDtoSchema: z.ZodType<LoadOutDto> = z.object({
  id: z.number().int(),
  customer_name: z.string(),
  kind: kindSchema,
  state: stateSchema,
  scheduled_date: z.string().nullable(),
  crew: z.string().nullable(),
  truck: z.string().nullable(),
  pull_list_id: z.number().int().nullable(),
  requested: z.number().int(),
  loaded: z.array(RequestUnitDtoSchema),
  missing: z.array(RequestUnitDtoSchema),
});

export const LoadScanAnswerSchema: z.ZodType<LoadScanAnswer> = z.object({
  result: z.enum(['loaded', 'again']),
  unit: RequestUnitDtoSchema,
  load_out: LoadOutDtoSchema,
});
