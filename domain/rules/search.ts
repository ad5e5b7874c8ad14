import { naturalCompare } from './text';
import type { WarehouseDto } from '../schemas/warehouse.schema';
import { digOutCounts } from './dig-out';

export type SuggestionType = 'customer' | 'order' | 'vault' | 'pallet';

export interface Suggestion {
  name: string;
  type: SuggestionType;
  /** vault numbers: how many vaults stand above it in its field (issue 16) */
  digOut?: number;
}

export interface SearchIndex {
  /** distinct names per type, each with its lower-cased form for matching */
  entries: { name: string; lower: string; type: SuggestionType; digOut?: number }[];
}

/** Minimal rack shape the search needs (the rack view's data). */
export interface SearchableRack {
  id: number;
  shelves: {
    pallets: { id: number; customerName: string; name: string | null; palletNumber: string | null }[];
  }[];
}

const TYPE_ORDER: Record<SuggestionType, number> = { customer: 0, order: 1, vault: 2, pallet: 3 };

/** Customers first, then orders, vaults and pallets; alphabetical (numbers in natural order) within each type. */
function sortEntries(entries: SearchIndex['entries']): SearchIndex['entries'] {
  return entries.sort((a, b) => TYPE_ORDER[a.type] - TYPE_ORDER[b.type] || naturalCompare(a.name, b.name));
}

/** Suggestion entries without repeats: each name once per type, in the order added. */
function collectEntries() {
  const seen = new Set<string>();
  const entries: SearchIndex['entries'] = [];
  const add = (name: string | null | undefined, type: SuggestionType) => {
    if (!name) return;
    const key = `${type}\u0000${name}`;
    if (seen.has(key)) return;
    seen.add(key);
    entries.push({ name, lower: name.toLowerCase(), type });
  };
  return { entries, add };
}

/** Built once per data change; suggestions then scan one flat array per keystroke. */
export function buildVaultSearchIndex(warehouse: Pick<WarehouseDto, 'fields'>): SearchIndex {
  const { entries, add } = collectEntries();
  const order: SuggestionType[] = ['customer', 'order'];
  for (const type of order) {
    for (const field of Object.values(warehouse.fields)) {
      for (const vault of Object.values(field.vaults)) {
        add(type === 'customer' ? vault.customer_name : vault.order_name, type);
      }
    }
  }
  for (const field of Object.values(warehouse.fields)) {
    const vaults = Object.values(field.vaults);
    const digOut = digOutCounts(vaults);
    for (const vault of vaults) {
      const before = entries.length;
      add(vault.name, 'vault');
      const entry = entries[before];
      if (entry && entries.length > before) entry.digOut = digOut.get(vault.id);
    }
  }
  return { entries: sortEntries(entries) };
}

/**
 * Rack view: customers and pallet names or numbers of the racks' pallets, and (as the placeholder promises) the
 * vault numbers of the warehouse's fields when they are given.
 */
export function buildRackSearchIndex(
  racks: readonly SearchableRack[],
  warehouse?: Pick<WarehouseDto, 'fields'>,
): SearchIndex {
  const { entries, add } = collectEntries();
  for (const type of ['customer', 'pallet'] as const) {
    for (const rack of racks) {
      for (const shelf of rack.shelves) {
        for (const pallet of shelf.pallets) {
          if (type === 'customer') add(pallet.customerName, 'customer');
          else {
            add(pallet.name, 'pallet');
            add(pallet.palletNumber, 'pallet');
          }
        }
      }
    }
  }
  for (const field of Object.values(warehouse?.fields ?? {})) {
    for (const vault of Object.values(field.vaults)) add(vault.name, 'vault');
  }
  return { entries: sortEntries(entries) };
}

/** Case-insensitive substring suggestions, customers first; empty for a blank term. */
export function suggest(index: SearchIndex, term: string, limit = 200): Suggestion[] {
  const needle = term.trim().toLowerCase();
  if (!needle) return [];
  const out: Suggestion[] = [];
  for (const entry of index.entries) {
    if (entry.lower.includes(needle)) {
      out.push(
        entry.digOut === undefined
          ? { name: entry.name, type: entry.type }
          : { name: entry.name, type: entry.type, digOut: entry.digOut },
      );
      if (out.length >= limit) break;
    }
  }
  return out;
}

/** Vault view: the ids of fields holding a vault whose customer, order or vault number equals the search. */
export function matchingFieldIds(warehouse: Pick<WarehouseDto, 'fields'>, search: Suggestion): Set<number> {
  const ids = new Set<number>();
  for (const field of Object.values(warehouse.fields)) {
    for (const vault of Object.values(field.vaults)) {
      const value =
        search.type === 'customer'
          ? vault.customer_name
          : search.type === 'order'
            ? vault.order_name
            : vault.name;
      if (value !== null && value === search.name) {
        ids.add(field.id);
        break;
      }
    }
  }
  return ids;
}

/** Rack view: matching pallets (customer ignoring case, or pallet name or number) and the racks holding them. */
export function matchingRacksAndPallets(
  racks: readonly SearchableRack[],
  search: Suggestion,
): { rackIds: Set<number>; palletIds: Set<number> } {
  const rackIds = new Set<number>();
  const palletIds = new Set<number>();
  const needle = search.name.toLowerCase();
  for (const rack of racks) {
    for (const shelf of rack.shelves) {
      for (const pallet of shelf.pallets) {
        const hit =
          pallet.customerName.toLowerCase() === needle ||
          (search.type !== 'customer' &&
            (pallet.name?.toLowerCase() === needle || pallet.palletNumber?.toLowerCase() === needle));
        if (hit) {
          palletIds.add(pallet.id);
          rackIds.add(rack.id);
        }
      }
    }
  }
  return { rackIds, palletIds };
}
