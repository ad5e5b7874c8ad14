import {
  Archive,
  ClipboardList,
  History,
  ListChecks,
  Package,
  Search,
  User,
  X,
  type LucideIcon,
} from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { suggest, type Suggestion, type SuggestionType } from '@domain/rules/search';
import type { ReleasedVaultDto } from '@domain/schemas/pull-list.schema';
import { useNavigate } from 'react-router';
import { RELEASED_SEARCH_MIN, useReleasedVaults } from '@/api/pull-lists';
import { paths } from '@/config/paths';
import { formatDate, useFormat } from '@/lib/format';
import { useSettled } from '@/lib/use-settled';
import { useWarehouseViewState, warehouseViewState } from '@/lib/warehouse-view-state';
import { useSearchIndex } from '../use-search-index';

// enough to scroll through; more would only slow each keystroke in a big warehouse
const MAX_SUGGESTIONS = 100;
// released vaults are asked of the server once typing pauses, not on every keystroke
const RELEASED_DELAY_MS = 250;
// under the box, at least 26rem wide (on a phone the box has a row of its own, and the list is as wide as it)
const LIST_PLACE = 'absolute inset-x-0 top-full z-40 mt-1 sm:inset-x-auto sm:right-0 sm:w-[max(100%,26rem)]';

/** "Released 24 Nov 2026 by Anna": how a released vault shows among the suggestions. */
export function releasedNote(
  vault: Pick<ReleasedVaultDto, 'released_at' | 'released_by'>,
  date: (iso: string) => string = formatDate,
): string {
  const by = vault.released_by ? ` by ${vault.released_by}` : '';
  return `Released ${date(vault.released_at)}${by}`;
}

/**
 * One row of the list: a name of the warehouse's data, a pull list of a customer or order (its own row, so no
 * button sits inside a suggestion), or a vault that has left (issue 16).
 */
type Item =
  | { kind: 'suggestion'; suggestion: Suggestion }
  | { kind: 'pull-list'; suggestion: Suggestion }
  | { kind: 'released'; vault: ReleasedVaultDto };

const typeLook: Record<SuggestionType, { icon: LucideIcon; label: string; colour: string }> = {
  customer: { icon: User, label: 'Customer', colour: 'text-accent bg-blue-50' },
  order: { icon: ClipboardList, label: 'Order', colour: 'text-amber-700 bg-amber-50' },
  vault: { icon: Archive, label: 'Vault', colour: 'text-emerald-700 bg-emerald-50' },
  pallet: { icon: Package, label: 'Pallet', colour: 'text-violet-700 bg-violet-50' },
};

