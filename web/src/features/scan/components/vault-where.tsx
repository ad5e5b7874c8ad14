import { ArrowRightLeft, Inbox, Pencil, QrCode } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { ScannedVaultDto } from '@domain/schemas/scan.schema';
import { useStageVault } from '@/api/stage';
import { HoldBadge } from '@/components/billing/hold-badge';
import { LabelPrintDialog } from '@/components/label-print-dialog';
import { buttonClass } from '@/components/ui/button';
import { ErrorList } from '@/components/ui/error-list';
import { paths } from '@/config/paths';
import { errorMessages } from '@/lib/api-client';

const big = 'min-h-14 flex-1 text-base';

/**
 * Where a scanned vault stands, with large Stage, Move, Edit and Print label actions for one-handed use on a
 * tablet.
 */
export function VaultWhere({
  vault,
  onMove,
  onStaged,
}: {
  vault: ScannedVaultDto;
  /** Move: the caller waits for a field label to be scanned */
  onMove?: () => void;
  onStaged?: () => void;
}) {
  const stage = useStageVault();
  const [printing, setPrinting] = useState(false);
  const title = vault.name ?? vault.customerName;
  const placed = vault.fieldName !== null;
  // only the topmost vault of a field comes off: a buried one says so instead of offering what the server refuses
  const buried = placed && vault.above > 0;
  return (
    <section
      aria-label={`Vault ${title}`}
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <div className="flex flex-wrap items-center gap-2">
        <p className="text-3xl font-bold text-primary" data-testid="scanned-vault">
          {title}
        </p>
        <HoldBadge vaultId={vault.id} />
      </div>
      <p className="text-sm text-slate-600">
        {vault.customerName}
        {vault.orderName ? ` · order ${vault.orderName}` : ''} · {vault.type}
      </p>
      <dl className="mt-3 grid grid-cols-2 gap-2 text-lg">
        {placed ? (
          <>
            <div>
              <dt className="text-xs text-slate-500 uppercase">Warehouse</dt>
              <dd className="font-semibold">{vault.warehouseName}</dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500 uppercase">Field</dt>
              <dd className="font-semibold" data-testid="scanned-field">
                {vault.fieldName}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500 uppercase">Position</dt>
              <dd className="font-semibold">{vault.position}</dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500 uppercase">Vaults above it</dt>
              <dd className="font-semibold" data-testid="vaults-above">
                {vault.above}
              </dd>
            </div>
          </>
        ) : (
          <div className="col-span-2">
            <dt className="text-xs text-slate-500 uppercase">Where</dt>
            <dd className="font-semibold">On the stage</dd>
          </div>
        )}
      </dl>
      {stage.isError && <ErrorList messages={errorMessages(stage.error)} />}
      {buried && (
        <p id="scan-buried" className="mt-3 text-sm text-amber-900" role="note">
          {vault.above === 1 ? '1 vault stands' : `${vault.above} vaults stand`} on top of it: only the
          topmost vault of a field can be staged or moved. Take {vault.above === 1 ? 'it' : 'them'} off first.
        </p>
      )}
      <div className="mt-4 flex flex-wrap gap-2">
        {placed && (
          <button
            type="button"
            className={buttonClass('secondary', big)}
            disabled={buried || stage.isPending}
            aria-describedby={buried ? 'scan-buried' : undefined}
            onClick={() => stage.mutate(vault.id, { onSuccess: () => onStaged?.() })}
          >
            <Inbox className="h-5 w-5" aria-hidden /> Stage
          </button>
        )}
        {onMove && (
          <button
            type="button"
            className={buttonClass('primary', big)}
            onClick={onMove}
            disabled={buried}
            aria-describedby={buried ? 'scan-buried' : undefined}
          >
            <ArrowRightLeft className="h-5 w-5" aria-hidden /> Move
          </button>
        )}
        {vault.name && (
          <Link to={paths.editVault(vault.name)} className={buttonClass('secondary', big)}>
            <Pencil className="h-5 w-5" aria-hidden /> Edit
          </Link>
        )}
        <button
          type="button"
          className={buttonClass('secondary', big)}
          onClick={() => setPrinting(true)}
          aria-label={`Print the label of vault ${title}`}
        >
          <QrCode className="h-5 w-5" aria-hidden /> Print label
        </button>
      </div>
      {printing && (
        <LabelPrintDialog
          open={printing}
          onOpenChange={setPrinting}
          title={`Label of vault ${title}`}
          fileName={`vault-${vault.name ?? vault.id}-label.pdf`}
          subject={{ vaultId: vault.id }}
        />
      )}
    </section>
  );
}
