import * as RadixDialog from '@radix-ui/react-dialog';
import {
  Archive,
  ClipboardList,
  Grid3x3,
  Loader2,
  Package,
  Search,
  User,
  X,
  type LucideIcon,
} from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { SearchHitDto, SearchHitKind } from '@domain/schemas/search.schema';
import { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT } from '@domain/schemas/search.schema';
import { useCompanySearch } from '@/api/search';
import { ErrorList } from '@/components/ui/error-list';
import { errorMessages } from '@/lib/api-client';
import { useFormat } from '@/lib/format';
import { hitPath, hitTitle, hitWhere } from '../hit-place';
import { HoldBadge } from '@/components/billing/hold-badge';

// the server is asked once typing pauses, not on every keystroke
const TYPING_PAUSE_MS = 150;

const kindLook: Record<SearchHitKind, { icon: LucideIcon; label: string; colour: string }> = {
  field: { icon: Grid3x3, label: 'Field', colour: 'text-slate-700 bg-slate-100' },
  vault: { icon: Archive, label: 'Vault', colour: 'text-emerald-700 bg-emerald-50' },
  customer: { icon: User, label: 'Customer', colour: 'text-accent bg-blue-50' },
  order: { icon: ClipboardList, label: 'Order', colour: 'text-amber-700 bg-amber-50' },
  pallet: { icon: Package, label: 'Pallet', colour: 'text-violet-700 bg-violet-50' },
};

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/**
 * The top bar's Find (issue 27): one search over every warehouse of the company, from every signed-in page. Ctrl+K
 * (Cmd+K) or the button opens it; arrows move, Enter opens the hit where it is, Escape closes. On a phone it is a
 * sheet as wide as the screen.
 */
