import { formatMoney } from '../../../../domain/billing/money';

/**
 * The one place the web app takes the locale amounts are shown in: 'en-US' until the company's locale is there
 * (then this returns that hook's answer).
 */
export function useBillingLocale(): string {
  return 'en-US';
}

/** Formats minor units of `currency` in the company's locale, through the domain's one money formatter. */
export function useMoney(): (amount: number, currency: string) => string {
  const locale = useBillingLocale();
  return (amount, currency) => formatMoney(amount, currency, locale);
}
