import { formatMoney } from '@domain/billing/money';
import { useCompanyLocale } from './format';

/** Formats minor units of `currency` in the company's locale, through the domain's one money formatter. */
export function useMoney(): (amount: number, currency: string) => string {
  const locale = useCompanyLocale();
  return (amount, currency) => formatMoney(amount, currency, locale);
}
