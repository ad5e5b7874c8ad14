import { PlaceholderPage } from '../../../components/ui/page';

export default function StagePage() {
  return <PlaceholderPage title="Staged Vaults" />;
}
