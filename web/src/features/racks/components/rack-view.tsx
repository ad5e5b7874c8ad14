import type { WarehouseDto } from '../../../../../domain/schemas/warehouse.schema';

/** Rack View of a warehouse: floor plan of racks, the selected rack's shelves and pallets. */
export function RackView({ warehouse }: { warehouse: WarehouseDto }) {
  return <p className="p-6 text-slate-500">Rack View of {warehouse.name}</p>;
}
