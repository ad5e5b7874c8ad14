import { describe, expect, it } from 'vitest';
import { toCsv } from '@domain/rules/csv';
import type { AccountDto, AccountSummaryDto, NotBilledOrderDto } from '@domain/schemas/billing.schema';
import type { ImportDryRunDto, ImportRecordDto } from '@domain/schemas/import.schema';
import { type SignedIn, signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { postSheet } from '../../test/multipart-body';
import { countRows } from '../../test/row-count.repo';
import {
  ACCOUNT_NEEDS_ORDER,
  accountDiffersFromRow,
  accountOfSeveralCustomers,
  orderAlreadyBilled,
} from './vault-import';

// Issue 28: the vault import's optional account columns open a storage account for each order they name, in the
// import's one transaction; the undo takes the accounts back with the orders.

const HEADER = [
  'Vault Number',
  'Customer',
  'Order',
  'Account Kind',
  'SIT Authorization',
  'SIT Start',
  'SIT Payer',
  'Agency',
  'Billing Day',
  'Bill To',
];
type Line = (string | number | null)[];
const csv = (lines: Line[], header: string[] = HEADER) => Buffer.from(toCsv(header, lines));
/** a SIT start ten days ago: still SIT today (an older one would have become Permanent by itself) */
const recentStart = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);

