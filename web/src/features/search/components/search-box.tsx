import { Search } from 'lucide-react';
import { useWarehouseViewState } from '../../../lib/warehouse-view-state';

/** The top bar's search box on warehouse pages. */
export function SearchBox() {
  const { view } = useWarehouseViewState();
  const placeholder = view === 'rack' ? 'Search customer/pallet/vault number...' : 'Search customer/order/vault number...';
  return (
    <div className="relative w-full max-w-md">
      <Search className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400" aria-hidden />
      <input
        type="search"
        required
        aria-label="Search"
        placeholder={placeholder}
        className="w-full rounded-lg border-0 bg-white/95 py-2 pr-3 pl-9 text-sm text-slate-800 placeholder:text-slate-400 focus:ring-2 focus:ring-accent focus:outline-none"
      />
    </div>
  );
}
