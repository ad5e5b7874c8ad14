import { Page } from '@/components/ui/page';
import { useDocumentTitle } from '@/lib/use-document-title';
import { AutomaticBackupsSection } from '../components/automatic-backups-section';
import { CompanyFileSection } from '../components/company-file-section';

/** Backups (Managers): the company file to download, and the installation's automatic backups. */
export default function BackupsPage() {
  useDocumentTitle('Backups');
  return (
    <Page title="Backups">
      <div className="space-y-6">
        <CompanyFileSection />
        <AutomaticBackupsSection />
      </div>
    </Page>
  );
}
