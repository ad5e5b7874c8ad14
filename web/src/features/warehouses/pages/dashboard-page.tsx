import { PlaceholderPage } from '../../../components/ui/page';

export default function DashboardPage() {
  return <PlaceholderPage title="Warehouses" />;
}
