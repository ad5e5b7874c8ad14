import { queryOptions, type QueryKey } from '@tanstack/react-query';
import { api } from '../lib/api-client';

/** The options of a query that reads one address of the API and keeps the answer under `queryKey`. */
export function getQuery<T>(queryKey: QueryKey, url: string) {
  return queryOptions({ queryKey, queryFn: () => api.get<T>(url) });
}
