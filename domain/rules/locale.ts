/**
 * The locales a company can show its dates and numbers in (issue 27, point 7): one per company, 'en-US' until a
 * Manager picks another. The web formats with `Intl` in this locale (`web/src/lib/format.ts`).
 */
export const COMPANY_LOCALES = [
  'en-US',
  'en-GB',
  'en-CA',
  'en-AU',
  'de-DE',
  'fr-FR',
  'es-ES',
  'it-IT',
  'nl-NL',
  'pl-PL',
  'sv-SE',
] as const;
export type CompanyLocale = (typeof COMPANY_LOCALES)[number];

export const DEFAULT_LOCALE: CompanyLocale = 'en-US';

export const LOCALE_LABELS: Record<CompanyLocale, string> = {
  'en-US': 'English (United States)',
  'en-GB': 'English (United Kingdom)',
  'en-CA': 'English (Canada)',
  'en-AU': 'English (Australia)',
  'de-DE': 'German (Germany)',
  'fr-FR': 'French (France)',
  'es-ES': 'Spanish (Spain)',
  'it-IT': 'Italian (Italy)',
  'nl-NL': 'Dutch (Netherlands)',
  'pl-PL': 'Polish (Poland)',
  'sv-SE': 'Swedish (Sweden)',
};

export function isCompanyLocale(value: unknown): value is CompanyLocale {
  return typeof value === 'string' && (COMPANY_LOCALES as readonly string[]).includes(value);
}
