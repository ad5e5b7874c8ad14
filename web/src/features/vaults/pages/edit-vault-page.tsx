import { PlaceholderPage } from '../../../components/ui/page';

export default function EditVaultPage() {
  return <PlaceholderPage title="Edit Vault" />;
}