/** The top bar's search box on warehouse pages (spec 2.2): typed suggestions, then highlighting by the chosen one. */
export function SearchBox() {
  const format = useFormat();
  const { view } = useWarehouseViewState();
  const index = useSearchIndex(view);
  const [term, setTerm] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const navigate = useNavigate();

  const suggestions = useMemo(() => suggest(index, term, MAX_SUGGESTIONS), [index, term]);
  const releasedTerm = useSettled(term.trim(), RELEASED_DELAY_MS);
  const released = useReleasedVaults(releasedTerm);
  const typed = term.trim();
  const items = useMemo<Item[]>(
    () => [
      ...suggestions.flatMap((suggestion): Item[] =>
        suggestion.type === 'order' || suggestion.type === 'customer'
          ? [
              { kind: 'suggestion', suggestion },
              { kind: 'pull-list', suggestion },
            ]
          : [{ kind: 'suggestion', suggestion }],
      ),
      ...(typed.length >= RELEASED_SEARCH_MIN && releasedTerm === typed
        ? (released.data ?? []).map((vault) => ({ kind: 'released' as const, vault }))
        : []),
    ],
    [suggestions, typed, releasedTerm, released.data],
  );
  const showList = open && items.length > 0;
  const noMatches = open && typed !== '' && items.length === 0;
  const placeholder =
    view === 'rack' ? 'Search customer/pallet/vault number...' : 'Search customer/order/vault number...';

  // a search belongs to the view it was made in (the view toggle clears it), and leaving the page clears it
  const [termView, setTermView] = useState(view);
  if (termView !== view) {
    setTermView(view);
    setTerm('');
    setActive(-1);
  }
  useEffect(() => () => warehouseViewState.setSearch(null), []);

  useEffect(() => {
    if (active < 0) return;
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  function choose(suggestion: Suggestion) {
    setTerm(suggestion.name);
    setOpen(false);
    setActive(-1);
    if (view === 'rack' && suggestion.type === 'vault') {
      // vaults stand in the fields: show the vault number's field in the vault view
      setTermView('vault');
      warehouseViewState.setView('vault');
    }
    warehouseViewState.setSearch({ name: suggestion.name, type: suggestion.type });
  }

  function openHistory(vault: ReleasedVaultDto) {
    clear();
    // the Activity page filtered by the vault's number (or its customer when it has none) shows its whole history
    const search = new URLSearchParams({ q: vault.name ?? vault.customer_name });
    void navigate(`${paths.activity}?${search.toString()}`);
  }

  function openPullList(suggestion: Suggestion) {
    setOpen(false);
    const search = new URLSearchParams({ [suggestion.type]: suggestion.name });
    void navigate(`${paths.pullLists}?${search.toString()}`);
  }

  function pick(item: Item) {
    if (item.kind === 'suggestion') choose(item.suggestion);
    else if (item.kind === 'pull-list') openPullList(item.suggestion);
    else openHistory(item.vault);
  }

  function clear() {
    setTerm('');
    setOpen(false);
    setActive(-1);
    warehouseViewState.setSearch(null);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (items.length === 0) return;
      event.preventDefault();
      setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current + step + items.length) % items.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const picked = items[active] ?? (showList ? items[0] : undefined);
      if (picked) pick(picked);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      clear();
    }
  }

  return (
    <div className="relative w-full lg:max-w-md" role="search">
      <Search
        className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400"
        aria-hidden
      />
      <input
        type="text"
        role="combobox"
        required
        aria-label="Search"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={showList && active >= 0 ? `${listId}-${active}` : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        value={term}
        onChange={(event) => {
          setTerm(event.target.value);
          setOpen(true);
          setActive(-1);
          if (event.target.value.trim() === '') warehouseViewState.setSearch(null);
        }}
        onFocus={() => setOpen(true)}
        onBlur={(event) => {
          setOpen(false);
          // leaving the search clears it (spec 2.2); the window losing focus (another tab or app) is not leaving it
          if (event.relatedTarget !== null || document.hasFocus()) clear();
        }}
        onKeyDown={onKeyDown}
        className="w-full text-ellipsis rounded-lg border-0 bg-white/95 py-2 pr-9 pl-9 text-sm pointer-coarse:min-h-11 pointer-coarse:pr-12 text-slate-800 placeholder:text-slate-400 focus:ring-2 focus:ring-accent focus:outline-none"
      />
      {term !== '' && (
        <button
          type="button"
          aria-label="Clear search"
          onClick={clear}
          className="absolute top-1/2 right-1.5 flex -translate-y-1/2 items-center justify-center rounded-md p-1.5 text-slate-600 pointer-coarse:right-0 pointer-coarse:h-11 pointer-coarse:w-11 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-accent"
        >
          <X className="h-4 w-4" aria-hidden />
        </button>
      )}
      {noMatches && (
        <p
          role="status"
          className={`${LIST_PLACE} rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm text-slate-600 shadow-xl`}
        >
          No matches
        </p>
      )}
      <ul
        ref={listRef}
        id={listId}
        role="listbox"
        aria-label="Search suggestions"
        hidden={!showList}
        className={`${LIST_PLACE} max-h-60 overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 text-slate-800 shadow-xl`}
      >
        {showList &&
          items.map((item, i) => {
            if (item.kind === 'released')
              return (
                <li
                  key={`released:${item.vault.id}`}
                  id={`${listId}-${i}`}
                  data-index={i}
                  role="option"
                  aria-selected={i === active}
                  data-testid="released-suggestion"
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => openHistory(item.vault)}
                  onMouseMove={() => setActive(i)}
                  className={`flex min-h-10 cursor-pointer items-center gap-3 px-3 py-2 text-sm ${i === active ? 'bg-blue-50' : ''}`}
                >
                  <span
                    className="flex h-7 w-7 shrink-0 items-center justify-center rounded-md bg-slate-100 text-slate-600"
                    aria-hidden
                  >
                    <History className="h-4 w-4" />
                  </span>
                  <span className="min-w-0 flex-1">
                    <span className="block font-medium break-words">
                      {item.vault.name ?? 'No vault number'}
                      <span className="font-normal text-slate-500"> · {item.vault.customer_name}</span>
                    </span>
                    <span className="block truncate text-xs text-slate-500">
                      {releasedNote(item.vault, format.date)}
                    </span>
                  </span>
                  <span className="shrink-0 text-xs tracking-wide text-slate-500 uppercase">Released</span>
                </li>
              );
            if (item.kind === 'pull-list')
              return (
                <li
                  key={`pull-list:${item.suggestion.type}:${item.suggestion.name}`}
                  id={`${listId}-${i}`}
                  data-index={i}
                  role="option"
                  aria-selected={i === active}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => openPullList(item.suggestion)}
                  onMouseMove={() => setActive(i)}
                  className={`flex min-h-10 cursor-pointer items-center gap-3 py-1.5 pr-3 pl-13 text-sm text-accent ${i === active ? 'bg-blue-50' : ''}`}
                >
                  <ListChecks className="h-4 w-4 shrink-0" aria-hidden />
                  <span className="min-w-0 flex-1 break-words">Pull list for {item.suggestion.name}</span>
                </li>
              );
            const { suggestion } = item;
            const look = typeLook[suggestion.type];
            const Icon = look.icon;
            return (
              <li
                key={`${suggestion.type}:${suggestion.name}`}
                id={`${listId}-${i}`}
                data-index={i}
                role="option"
                aria-selected={i === active}
                // keep the focus in the input so the list does not close before the click lands
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(suggestion)}
                onMouseMove={() => setActive(i)}
                className={`flex min-h-10 cursor-pointer items-center gap-3 px-3 py-2 text-sm ${i === active ? 'bg-blue-50' : ''}`}
              >
                <span
                  className={`flex h-7 w-7 shrink-0 items-center justify-center rounded-md ${look.colour}`}
                  aria-hidden
                >
                  <Icon className="h-4 w-4" />
                </span>
                <span className="min-w-0 flex-1 font-medium break-words">{suggestion.name}</span>
                {suggestion.digOut !== undefined && (
                  <span className="shrink-0 text-xs text-slate-500" data-testid="suggestion-dig-out">
                    {suggestion.digOut === 0 ? 'on top' : `dig out ${suggestion.digOut}`}
                  </span>
                )}
                <span className="shrink-0 text-xs tracking-wide text-slate-500 uppercase">{look.label}</span>
              </li>
            );
          })}
      </ul>
    </div>
  );
}
