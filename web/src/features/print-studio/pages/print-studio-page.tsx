import { PlaceholderPage } from '../../../components/ui/page';

export default function PrintStudioPage() {
  return <PlaceholderPage title="Print Studio" />;
}
