import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useVaultLink } from '@/api/scan';
import { useRole } from '@/api/session';
import { buttonClass } from '@/components/ui/button';
import { ErrorList } from '@/components/ui/error-list';
import { Page } from '@/components/ui/page';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessages } from '@/lib/api-client';
import { useDocumentTitle } from '@/lib/use-document-title';
import { MovePicker } from '../components/move-picker';
import { VaultWhere } from '../components/vault-where';

/**
 * /v/{code}: the page a vault label's QR code opens (signed out, the router asks to sign in first): where the vault
 * stands, with Stage, Move (pick a warehouse and field), Edit and Print label.
 */
export default function VaultLinkPage() {
  const { code = '' } = useParams();
  useDocumentTitle('Vault label');
  const { can } = useRole();
  const found = useVaultLink(code);
  const [moving, setMoving] = useState(false);
  const vault = found.data?.kind === 'vault' ? found.data.vault : null;
  return (
    <Page title="Vault label">
      <div className="mx-auto max-w-xl">
        {found.isPending && <Spinner label="Finding the vault..." />}
        {found.isError && <ErrorList messages={errorMessages(found.error)} />}
        {vault && (
          <VaultWhere
            vault={vault}
            onStaged={() => void found.refetch()}
            onMove={can('floor') && !moving ? () => setMoving(true) : undefined}
          />
        )}
        {vault && moving && (
          <MovePicker
            vault={vault}
            onClose={() => setMoving(false)}
            onMoved={() => {
              setMoving(false);
              void found.refetch();
            }}
          />
        )}
        {vault?.warehouseName && vault.fieldName && (
          <Link
            to={`${paths.warehouse(vault.warehouseName)}?field=${vault.fieldName}`}
            className={buttonClass('ghost', 'mt-3 w-full min-h-12')}
          >
            Open field {vault.fieldName} in {vault.warehouseName}
          </Link>
        )}
      </div>
    </Page>
  );
}
