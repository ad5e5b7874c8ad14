// Not useTestApp: each test starts the apps a company file moves through (one per engine), inside the test.
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { AccountDto, InvoiceDto, PaymentDto } from '@domain/schemas/billing.schema';
import type { Db } from '../db/database';
import { buildAccount, buildPallet, buildRack, buildVault, buildWarehouse } from '../factories';
import { companyFileFolder, refusal, sha256 } from '../test/company-file-exports';
import { multipartBody } from '../test/multipart-body';
import { pngImage } from '../test/test-images';
import { type SignedIn, type TestContext, signIn, startTestApp, testEngines } from '../test/test-app';
import { checkCompanyFile, importCompanyFile } from './company-file';
import { exportCompany, importCompany } from './company-transfer';
import { BILLING_TABLES, LATER_TABLES, TABLES } from './transfer-format';
import { NOT_IN_COMPANY_FILE } from './transfer.repo';

const { exportTo } = companyFileFolder('company-file-billing');
const contexts: TestContext[] = [];
afterAll(async () => {
  for (const ctx of contexts) await ctx.close();
});
const open = async (engine: 'sqlite' | 'postgres') => {
  const ctx = await startTestApp(engine);
  contexts.push(ctx);
  return ctx;
};

/** A copy of the archive with one text replaced by another of the same length (its member's hash no longer fits). */
function withText(file: string, from: string, to: string): string {
  const data = fs.readFileSync(file);
  const at = data.indexOf(from);
  if (at < 0 || from.length !== to.length) throw new Error(`no ${from} in ${file}`);
  data.write(to, at, 'latin1');
  const out = `${file}.changed`;
  fs.writeFileSync(out, data);
  return out;
}

const post = (who: SignedIn, url: string, payload: object) => who.request({ method: 'POST', url, payload });

/**
 * A company billing through the app's own routes: an account of a received order, a company rate and an account
 * rate, two issued invoices, a credit note of the second, a payment allocated to the first, and its settings.
 */
