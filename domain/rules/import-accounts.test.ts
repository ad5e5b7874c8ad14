import { describe, expect, it } from 'vitest';
import { AccountTermsSchema } from '../schemas/billing.schema';
import { readAccountCells } from './import-accounts';
import { VAULT_ACCOUNT_COLUMNS, VAULT_IMPORT_COLUMNS, recogniseHeaders } from './import-columns';

const read = (cells: Partial<Record<(typeof VAULT_ACCOUNT_COLUMNS)[number], string>>) =>
  readAccountCells(VAULT_ACCOUNT_COLUMNS, (c) => cells[c] ?? '');

describe('the account columns of a vault import', () => {
  it('recognises their headers and the names spreadsheets use, without taking the customer column', () => {
    const mapping = recogniseHeaders('vaults', [
      'Customer',
      'Account',
      'Order',
      'Storage Type',
      'Authorization #',
      'SIT start date',
      'Carrier',
      'Billing cycle',
      'Bill-to',
    ]);
    expect(mapping).toMatchObject({
      customer: 'Customer',
      account_kind: 'Storage Type',
      sit_authorization: 'Authorization #',
      sit_start: 'SIT start date',
      agency_name: 'Carrier',
      billing_cycle: 'Billing cycle',
      bill_to_name: 'Bill-to',
    });
    // 'Account' is a customer's name in many sheets: it is not the account kind
    expect(Object.values(mapping)).not.toContain('Account');
  });

  it('is read, never written: the export keeps its columns', () => {
    for (const column of VAULT_ACCOUNT_COLUMNS)
      expect((VAULT_IMPORT_COLUMNS as readonly string[]).includes(column)).toBe(false);
  });

  it('turns the words of a sheet into the account schema’s values', () => {
    const sit = read({
      account_kind: ' Storage in  Transit ',
      sit_authorization: 'A-1',
      sit_start: '2026-03-01',
      sit_payer: 'Carrier',
      agency_name: 'Atlas',
      billing_cycle: 'Every 30 days',
    });
    expect(sit.given).toBe(true);
    expect(AccountTermsSchema.parse(sit.input)).toMatchObject({
      kind: 'sit',
      sit_payer: 'agency',
      billing_cycle: 'thirty-days',
      sit_start: '2026-03-01',
    });
    expect(
      AccountTermsSchema.parse(read({ account_kind: 'PERM', billing_cycle: 'monthly' }).input),
    ).toMatchObject({ kind: 'permanent', billing_cycle: 'calendar' });
  });

  it('leaves a row without account cells alone and lets the schema refuse unknown words', () => {
    expect(read({}).given).toBe(false);
    const odd = read({ account_kind: 'Yearly', billing_cycle: 'weekly' });
    expect(odd.given).toBe(true);
    const parsed = AccountTermsSchema.safeParse(odd.input);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.path[0]).sort()).toEqual(['billing_cycle', 'kind']);
  });
});
