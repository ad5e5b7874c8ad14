import { PlaceholderPage } from '../../../components/ui/page';

export default function AddWarehousePage() {
  return <PlaceholderPage title="Add Warehouse" />;
}
