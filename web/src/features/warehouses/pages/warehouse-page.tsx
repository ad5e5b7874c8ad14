import type { ReactNode } from 'react';
import type { WarehouseDto } from '../../../../../domain/schemas/warehouse.schema';
import { PlaceholderPage } from '../../../components/ui/page';

/** The warehouse view; the router hands in the Rack View so this feature does not import another. */
export default function WarehousePage({ rackView }: { rackView: (warehouse: WarehouseDto) => ReactNode }) {
  void rackView;
  return <PlaceholderPage title="Warehouse" />;
}
