import type { InvalidateQueryFilters, QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * The one way a mutation refreshes what it changed (decision 017): called from its `onSettled`, or its `onSuccess` where a
 * refusal changes nothing worth fetching again, with the query keys
 * (every query starting with one is fetched again) or filters (`exact` for one list beside its entries).
 */
type Target = QueryKey | InvalidateQueryFilters;
const isKey = (target: Target): target is QueryKey => Array.isArray(target);

export function invalidate(queryClient: QueryClient, ...targets: Target[]) {
  return Promise.all(
    targets.map((target) => queryClient.invalidateQueries(isKey(target) ? { queryKey: target } : target)),
  );
}
