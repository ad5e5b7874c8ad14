import type {
  InventoryCodeDto,
  InventoryDto,
  InventoryItemDto,
  PortalInventoryDto,
} from '@domain/schemas/inventory.schema';
import { codeLegend } from '@domain/rules/inventory';
import { naturalCompare } from '@domain/rules/text';
import type { Selectable } from 'kysely';
import type { InventoriesTable, InventoryItemsTable } from '../../db/schema';

type ItemRow = Selectable<InventoryItemsTable>;
type InventoryRow = Selectable<InventoriesTable>;
interface FileRow {
  id: number;
  file_name: string;
  inventory_item_id: number | null;
  inventory_role: string | null;
}
interface UnitRow {
  id: number;
  name: string | null;
  customer: string;
  order_name: string | null;
}

export function presentItem(row: ItemRow): InventoryItemDto {
  return {
    id: row.id,
    sticker: row.sticker,
    description: row.description,
    room: row.room,
    codes: row.codes ? row.codes.split(' ') : [],
    high_value: row.high_value === 1,
    delivered_at: row.delivered_at,
    delivered_by: row.delivered_by,
  };
}

export function presentCodes(
  companyCodes: { id: number; code: string; meaning: string }[],
): InventoryCodeDto[] {
  const ids = new Map(companyCodes.map((c) => [c.code, c.id]));
  return codeLegend(companyCodes).map((c) => ({ id: c.standard ? null : (ids.get(c.code) ?? null), ...c }));
}

function signature(signer: string | null, signedAt: string | null, files: FileRow[], role: string) {
  if (!signer || !signedAt) return null;
  return {
    signer,
    signed_at: signedAt,
    attachment_id: files.find((f) => f.inventory_role === role)?.id ?? null,
  };
}

/** A unit's inventory in sticker order; `inventory` undefined while none was started. */
export function presentInventory(
  unit: UnitRow,
  inventory: InventoryRow | undefined,
  items: ItemRow[],
  files: FileRow[],
  companyCodes: { id: number; code: string; meaning: string }[],
): InventoryDto {
  return {
    id: inventory?.id ?? null,
    vault: { id: unit.id, number: unit.name, customer: unit.customer, order: unit.order_name },
    items: [...items].sort((a, b) => naturalCompare(a.sticker, b.sticker) || a.id - b.id).map(presentItem),
    photos: files
      .filter((f) => f.inventory_role === 'photo')
      .map((f) => ({ id: f.id, item_id: f.inventory_item_id, file_name: f.file_name })),
    pickup: inventory
      ? signature(inventory.pickup_signer, inventory.pickup_signed_at, files, 'pickup')
      : null,
    delivery: inventory
      ? signature(inventory.delivery_signer, inventory.delivery_signed_at, files, 'delivery')
      : null,
    codes: presentCodes(companyCodes),
    created_at: inventory?.created_at ?? null,
    created_by: inventory?.created_by ?? null,
  };
}

/** The customer's read-only view: no staff names, no signature drawings. */
export function presentPortalInventory(inventory: InventoryDto): PortalInventoryDto {
  const bare = (s: InventoryDto['pickup']) => (s ? { signer: s.signer, signed_at: s.signed_at } : null);
  return {
    unit: { id: inventory.vault.id, number: inventory.vault.number },
    items: inventory.items.map(({ delivered_by: _staff, ...item }) => item),
    photos: inventory.photos,
    pickup: bare(inventory.pickup),
    delivery: bare(inventory.delivery),
    codes: inventory.codes.map(({ id: _id, ...code }) => code),
  };
}
