import type { SearchHitDto } from '@domain/schemas/search.schema';
import { paths } from '../../config/paths';

const countOf = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What a hit of the company-wide find is called, in one line. */
export function hitTitle(hit: SearchHitDto): string {
  switch (hit.kind) {
    case 'vault':
      return `${hit.name ?? 'No number'} · ${hit.customerName}`;
    case 'pallet':
      return `${hit.name ?? hit.palletNumber ?? 'Pallet'} · ${hit.customerName}`;
    case 'field':
      return `Field ${hit.name}`;
    default:
      return hit.name;
  }
}

/** Where a hit is, as the floor says it: warehouse, field and position; rack and shelf; the stage; released. */
export function hitWhere(hit: SearchHitDto, formatDate: (iso: string) => string): string {
  switch (hit.kind) {
    case 'vault': {
      const { place } = hit;
      if (place.at === 'field')
        return `${place.warehouse.name} · field ${place.fieldName} · position ${place.position}`;
      if (place.at === 'stage') return 'On the stage';
      return `Released ${formatDate(place.releasedAt)}${place.releasedBy ? ` by ${place.releasedBy}` : ''}`;
    }
    case 'pallet':
      return `${hit.warehouse.name} · rack ${hit.rackName} · shelf ${hit.shelf}`;
    case 'field':
      return `${hit.warehouse.name} · ${hit.full ? 'marked full' : countOf(hit.vaults, 'vault')}`;
    default: {
      const parts = [countOf(hit.vaults, 'vault')];
      if (hit.kind === 'customer' && hit.pallets > 0) parts.push(countOf(hit.pallets, 'pallet'));
      const where = [...hit.warehouses, ...(hit.staged > 0 ? ['the stage'] : [])];
      return where.length > 0 ? `${parts.join(', ')} in ${where.join(', ')}` : `${parts.join(', ')} in store`;
    }
  }
}

/** Where choosing a hit leads: the warehouse with the field chosen, the rack with the pallet, the stage... */
export function hitPath(hit: SearchHitDto): string {
  switch (hit.kind) {
    case 'vault': {
      const { place } = hit;
      if (place.at === 'field')
        return `${paths.warehouse(place.warehouse.name)}?${new URLSearchParams({ field: place.fieldName })}`;
      if (place.at === 'stage') return paths.stage;
      return `${paths.activity}?${new URLSearchParams({ q: hit.name ?? hit.customerName })}`;
    }
    case 'field':
      return `${paths.warehouse(hit.warehouse.name)}?${new URLSearchParams({ field: hit.name })}`;
    case 'pallet':
      return paths.rackPallet(hit.warehouse.name, hit.rackId, hit.id);
    default:
      // a customer's or an order's vaults, with where each is, and a pull list to make of them
      return `${paths.pullLists}?${new URLSearchParams({ [hit.kind]: hit.name })}`;
  }
}
