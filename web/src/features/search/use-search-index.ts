import { useMemo } from 'react';
import { useLocation } from 'react-router';
import { buildRackSearchIndex, buildVaultSearchIndex, type SearchIndex } from '@domain/rules/search';
import { useRacks } from '../../api/racks';
import { useWarehouse, useWarehouseBySlug } from '../../api/warehouses';
import type { WarehouseView } from '../../lib/warehouse-view-state';
import { warehouseSlugInPath } from '../../config/paths';

const EMPTY_INDEX: SearchIndex = { entries: [] };

/**
 * The suggestion index of the warehouse in the URL, for the current view. It is rebuilt only when that
 * warehouse's data changes, so each keystroke is a single scan of a flat array.
 */
export function useSearchIndex(view: WarehouseView): SearchIndex {
  const { pathname } = useLocation();
  const { summary } = useWarehouseBySlug(warehouseSlugInPath(pathname) ?? '');
  // rack view finds the vault numbers too
  const detail = useWarehouse(summary?.id);
  const racks = useRacks(view === 'rack' ? summary?.id : undefined);

  const vaultIndex = useMemo(
    () => (detail.data ? buildVaultSearchIndex(detail.data) : EMPTY_INDEX),
    [detail.data],
  );
  const rackIndex = useMemo(
    () => (racks.data ? buildRackSearchIndex(racks.data, detail.data) : EMPTY_INDEX),
    [racks.data, detail.data],
  );
  return view === 'rack' ? rackIndex : vaultIndex;
}