async function billingCompany(ctx: TestContext) {
  const db = ctx.database.db;
  const owner = await buildAccount(db);
  const who = await signIn(ctx, owner);
  const warehouse = await buildWarehouse(db, {
    companyId: owner.companyId,
    rows: 2,
    cols: 2,
    fieldCapacity: 3,
  });
  const vaults = [];
  for (const name of ['LOT-1', 'LOT-2'])
    vaults.push(
      await buildVault(db, {
        companyId: owner.companyId,
        fieldId: warehouse.field('A1').id,
        customerName: 'ALICE',
        orderName: 'ORD-A',
        name,
      }),
    );
  await db
    .updateTable('vaults')
    .set({ created_at: '2026-01-05T12:00:00.000Z' })
    .where(
      'id',
      'in',
      vaults.map((v) => v.id),
    )
    .execute();
  const order = await db
    .selectFrom('orders')
    .select('id')
    .where('company_id', '=', owner.companyId)
    .where('name', '=', 'ORD-A')
    .executeTakeFirstOrThrow();
  const settings = await who.request({
    method: 'PUT',
    url: '/api/billing/settings',
    payload: {
      currency: 'USD',
      tax_basis_points: 825,
      sit_days_default: 60,
      payment_terms_days: 15,
      hold_after_days: 45,
    },
  });
  expect(settings.statusCode, settings.body).toBe(200);
  const created = await post(who, '/api/storage-accounts', {
    order_ids: [order.id],
    kind: 'permanent',
    declared_value: 500_000,
    bill_to_address: '1 Main St',
  });
  expect(created.statusCode, created.body).toBe(201);
  const account = created.json() as AccountDto;
  // a pallet of the order that left: its departure travels too (decision 051)
  const rack = await buildRack(db, { companyId: owner.companyId, warehouseId: warehouse.id });
  const pallet = await buildPallet(db, {
    companyId: owner.companyId,
    shelfId: rack.shelfIds[0]!,
    customer: 'ALICE',
    slotIndex: 0,
    order: 'ORD-A',
  });
  const gone = await who.request({ method: 'DELETE', url: `/api/pallets/${pallet}/delete` });
  expect(gone.statusCode, gone.body).toBe(200);
  for (const payload of [
    { kind: 'storage', unit_type: 'vault', amount: 10_000 },
    { kind: 'handling-in', unit_type: 'vault', amount: 2_500, account_id: account.id },
  ]) {
    const res = await post(who, '/api/billing/rates', { effective_from: '2025-01-01', ...payload });
    expect(res.statusCode, res.body).toBe(201);
  }
  for (const period of ['2026-01', '2026-02'])
    expect((await post(who, '/api/billing/runs', { period })).statusCode).toBe(201);
  const [feb, jan] = (await who.request({ method: 'GET', url: '/api/invoices' })).json() as InvoiceDto[];
  const credit = await post(who, `/api/invoices/${feb!.id}/credit-notes`, {
    amount: 1_000,
    reason: 'goodwill',
  });
  expect(credit.statusCode, credit.body).toBe(201);
  const paid = await post(who, '/api/payments', {
    account_id: account.id,
    paid_on: '2026-03-01',
    amount: jan!.total,
    method: 'check',
    reference: 'CHK 1001',
  });
  expect(paid.statusCode, paid.body).toBe(201);
  expect((paid.json() as PaymentDto).allocations.length).toBeGreaterThan(0);
  // a condition inventory (decision 049): a code of the company's, an item, a photo and the pickup signature
  expect((await post(who, '/api/inventory-codes', { code: 'CH', meaning: 'Chipped' })).statusCode).toBe(201);
  const inventory = `/api/vaults/${vaults[0]!.id}/inventory`;
  expect(
    (await post(who, `${inventory}/items`, { sticker: '1', description: 'Piano', codes: ['CH'] })).statusCode,
  ).toBe(201);
  for (const [url, fields, name] of [
    [`${inventory}/photos`, {}, 'photo'],
    [`${inventory}/signatures`, { kind: 'pickup', signer: 'Alice' }, 'signature'],
  ] as const) {
    const res = await who.request({
      method: 'POST',
      url,
      ...multipartBody(fields, {
        [name]: { fileName: `${name}.png`, contentType: 'image/png', content: pngImage(4, 4) },
      }),
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  return { owner, account };
}

/** How many rows of each billing table the company has. */
async function billingCounts(db: Db, company: string) {
  const { id } = await db
    .selectFrom('companies')
    .select('id')
    .where('name', '=', company)
    .executeTakeFirstOrThrow();
  const counts: Record<string, number> = {};
  for (const table of LATER_TABLES) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .where('company_id', '=', id)
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

describe.each(testEngines())('the company file covers every table on %s', (engine) => {
  it('carries every table of the migrated database or names the reason it leaves it out', async () => {
    const ctx = await open(engine);
    const tables = (await ctx.database.db.introspection.getTables()).map((t) => t.name);
    const carried = new Set<string>(TABLES);
    const left = new Map<string, string>(Object.entries(NOT_IN_COMPANY_FILE));
    // a table a migration adds must go into TABLE_RULES (transfer-format.ts) or NOT_IN_COMPANY_FILE with a reason
    expect(tables.filter((t) => !carried.has(t) && !left.has(t))).toEqual([]);
    // and the file carries no table the database lacks (some left out exist on one engine only, company_file_chunks)
    expect([...carried].filter((t) => !tables.includes(t))).toEqual([]);
    for (const [table, reason] of left) expect(reason.length, table).toBeGreaterThan(10);
  });
});

describe('moving a billing company SQLite -> PostgreSQL -> SQLite with the company file', () => {
  it('keeps every account, rate, invoice, payment and allocation, and the next invoice takes the next number', async () => {
    const source = await open('sqlite');
    const { owner } = await billingCompany(source);
    const counts = await billingCounts(source.database.db, owner.companyName);
    for (const table of BILLING_TABLES) expect(counts[table], table).toBeGreaterThan(0);
    const original = await exportCompany(source.database.db, owner.companyName);
    expect(original.tables.invoices.map((i) => i.number).sort()).toEqual([1, 2, 3]);
    expect(original.tables.billing_settings).toEqual([expect.objectContaining({ next_invoice_number: 4 })]);

    let file = await exportTo(source.database.db, owner.companyName);
    expect((await checkCompanyFile(file)).problems).toEqual([]);
    // the check of the archive compares the counter with the invoices too
    const behind = withText(file, '"next_invoice_number":4', '"next_invoice_number":2');
    expect((await checkCompanyFile(behind)).problems).toContainEqual(
      expect.stringMatching(/next_invoice_number is 2, but the highest invoice number is 3/),
    );
    const first = sha256(file);
    let last = source;
    for (const engine of [...testEngines().filter((e) => e === 'postgres'), 'sqlite' as const]) {
      last = await open(engine);
      await importCompanyFile(last.database.db, file);
      expect(await billingCounts(last.database.db, owner.companyName)).toEqual(counts);
      expect(await exportCompany(last.database.db, owner.companyName)).toEqual(original);
      file = await exportTo(last.database.db, owner.companyName);
      expect(sha256(file)).toBe(first);
    }

    // the counter moved with the invoices: the next run issues number 4, no gap and no number twice
    const who = await signIn(last, owner);
    expect((await post(who, '/api/billing/runs', { period: '2026-03' })).statusCode).toBe(201);
    const numbers = ((await who.request({ method: 'GET', url: '/api/invoices' })).json() as InvoiceDto[])
      .map((i) => i.number)
      .sort();
    expect(numbers).toEqual([1, 2, 3, 4]);
  });
});

describe.each(testEngines())('billing in the company file on %s', (engine) => {
  it('refuses a file whose invoice counter is behind its invoices, and takes an older file without billing', async () => {
    const source = await open(engine);
    const { owner } = await billingCompany(source);
    const data = await exportCompany(source.database.db, owner.companyName);
    const target = await open(engine);

    const behind = structuredClone(data);
    behind.tables.billing_settings[0]!.next_invoice_number = 2;
    const messages = await refusal(importCompany(target.database.db, behind));
    expect(messages.join('\n')).toMatch(
      /next_invoice_number is 2, but the highest invoice number is 3 .* it must be 4/,
    );
    const lost = structuredClone(data);
    lost.tables.billing_settings = [];
    expect((await refusal(importCompany(target.database.db, lost))).join('\n')).toMatch(
      /billing_settings: missing, but invoices are numbered up to 3/,
    );
    const elsewhere = structuredClone(data);
    elsewhere.tables.payment_allocations[0]!.invoice_id = 99;
    expect((await refusal(importCompany(target.database.db, elsewhere))).join('\n')).toMatch(
      /payment_allocations row 1 \(id 1\): invoice_id 99 matches no invoices row of the file/,
    );
    expect(await target.database.db.selectFrom('invoices').selectAll().execute()).toEqual([]);

    // a file written before billing travelled has none of its tables, and imports without billing
    const older = structuredClone(data) as unknown as { tables: Record<string, unknown> };
    for (const table of LATER_TABLES) delete older.tables[table];
    // nor, from before inventories travelled, the attachments' links to them
    for (const row of older.tables.attachments as Record<string, unknown>[])
      for (const column of ['inventory_id', 'inventory_item_id', 'inventory_role']) delete row[column];
    const { companyId } = await importCompany(target.database.db, older);
    const moved = await target.database.db
      .selectFrom('vaults')
      .select('name')
      .where('company_id', '=', companyId)
      .orderBy('name')
      .execute();
    expect(moved.map((v) => v.name)).toEqual(['LOT-1', 'LOT-2']);
    expect(await billingCounts(target.database.db, owner.companyName)).toEqual(
      Object.fromEntries([...LATER_TABLES].map((t) => [t, 0])),
    );
  });
});
