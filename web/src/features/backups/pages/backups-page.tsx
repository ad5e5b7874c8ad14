import { Page } from '../../../components/ui/page';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AutomaticBackupsSection } from '../components/automatic-backups-section';

/** Backups: the installation's automatic backups (and, for every Manager, the company file). */
export default function BackupsPage() {
  useDocumentTitle('Backups');
  return (
    <Page title="Backups">
      <AutomaticBackupsSection />
    </Page>
  );
}
