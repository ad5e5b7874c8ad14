import { useSyncExternalStore } from 'react';

export type WarehouseView = 'vault' | 'rack';
export type SearchType = 'customer' | 'order' | 'vault' | 'pallet';
export interface ActiveSearch {
  name: string;
  type: SearchType;
}

interface State {
  view: WarehouseView;
  search: ActiveSearch | null;
}

// Shared by the top bar's search box and the warehouse page, which live in different parts of the tree.
let state: State = { view: 'vault', search: null };
const listeners = new Set<() => void>();

function set(next: Partial<State>) {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const warehouseViewState = {
  setView: (view: WarehouseView) => set({ view, search: null }),
  setSearch: (search: ActiveSearch | null) => set({ search }),
  reset: () => set({ view: 'vault', search: null }),
};

export function useWarehouseViewState(): State {
  return useSyncExternalStore(subscribe, () => state);
}