describe.each(testEngines())('accounts from the vault import on %s', (engine) => {
  const { ctx } = useTestApp(engine, { users: 0 });
  const db = () => ctx.database.db;

  const send = (as: SignedIn, url: string, content: Buffer) =>
    postSheet(as, url, content, { fileName: 'lots.csv', contentType: 'text/csv' });
  const dryRun = async (as: SignedIn, content: Buffer) => {
    const res = await send(as, '/api/import/vaults/dry-run', content);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ImportDryRunDto;
  };
  const get = async <T>(as: SignedIn, url: string) => {
    const res = await as.request({ method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  };
  const accounts = (as: SignedIn) => get<AccountSummaryDto[]>(as, '/api/storage-accounts');

  it('opens one account per order with the columns’ terms, in the same transaction, and the undo takes them back', async () => {
    const me = await signIn(ctx);
    const file = csv([
      ['L-1', 'smith', 'SO-1', 'Permanent', null, null, null, null, 'every 30 days', 'Smith Family Trust'],
      ['L-2', 'smith', 'SO-1', null, null, null, null, null, null, null],
      ['L-3', 'jones', 'JO-1', 'SIT', 'AUTH-77', recentStart, 'carrier', 'Atlas Van Lines', null, null],
      // an order without account columns stays "not billed"
      ['L-4', 'brown', 'BO-1', null, null, null, null, null, null, null],
    ]);
    const plan = await dryRun(me, file);
    expect(plan.problems).toEqual([]);
    expect(plan.account_count).toBe(2);
    expect(plan.mapping).toMatchObject({ account_kind: 'Account Kind', bill_to_name: 'Bill To' });
    expect(await countRows(db(), 'storage_accounts', me.companyId)).toBe(0);

    const res = await send(me, '/api/import/vaults', file);
    expect(res.statusCode, res.body).toBe(201);
    const record = res.json() as ImportRecordDto;
    const list = await accounts(me);
    expect(list.map((a) => [a.customer_name, a.orders, a.kind, a.units]).sort()).toEqual([
      ['JONES', ['JO-1'], 'sit', 1],
      ['SMITH', ['SO-1'], 'permanent', 2],
    ]);
    const smith = await get<AccountDto>(
      me,
      `/api/storage-accounts/${list.find((a) => a.customer_name === 'SMITH')!.id}`,
    );
    expect(smith).toMatchObject({
      billing_cycle: 'thirty-days',
      bill_to_name: 'Smith Family Trust',
      sit_start: null,
    });
    expect(smith.history[0]!.detail).toContain('lots.csv');
    const jones = await get<AccountDto>(
      me,
      `/api/storage-accounts/${list.find((a) => a.customer_name === 'JONES')!.id}`,
    );
    expect(jones).toMatchObject({
      sit_authorization: 'AUTH-77',
      sit_start: recentStart,
      sit_payer: 'agency',
      agency_name: 'Atlas Van Lines',
      bill_to_name: 'JONES',
      billing_cycle: 'calendar',
    });
    const notBilled = await get<NotBilledOrderDto[]>(me, '/api/storage-accounts/not-billed');
    expect(notBilled.map((o) => o.order_name)).toEqual(['BO-1']);

    // a second file naming a billed order keeps its account and says so
    const again = await dryRun(
      me,
      csv([['L-5', 'smith', 'SO-1', 'SIT', 'A-1', '2026-02-01', null, null, null, null]]),
    );
    expect(again.problems).toEqual([]);
    expect(again.account_count).toBe(0);
    expect(again.warnings.map((w) => w.message)).toEqual([orderAlreadyBilled('SO-1')]);

    const undone = await me.request({ method: 'POST', url: `/api/imports/${record.id}/undo` });
    expect(undone.statusCode, undone.body).toBe(200);
    expect(await countRows(db(), 'storage_accounts', me.companyId)).toBe(0);
    expect(await countRows(db(), 'storage_account_history', me.companyId)).toBe(0);
  });

  it('refuses account columns it cannot read and changes nothing', async () => {
    const me = await signIn(ctx);
    const file = csv([
      // an empty slot's stand-in has no order
      [null, 'EMPTY VAULT', null, 'Permanent', null, null, null, null, null, null],
      // an unknown kind, a SIT account without its authorization and start
      ['B-2', 'smith', 'SO-2', 'Storage', null, null, null, null, null, null],
      ['B-3', 'jones', 'JO-2', 'SIT', null, null, null, null, null, null],
      // two rows of one order with different terms
      ['B-4', 'kim', 'KO-2', 'Permanent', null, null, null, null, null, null],
      ['B-5', 'kim', 'KO-2', 'Permanent', null, null, null, null, 'monthly', 'Kim Ltd'],
      // one order, two customers
      ['B-6', 'lee', 'LO-2', 'Permanent', null, null, null, null, null, null],
      ['B-7', 'park', 'LO-2', null, null, null, null, null, null, null],
      // a SIT start that is not a date
      ['B-8', 'ng', 'NO-2', 'SIT', 'A-9', '5 Jan 2026', null, null, null, null],
    ]);
    const plan = await dryRun(me, file);
    const said = plan.problems.map((p) => [p.row, p.column, p.message]);
    expect(said).toEqual(
      expect.arrayContaining([
        [2, 'Account Kind', ACCOUNT_NEEDS_ORDER],
        [3, 'Account Kind', 'Kind must be Permanent or SIT.'],
        [4, 'SIT Authorization', 'A SIT account needs its authorization number.'],
        [4, 'SIT Start', 'A SIT account needs its SIT start date.'],
        [6, 'Account Kind', accountDiffersFromRow('KO-2', 5)],
        [7, 'Account Kind', accountOfSeveralCustomers('LO-2')],
        [9, 'SIT Start', 'SIT start must be a date (YYYY-MM-DD).'],
      ]),
    );
    expect(plan.problems).toHaveLength(7);
    const res = await send(me, '/api/import/vaults', file);
    expect(res.statusCode).toBe(400);
    expect(await countRows(db(), 'vaults', me.companyId)).toBe(0);
    expect(await countRows(db(), 'storage_accounts', me.companyId)).toBe(0);
  });

  it('refuses to undo an import whose account has invoices, and keeps everything', async () => {
    const me = await signIn(ctx);
    const res = await send(
      me,
      '/api/import/vaults',
      csv([['I-1', 'smith', 'IO-1', 'Permanent', null, null, null, null, null, null]]),
    );
    expect(res.statusCode, res.body).toBe(201);
    const record = res.json() as ImportRecordDto;
    await me.request({
      method: 'POST',
      url: '/api/billing/rates',
      payload: { kind: 'storage', unit_type: 'vault', amount: 9_000, effective_from: '2025-01-01' },
    });
    const month = new Date().toISOString().slice(0, 7);
    const run = await me.request({ method: 'POST', url: '/api/billing/runs', payload: { period: month } });
    expect(run.statusCode, run.body).toBe(201);
    expect(await countRows(db(), 'invoices', me.companyId)).toBe(1);

    const undone = await me.request({ method: 'POST', url: `/api/imports/${record.id}/undo` });
    expect(undone.statusCode).toBe(409);
    expect((undone.json() as { errors: string[] }).errors.join(' ')).toContain('invoices or payments');
    expect(await countRows(db(), 'vaults', me.companyId)).toBe(1);
    expect((await accounts(me)).map((a) => a.orders)).toEqual([['IO-1']]);
  });
});
