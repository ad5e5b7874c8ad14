import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { QueryFailed } from './error-list';
import { Spinner } from './spinner';

/**
 * A query's states in one place: the spinner while it loads, the reasons and a retry when it failed, `empty` when it
 * answered an empty list, else what `children` draw from its data.
 */
export function QueryView<T>({
  query,
  loading,
  empty,
  children,
}: {
  query: UseQueryResult<T>;
  /** the spinner's words, e.g. 'Loading customers...' */
  loading?: string;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Spinner label={loading} />;
  if (query.isError) return <QueryFailed query={query} />;
  if (empty !== undefined && Array.isArray(query.data) && query.data.length === 0) return empty;
  return children(query.data);
}
