import { PlaceholderPage } from '../../../components/ui/page';

export default function StatisticsPage() {
  return <PlaceholderPage title="Statistics" />;
}