export function CompanySearch() {
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setOpen((now) => !now);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <RadixDialog.Root open={open} onOpenChange={setOpen}>
      <RadixDialog.Trigger
        aria-keyshortcuts={isMac ? 'Meta+K' : 'Control+K'}
        title={`Find anything in every warehouse (${isMac ? '⌘K' : 'Ctrl+K'})`}
        className="flex shrink-0 items-center gap-2 rounded-lg px-2.5 py-2 font-semibold hover:bg-white/10 focus-visible:outline-3 focus-visible:outline-white pointer-coarse:min-h-11 pointer-coarse:min-w-11"
      >
        <Search className="h-5 w-5" aria-hidden />
        <span className="sr-only sm:not-sr-only">Find</span>
        <kbd
          aria-hidden
          className="hidden rounded border border-white/30 px-1.5 text-xs font-normal text-white/80 lg:inline pointer-coarse:lg:hidden"
        >
          {isMac ? '⌘K' : 'Ctrl K'}
        </kbd>
      </RadixDialog.Trigger>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <RadixDialog.Content
          aria-describedby={undefined}
          className="fixed inset-x-0 top-0 z-50 flex max-h-[100dvh] flex-col bg-white shadow-2xl focus:outline-none sm:inset-x-auto sm:top-[10vh] sm:left-1/2 sm:max-h-[80vh] sm:w-[min(40rem,calc(100vw-2rem))] sm:-translate-x-1/2 sm:rounded-xl"
        >
          <RadixDialog.Title className="sr-only">Find in every warehouse</RadixDialog.Title>
          {open && <FindPanel onDone={() => setOpen(false)} />}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

function FindPanel({ onDone }: { onDone: () => void }) {
  const format = useFormat();
  const [term, setTerm] = useState('');
  const [asked, setAsked] = useState('');
  const [limit, setLimit] = useState(SEARCH_DEFAULT_LIMIT);
  const [active, setActive] = useState(0);
  const listId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const navigate = useNavigate();

  useEffect(() => {
    const timer = setTimeout(() => {
      setAsked(term.trim());
      setLimit(SEARCH_DEFAULT_LIMIT);
      setActive(0);
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [term]);

  const search = useCompanySearch(asked, limit);
  const hits = asked === '' ? [] : (search.data?.hits ?? []);
  const waiting = term.trim() !== asked || search.isFetching;

  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  function openHit(hit: SearchHitDto) {
    onDone();
    void navigate(hitPath(hit));
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (hits.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((now) => (now + step + hits.length) % hits.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const hit = hits[active];
      if (hit && !waiting) openHit(hit);
    }
  }

  return (
    <>
      <div className="flex items-center gap-2 border-b border-slate-200 px-3 py-2">
        <Search className="h-5 w-5 shrink-0 text-slate-400" aria-hidden />
        <input
          type="text"
          role="combobox"
          aria-label="Find in every warehouse"
          aria-autocomplete="list"
          aria-expanded={hits.length > 0}
          aria-controls={listId}
          aria-activedescendant={hits.length > 0 ? `${listId}-${active}` : undefined}
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="go"
          placeholder="Vault, customer, order, pallet or field..."
          value={term}
          onChange={(event) => setTerm(event.target.value)}
          onKeyDown={onKeyDown}
          className="min-h-11 min-w-0 flex-1 bg-transparent text-base text-slate-800 placeholder:text-slate-400 focus:outline-none"
        />
        {waiting && asked !== '' && (
          <Loader2 className="h-5 w-5 shrink-0 animate-spin text-slate-400" aria-label="Searching" />
        )}
        <RadixDialog.Close
          aria-label="Close"
          className="flex h-9 w-9 shrink-0 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-accent pointer-coarse:h-11 pointer-coarse:w-11"
        >
          <X className="h-5 w-5" aria-hidden />
        </RadixDialog.Close>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {asked === '' ? (
          <p className="px-4 py-6 text-sm text-slate-600">
            Type a vault number, a customer, an order, a pallet or a field (such as A12): every warehouse is
            searched, and each result says where it is.
          </p>
        ) : search.isError ? (
          <div className="p-4">
            <ErrorList messages={errorMessages(search.error)} />
          </div>
        ) : search.isPending ? (
          <p className="px-4 py-6 text-sm text-slate-600">Searching...</p>
        ) : hits.length === 0 ? (
          <p role="status" className="px-4 py-6 text-sm text-slate-600">
            Nothing in your company begins with "{asked}".
          </p>
        ) : null}
        <ul
          ref={listRef}
          id={listId}
          role="listbox"
          aria-label="Results"
          hidden={hits.length === 0}
          className="py-1"
        >
          {hits.map((hit, i) => {
            const look = kindLook[hit.kind];
            const Icon = look.icon;
            return (
              <li
                key={`${hit.kind}:${hit.id}`}
                id={`${listId}-${i}`}
                data-index={i}
                role="option"
                aria-selected={i === active}
                data-testid="find-hit"
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => openHit(hit)}
                onMouseMove={() => setActive(i)}
                className={`flex min-h-12 cursor-pointer items-center gap-3 px-4 py-2 ${i === active ? 'bg-blue-50' : ''}`}
              >
                <span
                  className={`flex h-8 w-8 shrink-0 items-center justify-center rounded-md ${look.colour}`}
                  aria-hidden
                >
                  <Icon className="h-4 w-4" />
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block font-medium break-words text-slate-800">{hitTitle(hit)}</span>
                  <span className="block text-sm break-words text-slate-600">
                    {hitWhere(hit, format.date)}
                  </span>
                </span>
                {hit.kind === 'vault' && hit.place.at !== 'released' && <HoldBadge vaultId={hit.id} />}
                {hit.kind === 'pallet' && <HoldBadge palletId={hit.id} />}
                <span className="shrink-0 text-xs tracking-wide text-slate-600 uppercase">{look.label}</span>
              </li>
            );
          })}
        </ul>
        {search.data?.more && asked !== '' && (
          <div className="border-t border-slate-100 px-4 py-2 text-sm text-slate-600">
            {limit < SEARCH_MAX_LIMIT ? (
              <button
                type="button"
                onClick={() => setLimit(SEARCH_MAX_LIMIT)}
                className="rounded-lg px-2 py-1 font-semibold text-accent hover:bg-blue-50 pointer-coarse:min-h-11"
              >
                Show more results
              </button>
            ) : (
              'More results than shown: type more of the name.'
            )}
          </div>
        )}
      </div>
    </>
  );
}
