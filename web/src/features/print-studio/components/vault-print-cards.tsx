import { useRef } from 'react';
import type { PrintVaultDto } from '@domain/rules/print-order';
import { isStaged } from '../print-filters';
import { useWindowRows } from './use-window-rows';

// one fixed height (card plus gap) so only the cards near the window are in the document
const CARD_HEIGHT = 128;

function VaultCard({
  vault,
  onShowNote,
}: {
  vault: PrintVaultDto;
  onShowNote: (vault: PrintVaultDto) => void;
}) {
  const where = isStaged(vault)
    ? 'Staged'
    : `${vault.warehouse_name} · Field ${vault.field_name} · Pos ${vault.position ?? ''}`;
  return (
    <li style={{ height: CARD_HEIGHT }} className="pb-2">
      <article
        aria-label={`Vault ${vault.name ?? vault.customer_name}`}
        className="flex h-full flex-col gap-0.5 overflow-hidden rounded-lg border border-slate-200 bg-white px-3 py-2 shadow-sm"
      >
        <div className="flex items-baseline justify-between gap-2">
          <span className="truncate text-base font-semibold text-slate-900">{vault.name ?? '—'}</span>
          <span className="shrink-0 rounded bg-slate-100 px-1.5 text-xs font-medium text-slate-700">
            {vault.type}
          </span>
        </div>
        <p className="truncate text-sm text-slate-800">{vault.customer_name}</p>
        <p className="truncate text-sm text-slate-600">{where}</p>
        {vault.note ? (
          <button
            type="button"
            onClick={() => onShowNote(vault)}
            aria-haspopup="dialog"
            className="-mx-1 mt-auto min-h-8 truncate rounded px-1 text-left text-sm text-slate-600 underline decoration-slate-400 decoration-dotted underline-offset-2 focus-visible:outline-2 focus-visible:outline-accent"
          >
            {vault.note}
          </button>
        ) : null}
      </article>
    </li>
  );
}

/** The phone's view of the list: one card per vault instead of seven squeezed columns. */
export function VaultPrintCards({
  vaults,
  onShowNote,
  className = '',
  label,
}: {
  vaults: readonly PrintVaultDto[];
  onShowNote: (vault: PrintVaultDto) => void;
  className?: string;
  label: string;
}) {
  const listRef = useRef<HTMLUListElement>(null);
  const { start, end } = useWindowRows(listRef, vaults.length, CARD_HEIGHT, 4);
  return (
    <ul
      ref={listRef}
      aria-label={label}
      className={className}
      style={{ paddingTop: start * CARD_HEIGHT, paddingBottom: (vaults.length - end) * CARD_HEIGHT }}
    >
      {vaults.slice(start, end).map((vault) => (
        <VaultCard key={vault.id} vault={vault} onShowNote={onShowNote} />
      ))}
    </ul>
  );
}
