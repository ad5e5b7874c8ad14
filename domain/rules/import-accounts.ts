import type { VaultAccountColumn } from './import-columns';

/**
 * The account columns of a vault import (issue 28) as the account schema reads them: the words a spreadsheet uses
 * for the kind, the SIT payer and the billing day become the API's values; other cells pass as they are, so the
 * schema's own messages speak of what was typed. `given` is false when the row names no account at all.
 */
export interface AccountCells {
  given: boolean;
  /** the row's account columns, for `AccountTermsSchema` (empty cells left out) */
  input: Partial<Record<VaultAccountColumn | 'kind', string>>;
}

const WORDS: Partial<Record<VaultAccountColumn, Record<string, string>>> = {
  account_kind: {
    permanent: 'permanent',
    perm: 'permanent',
    sit: 'sit',
    'storage in transit': 'sit',
  },
  sit_payer: { customer: 'customer', shipper: 'customer', agency: 'agency', carrier: 'agency' },
  billing_cycle: {
    calendar: 'calendar',
    'calendar month': 'calendar',
    monthly: 'calendar',
    '30 days': 'thirty-days',
    'every 30 days': 'thirty-days',
    'thirty days': 'thirty-days',
    'thirty-days': 'thirty-days',
  },
};

/** A cell's word in lower case with single spaces, for the tables above. */
const wordKey = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ');

export function readAccountCells(
  columns: readonly VaultAccountColumn[],
  cell: (column: VaultAccountColumn) => string,
): AccountCells {
  const input: AccountCells['input'] = {};
  for (const column of columns) {
    const text = cell(column).trim();
    if (text === '') continue;
    const word = WORDS[column]?.[wordKey(text)];
    input[column === 'account_kind' ? 'kind' : column] = word ?? text;
  }
  return { given: Object.keys(input).length > 0, input };
}
