import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CompanyFileJobDto } from '@domain/schemas/company-file.schema';
import { api } from '../lib/api-client';

/** How often the Backups page asks how far a running download of the company file has come. */
const RUNNING_POLL_MS = 1000;

export const companyFileQueries = {
  latest: () =>
    queryOptions({
      queryKey: ['company-file', 'latest'] as const,
      queryFn: async () =>
        (await api.get<{ job: CompanyFileJobDto | null }>('/api/company-file/jobs/latest')).job,
      refetchInterval: (query) => (query.state.data?.status === 'running' ? RUNNING_POLL_MS : false),
    }),
};

export const companyFileDownloadUrl = (job: Pick<CompanyFileJobDto, 'id'>) =>
  `/api/company-file/jobs/${job.id}/download`;

/** The company's newest download of the company file (null before the first); polled while it runs. */
export function useLatestCompanyFile() {
  return useQuery(companyFileQueries.latest());
}

export function useStartCompanyFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<CompanyFileJobDto>('/api/company-file/jobs'),
    onSuccess: (job) => queryClient.setQueryData(companyFileQueries.latest().queryKey, job),
  });
}
