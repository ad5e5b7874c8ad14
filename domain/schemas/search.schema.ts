import { z } from 'zod';
import { blankAsAbsent, intFrom } from './form-values';

/** How many hits one request answers at most, and by default (issue 27: paged, never the whole company). */
export const SEARCH_MAX_LIMIT = 50;
export const SEARCH_DEFAULT_LIMIT = 20;

/** GET /api/search: the company-wide find of the top bar. */
export const SearchQuerySchema = z.object({
  q: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string({ error: 'Type what to search for.' })
      .min(1, 'Type what to search for.')
      .max(100, 'Search text must be at most 100 characters.'),
  ),
  limit: z.preprocess(blankAsAbsent, intFrom('Limit', 1, SEARCH_MAX_LIMIT).optional()),
});
export type SearchQuery = z.infer<typeof SearchQuerySchema>;

/** A warehouse as a hit names it: its name for people, its slug for the address. */
export interface SearchWarehouseDto {
  id: number;
  name: string;
  slug: string;
}

/** Where a vault is: in a field's slot, on the stage, or gone (released). */
export type VaultPlaceDto =
  | { at: 'field'; warehouse: SearchWarehouseDto; fieldId: number; fieldName: string; position: number }
  | { at: 'stage' }
  | { at: 'released'; releasedAt: string; releasedBy: string | null };

export type SearchHitDto =
  | {
      kind: 'vault';
      id: number;
      name: string | null;
      customerName: string;
      orderName: string | null;
      place: VaultPlaceDto;
    }
  | {
      kind: 'customer' | 'order';
      id: number;
      name: string;
      /** vaults in fields or on the stage (released ones are history) */
      vaults: number;
      pallets: number;
      /** names of the warehouses its vaults and pallets are in, in name order */
      warehouses: string[];
      staged: number;
    }
  | {
      kind: 'pallet';
      id: number;
      name: string | null;
      palletNumber: string | null;
      customerName: string;
      warehouse: SearchWarehouseDto;
      rackId: number;
      rackName: string;
      /** the shelf's number as Rack View shows it */
      shelf: number;
    }
  | {
      kind: 'field';
      id: number;
      name: string;
      warehouse: SearchWarehouseDto;
      vaults: number;
      full: boolean;
    };

export type SearchHitKind = SearchHitDto['kind'];

export interface SearchAnswerDto {
  hits: SearchHitDto[];
  /** more hits than the limit: ask again with a larger one, or type more */
  more: boolean;
}

// The answer's schema (decision 045), typed to the DTO.
const SearchWarehouseDtoSchema = z.object({ id: z.number().int(), name: z.string(), slug: z.string() });

export const SearchAnswerDtoSchema: z.ZodType<SearchAnswerDto> = z.object({
  hits: z.array(
    z.discriminatedUnion('kind', [
      z.object({
        kind: z.literal('vault'),
        id: z.number().int(),
        name: z.string().nullable(),
        customerName: z.string(),
        orderName: z.string().nullable(),
        place: z.discriminatedUnion('at', [
          z.object({
            at: z.literal('field'),
            warehouse: SearchWarehouseDtoSchema,
            fieldId: z.number().int(),
            fieldName: z.string(),
            position: z.number().int(),
          }),
          z.object({ at: z.literal('stage') }),
          z.object({ at: z.literal('released'), releasedAt: z.string(), releasedBy: z.string().nullable() }),
        ]),
      }),
      z.object({
        kind: z.enum(['customer', 'order']),
        id: z.number().int(),
        name: z.string(),
        vaults: z.number().int(),
        pallets: z.number().int(),
        warehouses: z.array(z.string()),
        staged: z.number().int(),
      }),
      z.object({
        kind: z.literal('pallet'),
        id: z.number().int(),
        name: z.string().nullable(),
        palletNumber: z.string().nullable(),
        customerName: z.string(),
        warehouse: SearchWarehouseDtoSchema,
        rackId: z.number().int(),
        rackName: z.string(),
        shelf: z.number().int(),
      }),
      z.object({
        kind: z.literal('field'),
        id: z.number().int(),
        name: z.string(),
        warehouse: SearchWarehouseDtoSchema,
        vaults: z.number().int(),
        full: z.boolean(),
      }),
    ]),
  ),
  more: z.boolean(),
});
