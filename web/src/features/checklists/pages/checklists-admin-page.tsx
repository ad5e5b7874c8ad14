import { PlaceholderPage } from '../../../components/ui/page';

export default function ChecklistsAdminPage() {
  return <PlaceholderPage title="Warehouse Checklists Page" />;
}
