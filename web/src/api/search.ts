import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { SEARCH_MAX_LIMIT, type SearchAnswerDto, type SearchHitDto } from '@domain/schemas/search.schema';
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

export type NumberedVault = Extract<SearchHitDto, { kind: 'vault' }>;

/**
 * The company's other vaults in store (in a field or on the stage) numbered `number` in any case (a scan reads it so): a number used twice
 * is allowed, but a scan of it must then ask which vault is meant, so the vault form says so while it is typed.
 */
export function useVaultsNumbered(number: string, exceptVaultId?: number): NumberedVault[] {
  const term = number.trim();
  const search = useQuery({ ...searchQueries.find(term, SEARCH_MAX_LIMIT), enabled: term !== '' });
  if (term === '') return [];
  return (search.data?.hits ?? []).filter(
    (hit): hit is NumberedVault =>
      hit.kind === 'vault' &&
      hit.name?.toLowerCase() === term.toLowerCase() &&
      hit.id !== exceptVaultId &&
      hit.place.at !== 'released',
  );
}
