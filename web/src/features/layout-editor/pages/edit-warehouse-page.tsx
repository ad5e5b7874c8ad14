import { PlaceholderPage } from '../../../components/ui/page';

export default function EditWarehousePage() {
  return <PlaceholderPage title="Edit Warehouse" />;
}
