import { PlaceholderPage } from '../../../components/ui/page';

export default function MessagesPage() {
  return <PlaceholderPage title="Messages" />;
}
