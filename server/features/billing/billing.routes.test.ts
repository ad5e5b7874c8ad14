import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type {
  AccountDto,
  AgingDto,
  BillingRunDto,
  InvoiceDto,
  NotBilledOrderDto,
  PaymentDto,
  RateDto,
  StatementDto,
} from '@domain/schemas/billing.schema';
import { buildAccount, buildVault, buildWarehouse } from '../../factories';
import { signIn, type SignedIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { pdfText } from '../../test/pdf-text';
import { PAYMENT_IN_FUTURE } from './billing.service';

const errorsOf = (res: { json(): unknown }) => (res.json() as { errors: string[] }).errors.join(' ');

describe.each(testEngines())('storage accounts and billing on %s', (engine) => {
  const { ctx, user, other } = useTestApp(engine);
  const db = () => ctx.database.db;

  /** A received order of `units` vaults, moved in on `day` (the vaults' history is set to that day). */
  async function receivedOrder(who: SignedIn, customer: string, order: string, day: string, units = 1) {
    const wh = await buildWarehouse(db(), { companyId: who.companyId, rows: 2, cols: 2, fieldCapacity: 3 });
    const ids: number[] = [];
    for (let i = 0; i < units; i++) {
      const v = await buildVault(db(), {
        companyId: who.companyId,
        fieldId: wh.field('A1').id,
        customerName: customer,
        orderName: order,
        name: `${order}-${i + 1}`,
      });
      ids.push(v.id);
    }
    await db()
      .updateTable('vaults')
      .set({ created_at: `${day}T12:00:00.000Z` })
      .where('id', 'in', ids)
      .execute();
    const notBilled = (
      await who.request({ method: 'GET', url: '/api/storage-accounts/not-billed' })
    ).json() as NotBilledOrderDto[];
    return { ids, orderId: notBilled.find((o) => o.order_name === order)!.order_id };
  }

  const post = (who: SignedIn, url: string, payload: object) => who.request({ method: 'POST', url, payload });
  const rate = (who: SignedIn, payload: Record<string, unknown>) =>
    post(who, '/api/billing/rates', { effective_from: '2025-01-01', ...payload });

  it('lists a received order as not billed until an account holds it, and refuses bad accounts and rates with 4xx', async () => {
    const { orderId } = await receivedOrder(user, 'ALICE', 'ORD-A', '2026-01-10', 2);
    const before = (
      await user.request({ method: 'GET', url: '/api/storage-accounts/not-billed' })
    ).json() as NotBilledOrderDto[];
    expect(before.find((o) => o.order_id === orderId)).toMatchObject({
      customer_name: 'ALICE',
      units: 2,
      move_in: '2026-01-10',
    });

    const noAuth = await post(user, '/api/storage-accounts', {
      order_ids: [orderId],
      kind: 'sit',
      sit_start: '2026-01-10',
    });
    expect(noAuth.statusCode).toBe(400);
    expect(errorsOf(noAuth)).toMatch(/authorization number/);

    const created = await post(user, '/api/storage-accounts', {
      order_ids: [orderId],
      kind: 'permanent',
      declared_value: 2_000_000,
      bill_to_address: '1 Main St',
    });
    expect(created.statusCode).toBe(201);
    const account = created.json() as AccountDto;
    expect(account).toMatchObject({
      customer_name: 'ALICE',
      orders: ['ORD-A'],
      bill_to_name: 'ALICE',
      move_in: '2026-01-10',
      move_out: null,
      units: 2,
      balance: 0,
    });
    expect(account.history.map((h) => h.kind)).toEqual(['created']);
    const after = (
      await user.request({ method: 'GET', url: '/api/storage-accounts/not-billed' })
    ).json() as NotBilledOrderDto[];
    expect(after.some((o) => o.order_id === orderId)).toBe(false);
    const twice = await post(user, '/api/storage-accounts', { order_ids: [orderId], kind: 'permanent' });
    expect(twice.statusCode).toBe(409);

    for (const [payload, message] of [
      [{ kind: 'storage', unit_type: 'vault', amount: -1 }, /cannot be negative/],
      [{ kind: 'storage', unit_type: 'crate', amount: 100 }, /Unit type must be one of/],
      [{ kind: 'storage', unit_type: 'vault', amount: 1.5 }, /whole number of cents/],
      [{ kind: 'storage', unit_type: 'vault', amount: 100, effective_from: '2026-02-30' }, /date/],
    ] as const) {
      const res = await rate(user, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorsOf(res)).toMatch(message);
    }
    expect(
      ((await user.request({ method: 'GET', url: '/api/billing/rates' })).json() as unknown[]).length,
    ).toBe(0);
  });

  it('opens a Permanent account per order in bulk, all or none, naming the order it refuses', async () => {
    const who = await signIn(ctx);
    const good = await receivedOrder(who, 'GOOD', 'ORD-G', '2026-02-01');
    const mixed = await receivedOrder(who, 'ANN', 'ORD-M', '2026-02-02');
    const wh = await buildWarehouse(db(), { companyId: who.companyId, rows: 1, cols: 1, fieldCapacity: 3 });
    await buildVault(db(), {
      companyId: who.companyId,
      fieldId: wh.field('A1').id,
      customerName: 'BEN',
      orderName: 'ORD-M',
    });
    const billed = await receivedOrder(who, 'BILLED', 'ORD-B', '2026-02-03');
    expect((await post(who, '/api/storage-accounts/bulk', { order_ids: [billed.orderId] })).statusCode).toBe(
      201,
    );

    for (const [orderIds, status, message] of [
      [[good.orderId, mixed.orderId], 400, /Order ORD-M has units of several customers/],
      [[good.orderId, billed.orderId], 409, /Order ORD-B is already billed/],
      [[good.orderId, 999_999], 404, /does not exist/],
    ] as const) {
      const res = await post(who, '/api/storage-accounts/bulk', { order_ids: orderIds });
      expect(res.statusCode, String(orderIds)).toBe(status);
      expect(errorsOf(res)).toMatch(message);
    }
    const notBilled = () =>
      who
        .request({ method: 'GET', url: '/api/storage-accounts/not-billed' })
        .then((r) => (r.json() as NotBilledOrderDto[]).map((o) => o.order_name).sort());
    expect(await notBilled()).toEqual(['ORD-G', 'ORD-M']);

    const opened = await post(who, '/api/storage-accounts/bulk', { order_ids: [good.orderId] });
    expect(opened.json()).toEqual({ created: 1 });
    expect(await notBilled()).toEqual(['ORD-M']);
    const accounts = (await who.request({ method: 'GET', url: '/api/storage-accounts' })).json() as {
      id: number;
      customer_name: string;
    }[];
    const account = (
      await who.request({
        method: 'GET',
        url: `/api/storage-accounts/${accounts.find((a) => a.customer_name === 'GOOD')!.id}`,
      })
    ).json() as AccountDto;
    expect(account).toMatchObject({ kind: 'permanent', bill_to_name: 'GOOD', orders: ['ORD-G'] });
    expect(account.history.map((h) => h.detail)).toEqual(['Permanent account opened for ORD-G.']);
  });

  it("bills a unit that came after its month's invoice on the next invoice, with its fee, and never twice", async () => {
    const who = await signIn(ctx);
    const order = await receivedOrder(who, 'LATE', 'ORD-L', '2026-01-05');
    await post(who, '/api/storage-accounts/bulk', { order_ids: [order.orderId] });
    await rate(who, { kind: 'storage', unit_type: 'vault', amount: 3_100 });
    await rate(who, { kind: 'handling-in', unit_type: 'vault', amount: 500 });
    const linesOf = async (run: BillingRunDto) => {
      const invoice = (
        await who.request({ method: 'GET', url: `/api/invoices/${run.issued[0]!.id}` })
      ).json() as InvoiceDto;
      return invoice.lines!.map((l) => [l.kind, l.description.split(':')[0], l.from, l.to, l.amount]);
    };
    const january = (await post(who, '/api/billing/runs', { period: '2026-01' })).json() as BillingRunDto;
    expect(january.issued).toHaveLength(1);

    // a second vault of the order comes on the 20th, after January's invoice
    const wh = await buildWarehouse(db(), { companyId: who.companyId, rows: 1, cols: 1, fieldCapacity: 3 });
    const second = await buildVault(db(), {
      companyId: who.companyId,
      fieldId: wh.field('A1').id,
      customerName: 'LATE',
      orderName: 'ORD-L',
      name: 'ORD-L-2',
    });
    await db()
      .updateTable('vaults')
      .set({ created_at: '2026-01-20T09:00:00.000Z' })
      .where('id', '=', second.id)
      .execute();

    // January stays as issued; February's invoice bills its January days and its fee first, then February whole
    const januaryAgain = (
      await post(who, '/api/billing/runs', { period: '2026-01' })
    ).json() as BillingRunDto;
    expect(januaryAgain.issued).toEqual([]);
    const february = (await post(who, '/api/billing/runs', { period: '2026-02' })).json() as BillingRunDto;
    expect(await linesOf(february)).toEqual([
      ['storage', 'Vault ORD-L-2', '2026-01-20', '2026-01-31', 1_200],
      ['handling-in', 'Vault ORD-L-2', '2026-01-20', '2026-01-20', 500],
      ['storage', 'Vault ORD-L-1', '2026-02-01', '2026-02-28', 3_100],
      ['storage', 'Vault ORD-L-2', '2026-02-01', '2026-02-28', 3_100],
    ]);
    // March looks back at February, billed whole: nothing late
    const march = (await post(who, '/api/billing/runs', { period: '2026-03' })).json() as BillingRunDto;
    expect((await linesOf(march)).map((l) => l[2])).toEqual(['2026-03-01', '2026-03-01']);
  });

  it("bills an account opened after its month's run on the next invoice, once the company billed that month", async () => {
    const who = await signIn(ctx);
    await rate(who, { kind: 'storage', unit_type: 'vault', amount: 3_100 });
    await rate(who, { kind: 'handling-in', unit_type: 'vault', amount: 500 });
    const early = await receivedOrder(who, 'EARLY', 'ORD-E', '2026-01-02');
    await post(who, '/api/storage-accounts/bulk', { order_ids: [early.orderId] });
    expect((await post(who, '/api/billing/runs', { period: '2026-01' })).json()).toMatchObject({
      issued: [expect.anything()],
    });
    // an order that came on the 20th gets its account after January's run; February bills its January first
    const late = await receivedOrder(who, 'NEWCOMER', 'ORD-N', '2026-01-20');
    await post(who, '/api/storage-accounts/bulk', { order_ids: [late.orderId] });
    const february = (await post(who, '/api/billing/runs', { period: '2026-02' })).json() as BillingRunDto;
    const issued = await Promise.all(
      february.issued.map(
        async (i) =>
          (await who.request({ method: 'GET', url: `/api/invoices/${i.id}` })).json() as InvoiceDto,
      ),
    );
    const invoice = issued.find((i) => i.customer_name === 'NEWCOMER')!;
    expect(invoice.lines!.map((l) => [l.kind, l.from, l.to, l.amount])).toEqual([
      ['storage', '2026-01-20', '2026-01-31', 1_200],
      ['handling-in', '2026-01-20', '2026-01-20', 500],
      ['storage', '2026-02-01', '2026-02-28', 3_100],
    ]);
    // January run again afterwards finds those days billed: nothing is issued twice
    const januaryAgain = (
      await post(who, '/api/billing/runs', { period: '2026-01' })
    ).json() as BillingRunDto;
    expect(januaryAgain.issued).toEqual([]);

    // a company that billed nothing of January in the app (it billed it elsewhere) is not billed for it again
    const elsewhere = await signIn(ctx);
    await rate(elsewhere, { kind: 'storage', unit_type: 'vault', amount: 3_100 });
    const moved = await receivedOrder(elsewhere, 'MOVED IN', 'ORD-M', '2026-01-20');
    await post(elsewhere, '/api/storage-accounts/bulk', { order_ids: [moved.orderId] });
    const first = (await post(elsewhere, '/api/billing/runs', { period: '2026-02' })).json() as BillingRunDto;
    const only = (
      await elsewhere.request({ method: 'GET', url: `/api/invoices/${first.issued[0]!.id}` })
    ).json() as InvoiceDto;
    expect(only.lines!.map((l) => [l.from, l.to])).toEqual([['2026-02-01', '2026-02-28']]);
  });

  it('dry-runs a month line by line, issues it once with gap-free numbers, and refuses a rate inside an issued period', async () => {
    const alice = await signIn(ctx);
    const a = await receivedOrder(alice, 'ALICE', 'ORD-1', '2026-01-10');
    const b = await receivedOrder(alice, 'BOB', 'ORD-2', '2026-01-01');
    await post(alice, '/api/storage-accounts/bulk', { order_ids: [a.orderId, b.orderId] });
    await alice.request({
      method: 'PUT',
      url: '/api/billing/settings',
      payload: {
        currency: 'USD',
        tax_basis_points: 800,
        sit_days_default: 90,
        payment_terms_days: 30,
        hold_after_days: 60,
      },
    });
    expect((await rate(alice, { kind: 'storage', unit_type: 'vault', amount: 10_000 })).statusCode).toBe(201);
    expect((await rate(alice, { kind: 'handling-in', unit_type: 'vault', amount: 2_500 })).statusCode).toBe(
      201,
    );

    const dry = await post(alice, '/api/billing/runs/dry-run', { period: '2026-01' });
    expect(dry.statusCode).toBe(200);
    const run = dry.json() as BillingRunDto;
    const alices = run.invoices.find((i) => i.customer_name === 'ALICE')!;
    // 22 of January's 31 days: 100.00 - round(100.00 * 9 / 31) = 100.00 - 29.03 = 70.97; 8 % tax per line
    expect(alices.lines.map((l) => [l.kind, l.amount, l.tax])).toEqual([
      ['storage', 7097, 568],
      ['handling-in', 2500, 200],
    ]);
    expect(alices.lines[0]!.description).toMatch(/Jan 10, 2026 to Jan 31, 2026 \(22 days\)/);
    expect(alices.total).toBe(7097 + 2500 + 568 + 200);
    expect(((await alice.request({ method: 'GET', url: '/api/invoices' })).json() as unknown[]).length).toBe(
      0,
    );

    const first = await post(alice, '/api/billing/runs', { period: '2026-01' });
    expect(first.statusCode).toBe(201);
    expect((first.json() as BillingRunDto).issued.map((i) => i.number).sort()).toEqual([1, 2]);
    const again = await post(alice, '/api/billing/runs', { period: '2026-01' });
    expect((again.json() as BillingRunDto).issued).toEqual([]);
    expect((again.json() as BillingRunDto).invoices.map((i) => i.already_issued)).toEqual([true, true]);
    const feb = await post(alice, '/api/billing/runs', { period: '2026-02' });
    expect((feb.json() as BillingRunDto).issued.map((i) => i.number).sort()).toEqual([3, 4]);
    const invoices = (await alice.request({ method: 'GET', url: '/api/invoices' })).json() as InvoiceDto[];
    expect(invoices.map((i) => i.number)).toEqual([4, 3, 2, 1]);
    // February is billed whole: the month's charge, no handling
    expect(invoices.filter((i) => i.period_start === '2026-02-01').map((i) => i.subtotal)).toEqual([
      10_000, 10_000,
    ]);

    const late = await rate(alice, {
      kind: 'storage',
      unit_type: 'vault',
      amount: 12_000,
      effective_from: '2026-02-15',
    });
    expect(late.statusCode).toBe(400);
    expect(errorsOf(late)).toMatch(
      /issued through Feb 28, 2026: a rate change takes effect from Mar 1, 2026 or later/,
    );
    expect((await post(alice, '/api/billing/runs', { period: '2099-01' })).statusCode).toBe(400);
    expect((await post(alice, '/api/billing/runs', { period: '2026-13' })).statusCode).toBe(400);
  });

  it('issues each invoice once when two runs of the same month race', async () => {
    const racer = await signIn(ctx);
    const orders = [];
    for (let i = 0; i < 6; i++)
      orders.push((await receivedOrder(racer, `RACE ${i}`, `R-${i}`, '2026-03-05')).orderId);
    await post(racer, '/api/storage-accounts/bulk', { order_ids: orders });
    await rate(racer, { kind: 'storage', unit_type: 'vault', amount: 5_000 });
    const results = await Promise.all(
      Array.from({ length: 4 }, () => post(racer, '/api/billing/runs', { period: '2026-03' })),
    );
    for (const r of results) expect(r.statusCode).toBe(201);
    const issued = results.flatMap((r) => (r.json() as BillingRunDto).issued);
    expect(issued.map((i) => i.number).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(new Set(issued.map((i) => i.account_id)).size).toBe(6);
  });

  it('stores every issued line exactly as the dry run showed it, whatever the unit is called', async () => {
    const who = await signIn(ctx);
    const plain = await receivedOrder(who, 'PLAIN', 'ORD-P', '2026-01-04', 2);
    const odd = await receivedOrder(who, 'ODD', 'ORD-Q', '2026-01-20');
    // characters an array literal escapes: the set-based insert on PostgreSQL must keep them as they are
    const oddName = 'Q"1,{x} \\ y\'s';
    await db().updateTable('vaults').set({ name: oddName }).where('id', '=', odd.ids[0]!).execute();
    await post(who, '/api/storage-accounts/bulk', { order_ids: [plain.orderId, odd.orderId] });
    await rate(who, { kind: 'storage', unit_type: 'vault', amount: 10_000 });
    await rate(who, { kind: 'handling-in', unit_type: 'vault', amount: 2_500 });
    await rate(who, { kind: 'valuation', amount: 75 });

    const dry = (await post(who, '/api/billing/runs/dry-run', { period: '2026-01' })).json() as BillingRunDto;
    const issued = (await post(who, '/api/billing/runs', { period: '2026-01' })).json() as BillingRunDto;
    expect(issued.issued).toHaveLength(2);
    for (const draft of dry.invoices) {
      const ref = issued.issued.find((i) => i.account_id === draft.account_id)!;
      const invoice = (
        await who.request({ method: 'GET', url: `/api/invoices/${ref.id}` })
      ).json() as InvoiceDto;
      expect(invoice.number).toBe(ref.number);
      expect([invoice.subtotal, invoice.tax, invoice.total]).toEqual([
        draft.subtotal,
        draft.tax,
        draft.total,
      ]);
      expect(invoice.lines!.map(({ payer: _payer, ...line }) => line)).toEqual([
        ...draft.lines,
        ...draft.agency_lines,
      ]);
    }
    const oddLines = dry.invoices.find((i) => i.customer_name === 'ODD')!.lines;
    expect(oddLines.some((l) => l.description.includes(oddName))).toBe(true);
  });

  it('records payments against invoices, credits an invoice back exactly, and ages what is open', async () => {
    const payer = await signIn(ctx);
    const { orderId } = await receivedOrder(payer, 'CAROL', 'ORD-C', '2026-01-01');
    const account = (
      await post(payer, '/api/storage-accounts', { order_ids: [orderId], kind: 'permanent' })
    ).json() as AccountDto;
    await rate(payer, { kind: 'storage', unit_type: 'vault', amount: 10_000 });
    await post(payer, '/api/billing/runs', { period: '2026-01' });
    await post(payer, '/api/billing/runs', { period: '2026-02' });
    const [feb, jan] = (await payer.request({ method: 'GET', url: '/api/invoices' })).json() as InvoiceDto[];
    expect([jan!.total, feb!.total]).toEqual([10_000, 10_000]);

    const tooMuch = await post(payer, '/api/payments', {
      account_id: account.id,
      paid_on: '2026-03-01',
      amount: 20_001,
      method: 'check',
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(errorsOf(tooMuch)).toMatch(/larger than the account's open balance \(\$200\.00\)/);
    const future = await post(payer, '/api/payments', {
      account_id: account.id,
      paid_on: '2099-01-01',
      amount: 100,
      method: 'check',
    });
    expect(future.statusCode).toBe(400);
    expect(errorsOf(future)).toBe(PAYMENT_IN_FUTURE);
    const paid = await post(payer, '/api/payments', {
      account_id: account.id,
      paid_on: '2026-03-01',
      amount: 12_500,
      method: 'check',
      reference: 'CHK 1001',
    });
    expect(paid.statusCode).toBe(201);
    expect((paid.json() as PaymentDto).allocations.map((a) => [a.number, a.amount])).toEqual([
      [1, 10_000],
      [2, 2_500],
    ]);
    const byId = async (id: number) =>
      (await payer.request({ method: 'GET', url: `/api/invoices/${id}` })).json() as InvoiceDto;
    expect((await byId(jan!.id)).status).toBe('paid');
    expect(await byId(feb!.id)).toMatchObject({ status: 'partly-paid', open: 7_500 });

    const balanceOf = async () =>
      (
        (
          await payer.request({ method: 'GET', url: `/api/storage-accounts/${account.id}` })
        ).json() as AccountDto
      ).balance;
    expect(await balanceOf()).toBe(7_500);
    const overCredit = await post(payer, `/api/invoices/${feb!.id}/credit-notes`, {
      amount: 7_501,
      reason: 'too much',
    });
    expect(overCredit.statusCode).toBe(400);
    const credit = await post(payer, `/api/invoices/${feb!.id}/credit-notes`, {
      amount: 7_500,
      reason: 'goodwill',
    });
    expect(credit.statusCode).toBe(201);
    expect(credit.json()).toMatchObject({ kind: 'credit', number: 3, total: -7_500 });
    expect(await balanceOf()).toBe(0);
    expect((await byId(feb!.id)).status).toBe('paid');
    // the issued invoice itself is unchanged
    expect(await byId(feb!.id)).toMatchObject({ total: 10_000, subtotal: 10_000, number: 2 });

    const statement = (
      await payer.request({ method: 'GET', url: `/api/storage-accounts/${account.id}/statement` })
    ).json() as StatementDto;
    expect(statement.entries.map((e) => [e.kind, e.debit, e.credit])).toEqual(
      expect.arrayContaining([
        ['invoice', 10_000, 0],
        ['payment', 0, 12_500],
        ['credit', 0, 7_500],
      ]),
    );
    expect(statement.balance).toBe(0);

    await post(payer, '/api/billing/runs', { period: '2026-03' });
    const aging = (await payer.request({ method: 'GET', url: '/api/billing/aging' })).json() as AgingDto;
    expect(aging.total).toBe(10_000);
    expect(Object.values(aging.totals).reduce((s, v) => s + v, 0)).toBe(10_000);
    expect(aging.rows).toEqual([expect.objectContaining({ account_id: account.id, total: 10_000 })]);
  });

  it('converts a SIT account to Permanent on its conversion date, in its history, and bills agency days apart', async () => {
    const sit = await signIn(ctx);
    const { orderId } = await receivedOrder(sit, 'DAVE', 'ORD-D', '2026-01-01');
    const created = await post(sit, '/api/storage-accounts', {
      order_ids: [orderId],
      kind: 'sit',
      sit_authorization: 'AUTH-77',
      sit_payer: 'agency',
      agency_name: 'Acme Van Lines',
      sit_start: '2026-01-01',
      sit_days_allowed: 45,
    });
    expect(created.statusCode).toBe(201);
    const account = created.json() as AccountDto;
    // 45 days from January 1st: permanent from February 15th, which has passed, so it converted by itself
    expect(account).toMatchObject({ kind: 'permanent', converted_on: '2026-02-15', conversion_date: null });
    expect(account.history.map((h) => [h.kind, h.detail])).toContainEqual([
      'converted',
      'SIT ended: the account is Permanent from Feb 15, 2026.',
    ]);
    await rate(sit, { kind: 'storage', unit_type: 'vault', amount: 2_800 });
    const run = (await post(sit, '/api/billing/runs/dry-run', { period: '2026-02' })).json() as BillingRunDto;
    const [invoice] = run.invoices;
    // February has 28 days at 28.00: 14 days (1st-14th) paid by the agency, 14 by the customer
    expect(invoice!.agency_lines.map((l) => l.amount)).toEqual([1_400]);
    expect(invoice!.lines.map((l) => l.amount)).toEqual([1_400]);
  });

  it('writes invoices, statements and the SIT notice as PDFs, and the accountant files as CSV and XLSX', async () => {
    const docs = await signIn(ctx);
    const { orderId } = await receivedOrder(docs, 'ERIN', 'ORD-E', '2026-03-01');
    const account = (
      await post(docs, '/api/storage-accounts', {
        order_ids: [orderId],
        kind: 'sit',
        sit_authorization: 'AUTH-E1',
        sit_start: '2026-11-01',
        bill_to_address: '5 Quay Street\nPort Town',
      })
    ).json() as AccountDto;
    await rate(docs, { kind: 'storage', unit_type: 'vault', amount: 12_345 });
    await post(docs, '/api/billing/runs', { period: '2026-04' });
    const [invoice] = (await docs.request({ method: 'GET', url: '/api/invoices' })).json() as InvoiceDto[];
    const payment = {
      account_id: account.id,
      paid_on: '2026-05-02',
      amount: 2_345,
      method: 'card',
      reference: 'CARD-9',
    };
    expect((await post(docs, '/api/payments', payment)).statusCode).toBe(201);

    const invoicePdf = await docs.request({ method: 'GET', url: `/api/invoices/${invoice!.id}/invoice.pdf` });
    expect(invoicePdf.statusCode).toBe(200);
    expect(invoicePdf.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(invoicePdf.rawPayload);
    expect(text).toContain(`Invoice ${invoice!.number}`);
    // the days as the company writes them (en-US here), in the lines and the header
    expect(text).toContain('Vault ORD-E-1: storage Apr 1, 2026 to Apr 30, 2026 (30 days)');
    expect(text).toContain('Storage period Apr 1, 2026 to Apr 30, 2026');
    expect(text).toMatch(/Total\s+\$123\.45/);
    expect(text).toContain('5 Quay Street');

    const statement = await pdfText(
      (await docs.request({ method: 'GET', url: `/api/storage-accounts/${account.id}/statement.pdf` }))
        .rawPayload,
    );
    expect(statement).toContain('Statement of account: ERIN');
    expect(statement).toMatch(/Balance due\s+\$100\.00/);
    // the payment reads with its method's label, not the stored code
    expect(statement).toContain('Card payment CARD-9');
    const notice = await pdfText(
      (await docs.request({ method: 'GET', url: `/api/storage-accounts/${account.id}/sit-notice.pdf` }))
        .rawPayload,
    );
    // 90 days from November 1st: the last SIT day is January 29th, permanent storage from the 30th
    expect(notice).toContain('Storage in transit ends on Jan 29, 2027.');
    expect(notice).toContain('From Jan 30, 2027, your goods are in permanent storage');
    expect(notice).toContain('SIT authorization: AUTH-E1');

    const journal = await docs.request({ method: 'GET', url: '/api/billing/export/journal.csv' });
    expect(journal.statusCode).toBe(200);
    const rows = journal.body.split('\r\n').filter(Boolean);
    expect(rows[0]).toBe('Date,Account,Customer,Entry,Debit,Credit');
    expect(rows.slice(1).sort()).toEqual(
      [
        `${invoice!.issue_date},${account.id},ERIN,Invoice ${invoice!.number},123.45,`,
        `2026-05-02,${account.id},ERIN,Card payment CARD-9,,23.45`,
      ].sort(),
    );
    const xlsx = await docs.request({ method: 'GET', url: '/api/billing/export/invoices.xlsx' });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('invoices')!;
    expect(sheet.getRow(1).getCell(1).value).toBe('Number');
    expect(sheet.getRow(2).getCell(1).value).toBe(invoice!.number);
    expect(sheet.getRow(2).getCell(13).value).toBe(123.45);
    expect(sheet.getRow(2).getCell(16).value).toBe(100);
    expect((await docs.request({ method: 'GET', url: '/api/billing/export/secrets.csv' })).statusCode).toBe(
      404,
    );
  });

  it("edits an account's terms at its version and voids an unpaid invoice, so its month bills again", async () => {
    const clerk = await signIn(ctx);
    const { orderId } = await receivedOrder(clerk, 'GINA', 'ORD-G', '2026-01-05');
    const account = (
      await post(clerk, '/api/storage-accounts', { order_ids: [orderId], kind: 'permanent' })
    ).json() as AccountDto;
    const patch = (payload: object, id: number | string = account.id) =>
      clerk.request({ method: 'PATCH', url: `/api/storage-accounts/${id}`, payload });
    const edited = await patch({ kind: 'permanent', bill_to_name: 'Gina Moving', version: account.version });
    expect(edited.statusCode, edited.body).toBe(200);
    const after = edited.json() as AccountDto;
    expect(after).toMatchObject({ bill_to_name: 'Gina Moving', version: account.version + 1 });
    expect(after.history.map((h) => h.detail)).toContain('Changed bill-to name.');
    const stale = await patch({ kind: 'permanent', bill_to_name: 'Someone else', version: account.version });
    expect(stale.statusCode).toBe(409);
    expect(errorsOf(stale)).toMatch(/Someone else changed this account/);
    const noVersion = await patch({ kind: 'permanent' });
    expect(noVersion.statusCode).toBe(400);
    expect(errorsOf(noVersion)).toMatch(/Version/);
    const badId = await patch({ kind: 'permanent', version: 1 }, 'abc');
    expect(badId.statusCode).toBe(404);
    expect(errorsOf(badId)).toBe('This storage account does not exist or was removed.');

    await rate(clerk, { kind: 'storage', unit_type: 'vault', amount: 5_000 });
    expect((await post(clerk, '/api/billing/runs', { period: '2026-01' })).statusCode).toBe(201);
    const [issued] = (await clerk.request({ method: 'GET', url: '/api/invoices' })).json() as InvoiceDto[];
    expect((await post(clerk, `/api/invoices/${issued!.id}/void`, { reason: ' ' })).statusCode).toBe(400);
    const voided = await post(clerk, `/api/invoices/${issued!.id}/void`, { reason: 'wrong rate' });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json()).toMatchObject({ id: issued!.id, status: 'void', reason: 'wrong rate' });
    const again = await post(clerk, `/api/invoices/${issued!.id}/void`, { reason: 'twice' });
    expect(again.statusCode).toBe(400);
    expect(errorsOf(again)).toBe('Only an invoice can be voided, once.');
    const rerun = (await post(clerk, '/api/billing/runs', { period: '2026-01' })).json() as BillingRunDto;
    expect(rerun.issued.map((i) => i.account_id)).toEqual([account.id]);
    const open = (
      await clerk.request({ method: 'GET', url: '/api/invoices?status=issued' })
    ).json() as InvoiceDto[];
    expect(open.map((i) => i.id)).toEqual([rerun.issued[0]!.id]);
    const unknown = await clerk.request({ method: 'GET', url: '/api/invoices?status=lost' });
    expect(unknown.statusCode).toBe(400);
    expect(errorsOf(unknown)).toMatch(/Unknown invoice status/);
  });

  it('corrects and removes a rate no invoice used, keeps the ones invoices used, and refuses the same rate twice', async () => {
    const boss = await signIn(ctx);
    const { orderId } = await receivedOrder(boss, 'RITA', 'ORD-R', '2026-01-05');
    await post(boss, '/api/storage-accounts/bulk', { order_ids: [orderId] });
    const rates = async () =>
      (await boss.request({ method: 'GET', url: '/api/billing/rates' })).json() as RateDto[];
    const put = (id: number, payload: object) =>
      boss.request({ method: 'PUT', url: `/api/billing/rates/${id}`, payload });
    const remove = (id: number) => boss.request({ method: 'DELETE', url: `/api/billing/rates/${id}` });

    expect((await rate(boss, { kind: 'storage', unit_type: 'vault', amount: 10_000 })).statusCode).toBe(201);
    const twice = await rate(boss, { kind: 'storage', unit_type: 'vault', amount: 11_000 });
    expect(twice.statusCode).toBe(409);
    expect(errorsOf(twice)).toBe(
      'There is already a monthly storage rate for Vault in every warehouse from Jan 1, 2025: change that rate instead of adding the same one twice.',
    );
    // the same rate for another unit type, or from another day, is another rate
    expect((await rate(boss, { kind: 'storage', unit_type: 't2', amount: 9_000 })).statusCode).toBe(201);
    const typo = await rate(boss, {
      kind: 'handling-in',
      unit_type: 'vault',
      amount: 250_000,
      effective_from: '2025-06-01',
    });
    expect(typo.statusCode).toBe(201);
    const typoId = (typo.json() as RateDto[]).find((r) => r.kind === 'handling-in')!.id;
    const fixed = await put(typoId, {
      kind: 'handling-in',
      unit_type: 'vault',
      amount: 2_500,
      effective_from: '2025-01-01',
    });
    expect(fixed.statusCode).toBe(200);
    expect((fixed.json() as RateDto[]).find((r) => r.id === typoId)).toMatchObject({
      amount: 2_500,
      effective_from: '2025-01-01',
      invoiced: false,
    });
    // an edit may not make it the twin of another rate
    const t2 = (await rates()).find((r) => r.unit_type === 't2')!;
    const clash = await put(t2.id, {
      kind: 'storage',
      unit_type: 'vault',
      amount: 1,
      effective_from: '2025-01-01',
    });
    expect(clash.statusCode).toBe(409);
    expect(errorsOf(clash)).toMatch(/already a monthly storage rate for Vault/);
    const gone = await remove(t2.id);
    expect(gone.statusCode).toBe(200);
    expect((gone.json() as RateDto[]).map((r) => r.unit_type)).toEqual(['vault', 'vault']);
    expect((await remove(t2.id)).statusCode).toBe(404);

    // January is invoiced with the vault's storage and handling-in rates: they stay, a later rate may still go
    expect((await post(boss, '/api/billing/runs', { period: '2026-01' })).statusCode).toBe(201);
    const later = await rate(boss, {
      kind: 'storage',
      unit_type: 'vault',
      amount: 12_000,
      effective_from: '2026-03-01',
    });
    expect(later.statusCode).toBe(201);
    const listed = await rates();
    expect(listed.map((r) => [r.kind, r.effective_from, r.invoiced])).toEqual([
      ['handling-in', '2025-01-01', true],
      ['storage', '2025-01-01', true],
      ['storage', '2026-03-01', false],
    ]);
    const used = listed.find((r) => r.kind === 'storage' && r.invoiced)!;
    for (const refused of [
      await put(used.id, {
        kind: 'storage',
        unit_type: 'vault',
        amount: 10_500,
        effective_from: '2025-01-01',
      }),
      await remove(used.id),
    ]) {
      expect(refused.statusCode).toBe(409);
      expect(errorsOf(refused)).toBe(
        'This rate was in force on days already invoiced (through Jan 31, 2026), so it stays as it is for those invoices. To charge a different amount, add a new rate from Feb 1, 2026 or later.',
      );
    }
    const laterId = listed.find((r) => !r.invoiced)!.id;
    const backdated = await put(laterId, {
      kind: 'storage',
      unit_type: 'vault',
      amount: 12_000,
      effective_from: '2026-01-15',
    });
    expect(backdated.statusCode).toBe(400);
    expect(errorsOf(backdated)).toMatch(/issued through Jan 31, 2026/);
    expect((await remove(laterId)).statusCode).toBe(200);
    expect((await rates()).map((r) => r.id)).not.toContain(laterId);
    // nothing of another company's
    expect((await other.request({ method: 'DELETE', url: `/api/billing/rates/${used.id}` })).statusCode).toBe(
      404,
    );
  });

  it('adds the same rate once when it is sent several times at once', async () => {
    const boss = await signIn(ctx);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => rate(boss, { kind: 'storage', unit_type: 'couchbox', amount: 4_000 })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409]);
    const list = (await boss.request({ method: 'GET', url: '/api/billing/rates' })).json() as RateDto[];
    expect(list).toHaveLength(1);
  });

  it('pays the invoices chosen for a payment, and refuses more than is open on them', async () => {
    const payer = await signIn(ctx);
    const { orderId } = await receivedOrder(payer, 'PAUL', 'ORD-P', '2026-01-01');
    const account = (
      await post(payer, '/api/storage-accounts', { order_ids: [orderId], kind: 'permanent' })
    ).json() as AccountDto;
    await rate(payer, { kind: 'storage', unit_type: 'vault', amount: 10_000 });
    await post(payer, '/api/billing/runs', { period: '2026-01' });
    await post(payer, '/api/billing/runs', { period: '2026-02' });
    const [feb, jan] = (await payer.request({ method: 'GET', url: '/api/invoices' })).json() as InvoiceDto[];
    const pay = (amount: number, allocations: { invoice_id: number; amount: number }[]) =>
      post(payer, '/api/payments', {
        account_id: account.id,
        paid_on: '2026-03-01',
        amount,
        method: 'transfer',
        allocations,
      });

    const beyond = await pay(12_000, [{ invoice_id: feb!.id, amount: 12_000 }]);
    expect(beyond.statusCode).toBe(400);
    expect(errorsOf(beyond)).toBe(
      'The payment ($120.00) is more than is open on the invoices chosen for it ($100.00): choose more invoices or lower the amount.',
    );
    const uneven = await pay(6_000, [{ invoice_id: feb!.id, amount: 5_000 }]);
    expect(errorsOf(uneven)).toBe(
      'The amounts allocated to the invoices ($50.00) must add up to the payment ($60.00).',
    );
    const lopsided = await pay(15_000, [
      { invoice_id: feb!.id, amount: 11_000 },
      { invoice_id: jan!.id, amount: 4_000 },
    ]);
    expect(errorsOf(lopsided)).toBe(
      `Invoice ${feb!.number} has $100.00 open: no more than that can go to it.`,
    );

    // the newer invoice, not the oldest
    const paid = await pay(6_000, [{ invoice_id: feb!.id, amount: 6_000 }]);
    expect(paid.statusCode).toBe(201);
    expect((paid.json() as PaymentDto).allocations.map((a) => [a.number, a.amount])).toEqual([
      [feb!.number, 6_000],
    ]);
    const invoices = (await payer.request({ method: 'GET', url: '/api/invoices' })).json() as InvoiceDto[];
    expect(invoices.map((i) => [i.number, i.status, i.open])).toEqual([
      [feb!.number, 'partly-paid', 4_000],
      [jan!.number, 'issued', 10_000],
    ]);
  });

  it('keeps companies apart and answers 403 to Floor and Viewer, who never see amounts', async () => {
    const floor = await signIn(ctx, await buildAccount(db(), { company: user.companyName, role: 'floor' }));
    const office = await signIn(ctx, await buildAccount(db(), { company: user.companyName, role: 'office' }));
    expect((await floor.request({ method: 'GET', url: '/api/storage-accounts' })).statusCode).toBe(403);
    expect((await office.request({ method: 'GET', url: '/api/storage-accounts' })).statusCode).toBe(200);
    const mine = (await user.request({ method: 'GET', url: '/api/storage-accounts' })).json() as AccountDto[];
    expect(mine.length).toBeGreaterThan(0);
    const theirs = await other.request({ method: 'GET', url: `/api/storage-accounts/${mine[0]!.id}` });
    expect(theirs.statusCode).toBe(404);
    // Office may not change a warehouse's layout
    expect(
      (await office.request({ method: 'POST', url: '/api/warehouse/add-warehouse', payload: {} })).statusCode,
    ).toBe(403);
  });
});
