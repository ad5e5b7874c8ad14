import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorMessages } from '../../lib/api-client';
import { LoadFailed } from './error-list';
import { Spinner } from './spinner';

/**
 * A query's states in one place: the spinner while it loads, the reasons and a retry when it failed (after `failed`,
 * what could not be loaded, where the screen names it), `empty` when it answered an empty list, else what `children`
 * draw from its data.
 */
export function QueryView<T>({
  query,
  loading,
  failed,
  empty,
  children,
}: {
  query: UseQueryResult<T>;
  /** the spinner's words, e.g. 'Loading customers...' */
  loading?: string;
  failed?: string;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Spinner label={loading} />;
  if (query.isError) {
    const reasons = errorMessages(query.error);
    return (
      <LoadFailed messages={failed ? [failed, ...reasons] : reasons} onRetry={() => void query.refetch()} />
    );
  }
  if (empty !== undefined && Array.isArray(query.data) && query.data.length === 0) return empty;
  return children(query.data);
}
