import { PlaceholderPage } from '../../../components/ui/page';

export default function ChecklistFillPage({ slug }: { slug: string }) {
  void slug;
  return <PlaceholderPage title="Checklist" />;
}
