import { Lock } from 'lucide-react';
import { useHolds } from '../../api/billing';

/** What the badge tells whoever sees it (decision 039). */
export const HOLD_TITLE =
  "Storage account on hold for unpaid storage: pulling or releasing this unit needs a Manager's override with a reason.";

/** The words of the badge, for a screen reader and for the eye. */
export function HoldPill({ compact = false }: { compact?: boolean }) {
  return (
    <span
      className="inline-flex shrink-0 items-center gap-1 rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800 ring-1 ring-red-300"
      title={HOLD_TITLE}
      data-testid="hold-badge"
    >
      <Lock className="h-3 w-3" aria-hidden />
      {compact ? <span className="sr-only">On hold</span> : 'On hold'}
    </span>
  );
}

/**
 * The hold badge of one unit: shown wherever a vault or a pallet appears (field detail, search, the vault's page, pull
 * lists, the rack view) when its storage account is on hold. Nothing while the holds load or when it is not held.
 */
export function HoldBadge({
  compact,
  ...unit
}: ({ vaultId: number } | { palletId: number }) & { compact?: boolean }) {
  const holds = useHolds();
  const held =
    'vaultId' in unit ? holds.data?.vaults.has(unit.vaultId) : holds.data?.pallets.has(unit.palletId);
  return held ? <HoldPill compact={compact} /> : null;
}

/** Whether a vault is held, for screens that ask for the Manager's reason before it leaves. */
export function useIsHeld(): (vaultId: number) => boolean {
  const holds = useHolds();
  return (vaultId) => holds.data?.vaults.has(vaultId) ?? false;
}

/** Whether a pallet is held: deleting it (its way out) needs the Manager's reason. */
export function useIsPalletHeld(): (palletId: number) => boolean {
  const holds = useHolds();
  return (palletId) => holds.data?.pallets.has(palletId) ?? false;
}
