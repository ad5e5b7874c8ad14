import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AccountDto,
  AccountSummaryDto,
  AgingDto,
  BillingOverviewDto,
  BillingRunDto,
  BillingSettingsDto,
  BillingSettingsInput,
  CreateAccountInput,
  HoldsDto,
  InvoiceDto,
  NotBilledOrderDto,
  PaymentDto,
  PaymentInput,
  RateDto,
  RateInput,
  UpdateAccountInput,
} from '@domain/schemas/billing.schema';
import { api } from '../lib/api-client';
import { invalidate } from './invalidate';
import { getQuery } from './get-query';

// Issue 28: storage accounts and billing (the Office role and Managers).
export const billingQueries = {
  /** every billing query starts with this key: a change to accounts, invoices or payments refreshes them all */
  all: ['billing'] as const,
  accounts: () => getQuery<AccountSummaryDto[]>(['billing', 'accounts'], '/api/storage-accounts'),
  account: (id: number) => getQuery<AccountDto>(['billing', 'accounts', id], `/api/storage-accounts/${id}`),
  notBilled: () =>
    getQuery<NotBilledOrderDto[]>(['billing', 'not-billed'], '/api/storage-accounts/not-billed'),
  settings: () => getQuery<BillingSettingsDto>(['billing', 'settings'], '/api/billing/settings'),
  rates: () => getQuery<RateDto[]>(['billing', 'rates'], '/api/billing/rates'),
  invoices: () => getQuery<InvoiceDto[]>(['billing', 'invoices'], '/api/invoices'),
  accountInvoices: (accountId: number) =>
    getQuery<InvoiceDto[]>(['billing', 'invoices', accountId], `/api/invoices?account_id=${accountId}`),
  payments: () => getQuery<PaymentDto[]>(['billing', 'payments'], '/api/payments'),
  aging: () => getQuery<AgingDto>(['billing', 'aging'], '/api/billing/aging'),
  overview: () => getQuery<BillingOverviewDto>(['billing', 'overview'], '/api/billing/overview'),
};

/**
 * The units of accounts on hold (decision 039), for the badge every member sees: outside the 'billing' keys, as it
 * shows no amount and Floor and Viewer read it too.
 */
export const holdsQuery = () =>
  queryOptions({
    queryKey: ['holds'] as const,
    queryFn: () => api.get<HoldsDto>('/api/holds'),
    staleTime: 30_000,
    select: (data) => ({ vaults: new Set(data.vault_ids), pallets: new Set(data.pallet_ids) }),
  });
export const useHolds = () => useQuery(holdsQuery());

export const useStorageAccounts = () => useQuery(billingQueries.accounts());
export const useStorageAccount = (id: number | null) =>
  useQuery({ ...billingQueries.account(id ?? 0), enabled: id !== null });
export const useNotBilled = () => useQuery(billingQueries.notBilled());
export const useBillingSettings = () => useQuery(billingQueries.settings());
export const useRates = () => useQuery(billingQueries.rates());
export const useInvoices = () => useQuery(billingQueries.invoices());
/** One account's invoices and credit notes (a payment's form offers its open ones); asked for once one is chosen. */
export const useAccountInvoices = (accountId: number | null) =>
  useQuery({ ...billingQueries.accountInvoices(accountId ?? 0), enabled: accountId !== null });
export const usePayments = () => useQuery(billingQueries.payments());
export const useAging = () => useQuery(billingQueries.aging());
/** The dashboard's billing card and the statistics' revenue: only asked for when `enabled` (Office and Managers). */
export const useBillingOverview = (enabled: boolean) => useQuery({ ...billingQueries.overview(), enabled });

/** A billing change: everything billing shows is fetched again once it is done. */
function useBillingMutation<I, O>(send: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: send, onSettled: () => invalidate(queryClient, billingQueries.all) });
}

export const useCreateAccount = () =>
  useBillingMutation((input: CreateAccountInput) => api.post<AccountDto>('/api/storage-accounts', input));
/** Changes an account's terms; `version` is the one read, so a change someone made since is refused (409). */
export const useEditAccount = () =>
  useBillingMutation(({ id, ...input }: UpdateAccountInput & { id: number }) =>
    api.patch<AccountDto>(`/api/storage-accounts/${id}`, input),
  );
export const useCreateAccountsInBulk = () =>
  useBillingMutation((orderIds: number[]) =>
    api.post<{ created: number }>('/api/storage-accounts/bulk', { order_ids: orderIds }),
  );
export const useSaveBillingSettings = () =>
  useBillingMutation((input: BillingSettingsInput) =>
    api.put<BillingSettingsDto>('/api/billing/settings', input),
  );
export const useAddRate = () =>
  useBillingMutation((input: RateInput) => api.post<RateDto[]>('/api/billing/rates', input));
/** Corrects a rate no issued invoice used; the answer is every rate. */
export const useEditRate = () =>
  useBillingMutation(({ id, ...input }: RateInput & { id: number }) =>
    api.put<RateDto[]>(`/api/billing/rates/${id}`, input),
  );
/** Removes a rate no issued invoice used; the answer is every rate. */
export const useDeleteRate = () =>
  useBillingMutation((id: number) => api.delete<RateDto[]>(`/api/billing/rates/${id}`));
export const useDryRun = () =>
  useMutation({
    mutationFn: (period: string) => api.post<BillingRunDto>('/api/billing/runs/dry-run', { period }),
  });
export const useBillingRun = () =>
  useBillingMutation((period: string) => api.post<BillingRunDto>('/api/billing/runs', { period }));
/** Puts an overdue account on hold, or lifts the hold; the units' badge is fetched again. */
export const useSetHold = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ accountId, onHold }: { accountId: number; onHold: boolean }) =>
      onHold
        ? api.post<AccountDto>(`/api/storage-accounts/${accountId}/hold`)
        : api.delete<AccountDto>(`/api/storage-accounts/${accountId}/hold`),
    onSettled: () => invalidate(queryClient, billingQueries.all, holdsQuery().queryKey),
  });
};
/** A credit note on an issued invoice, in full (no amount) or in part; the answer is the credit note. */
export const useCreditInvoice = () =>
  useBillingMutation(({ id, ...body }: { id: number; amount?: number; reason: string }) =>
    api.post<InvoiceDto>(`/api/invoices/${id}/credit-notes`, body),
  );
/** Voids an invoice nothing was paid or credited on. */
export const useVoidInvoice = () =>
  useBillingMutation(({ id, reason }: { id: number; reason: string }) =>
    api.post<InvoiceDto>(`/api/invoices/${id}/void`, { reason }),
  );
export const useRecordPayment = () =>
  useBillingMutation((input: PaymentInput) => api.post<PaymentDto>('/api/payments', input));
