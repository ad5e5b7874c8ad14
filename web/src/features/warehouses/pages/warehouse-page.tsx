import { PlaceholderPage } from '../../../components/ui/page';

export default function WarehousePage() {
  return <PlaceholderPage title="Warehouse" />;
}
