import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { SearchAnswerDto } from '@domain/schemas/search.schema';
import { api } from '../lib/api-client';

export const searchQueries = {
  all: ['search'] as const,
  find: (q: string, limit: number) =>
    queryOptions({
      queryKey: ['search', q, limit] as const,
      queryFn: ({ signal }) =>
        api.get<SearchAnswerDto>(
          `/api/search?${new URLSearchParams({ q, limit: String(limit) }).toString()}`,
          {
            signal,
          },
        ),
      // where a vault is changes with the floor's work: every search asks anew
      staleTime: 0,
    }),
};

/** The company-wide find (issue 27); the last answer stays on screen while the next one loads. */
export function useCompanySearch(q: string, limit: number) {
  const term = q.trim();
  return useQuery({
    ...searchQueries.find(term, limit),
    enabled: term !== '',
    placeholderData: keepPreviousData,
  });
}
