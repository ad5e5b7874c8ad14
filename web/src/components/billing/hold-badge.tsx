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
 * The hold badge of one unit: shown wherever a vault appears (field detail, search, the vault's page, pull lists) when
 * its storage account is on hold. Nothing while the holds load or when the unit is not held.
 */
export function HoldBadge({ vaultId, compact }: { vaultId: number; compact?: boolean }) {
  const holds = useHolds();
  if (!holds.data?.has(vaultId)) return null;
  return <HoldPill compact={compact} />;
}

/** Whether a unit is held, for screens that ask for the Manager's reason before it leaves. */
export function useIsHeld(): (vaultId: number) => boolean {
  const holds = useHolds();
  return (vaultId) => holds.data?.has(vaultId) ?? false;
}
