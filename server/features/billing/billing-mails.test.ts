import type { MailListDto } from '@domain/schemas/team.schema';
import type { CreatedWebhookDto } from '@domain/schemas/api-access.schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AccountDto,
  BillingRunDto,
  BillingSettingsDto,
  NotBilledOrderDto,
} from '@domain/schemas/billing.schema';
import { buildVault, buildWarehouse } from '../../factories';
import { type SignedIn, testEngines } from '../../test/test-app';
import { TestSmtpServer } from '../../test/test-smtp-server';
import { useTestApp } from '../../test/use-test-app';
import { enqueueMail } from '../../mail/mail-outbox.repo';
import { runBillingDay } from './billing-day';
import { pdfText } from '../../test/pdf-text';

const dayIso = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** A stored day as en-US writes it ('Mar 1, 2026'), the demo and test companies' locale. */
const enUsDay = (day: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );

describe.each(testEngines())('invoice and SIT mails on %s', (engine) => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await TestSmtpServer.create();
  });
  afterAll(async () => {
    await smtp?.stop();
  });
  const { ctx, user } = useTestApp(engine, {
    env: () => ({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Warehouse Manager <mail@wm.example.test>',
      MAIL_POLL_SECONDS: '0',
      PUBLIC_URL: 'https://wm.example.test',
    }),
    users: 1,
  });
  const db = () => ctx.database.db;
  const post = (who: SignedIn, url: string, payload: object) => who.request({ method: 'POST', url, payload });
  const arrivedFor = (email: string) => smtp.received.filter((m) => m.to.includes(email));
  const outbox = (kind: string) =>
    db()
      .selectFrom('mail_outbox')
      .select(['recipient', 'attachment'])
      .where('company_id', '=', user.companyId)
      .where('kind', '=', kind)
      .execute();

  /** A received order of one vault moved in on `day`, its customer given `email` (or none). */
  async function storedOrder(customer: string, order: string, day: string, email: string | null) {
    const wh = await buildWarehouse(db(), { companyId: user.companyId, rows: 1, cols: 1, fieldCapacity: 3 });
    const vault = await buildVault(db(), {
      companyId: user.companyId,
      fieldId: wh.field('A1').id,
      customerName: customer,
      orderName: order,
      name: `${order}-1`,
    });
    await db()
      .updateTable('vaults')
      .set({ created_at: `${day}T12:00:00.000Z` })
      .where('id', '=', vault.id)
      .execute();
    if (email) expect((await post(user, '/api/customers', { name: customer, email })).statusCode).toBe(201);
    const notBilled = (
      await user.request({ method: 'GET', url: '/api/storage-accounts/not-billed' })
    ).json() as NotBilledOrderDto[];
    return notBilled.find((o) => o.order_name === order)!.order_id;
  }

  async function openAccount(orderId: number, terms: Record<string, unknown> = { kind: 'permanent' }) {
    const res = await post(user, '/api/storage-accounts', { order_ids: [orderId], ...terms });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as AccountDto;
  }

  it('mails each issued invoice once, with its number, total, due date, portal link and the PDF attached', async () => {
    const email = 'invoiced@example.test';
    await openAccount(await storedOrder('INVOICED CUSTOMER', 'INV-MAIL', '2026-01-10', email));
    // a customer without an address: invoiced, not mailed
    await openAccount(await storedOrder('PAPER CUSTOMER', 'INV-PAPER', '2026-01-10', null));
    expect(
      (
        await post(user, '/api/billing/rates', {
          kind: 'storage',
          unit_type: 'vault',
          amount: 12_345,
          effective_from: '2025-01-01',
        })
      ).statusCode,
    ).toBe(201);

    const run = (await post(user, '/api/billing/runs', { period: '2026-02' })).json() as BillingRunDto;
    expect(run.issued).toHaveLength(2);
    const mailed = run.issued.find((i) =>
      run.invoices.some((d) => d.account_id === i.account_id && d.customer_name === 'INVOICED CUSTOMER'),
    )!;
    expect(await outbox('invoice')).toEqual([{ recipient: email, attachment: `invoice:${mailed.id}` }]);
    expect(arrivedFor(email)).toEqual([]);

    expect(await ctx.app.mailOutbox!.tick()).toMatchObject({ claimed: 1, sent: 1 });
    const [mail, ...more] = arrivedFor(email);
    expect(more).toEqual([]);
    expect(mail!.subject).toContain(`Invoice ${mailed.number}`);
    expect(mail!.text).toContain('$123.45');
    expect(mail!.text).toMatch(/Due: [A-Z][a-z]{2} \d{1,2}, 20\d\d\n/);
    expect(mail!.text).toContain('https://wm.example.test/portal');
    expect(mail!.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      [`invoice-${mailed.number}.pdf`, 'application/pdf'],
    ]);
    const text = await pdfText(mail!.attachments[0]!.content);
    expect(text).toContain(`Invoice ${mailed.number}`);
    expect(text).toContain('INVOICED CUSTOMER');
    expect(text).toContain('$123.45');
    // the Team page lists it as an invoice, sent (its answer is checked against the declared schema)
    const listed = await user.request({ method: 'GET', url: '/api/team/mails' });
    expect(listed.statusCode, listed.body).toBe(200);
    expect((listed.json() as MailListDto).mails).toContainEqual(
      expect.objectContaining({ kind: 'invoice', to: email, status: 'sent' }),
    );

    // the same month again issues nothing and mails nothing
    const again = (await post(user, '/api/billing/runs', { period: '2026-02' })).json() as BillingRunDto;
    expect(again.issued).toEqual([]);
    expect(await ctx.app.mailOutbox!.tick()).toMatchObject({ claimed: 0 });
    expect(arrivedFor(email)).toHaveLength(1);

    // the billing day's own run mails March's invoice, once, however often it runs
    const settings = (
      await user.request({ method: 'GET', url: '/api/billing/settings' })
    ).json() as BillingSettingsDto;
    const on = await user.request({
      method: 'PUT',
      url: '/api/billing/settings',
      payload: { ...settings, auto_billing: true },
    });
    expect(on.statusCode, on.body).toBe(200);
    const days = await Promise.all([runBillingDay(db(), '2026-03-01'), runBillingDay(db(), '2026-03-01')]);
    await runBillingDay(db(), '2026-03-01');
    const issued = days
      .flat()
      .filter((r) => r.companyId === user.companyId)
      .flatMap((r) => r.issued);
    expect(issued).toHaveLength(2);
    await ctx.app.mailOutbox!.tick();
    expect(await ctx.app.mailOutbox!.tick()).toMatchObject({ claimed: 0 });
    const march = arrivedFor(email).slice(1);
    expect(march).toHaveLength(1);
    expect(issued).toContain(Number(/Invoice (\d+)/.exec(march[0]!.subject)![1]));
    // its days as the company writes them (en-US), like the attached PDF
    expect(march[0]!.text).toContain('Mar 1, 2026 to Mar 31, 2026');
    // automatic billing off again: the next test's billing days bill nothing
    const off = await user.request({
      method: 'PUT',
      url: '/api/billing/settings',
      payload: { ...settings, auto_billing: false },
    });
    expect(off.statusCode, off.body).toBe(200);
  });

  it('sends the SIT notice once within 30 days of the conversion, and a mail when the account converts', async () => {
    const email = 'in-transit@example.test';
    // SIT since 70 days ago with 90 days allowed: converts in 20 days
    const start = dayIso(-70);
    const conversion = dayIso(20);
    const account = await openAccount(await storedOrder('TRANSIT CUSTOMER', 'SIT-MAIL', start, email), {
      kind: 'sit',
      sit_authorization: 'AUTH-77',
      sit_start: start,
      sit_days_allowed: 90,
    });
    expect(account.conversion_date).toBe(conversion);

    // 31 days before: too early
    await runBillingDay(db(), dayIso(-11));
    expect(await outbox('sit-notice')).toEqual([]);

    // today, from two servers at once and once more: one notice
    await Promise.all([runBillingDay(db(), dayIso(0)), runBillingDay(db(), dayIso(0))]);
    const results = await runBillingDay(db(), dayIso(1));
    expect(results.find((r) => r.companyId === user.companyId)).toMatchObject({ sitNotices: 0 });
    expect(await outbox('sit-notice')).toEqual([
      { recipient: email, attachment: `sit-notice:${account.id}:${conversion}` },
    ]);
    expect(await ctx.app.mailOutbox!.tick()).toMatchObject({ claimed: 1, sent: 1 });
    const [notice, ...more] = arrivedFor(email);
    expect(more).toEqual([]);
    // the mail and its letter write the day the company's way (en-US): SIT's last day is the day before the
    // conversion, the first day of permanent storage
    const written = enUsDay(dayIso(19));
    const permanent = enUsDay(conversion);
    expect(notice!.subject).toContain(`ends on ${written}`);
    expect(notice!.text).toContain(
      `ends on ${written}. From ${permanent} your goods are in permanent storage`,
    );
    expect(notice!.text).toContain('SIT-MAIL');
    expect(notice!.attachments.map((a) => a.filename)).toEqual([`sit-notice-${account.id}.pdf`]);
    const letter = await pdfText(notice!.attachments[0]!.content);
    expect(letter).toContain(`Storage in transit ends on ${written}.`);
    expect(letter).toContain(`From ${permanent}, your goods are in permanent storage`);
    expect(letter).toContain('SIT authorization: AUTH-77');

    const history = (
      (await user.request({ method: 'GET', url: `/api/storage-accounts/${account.id}` })).json() as AccountDto
    ).history;
    expect(history.filter((h) => h.kind === 'mailed').map((h) => h.detail)).toEqual([
      `SIT conversion notice mailed to ${email}: SIT ends on ${written}.`,
    ]);

    // an account whose conversion day has passed converts when it is next looked at, and its customer hears of it
    const lateStart = dayIso(-100);
    const late = await openAccount(
      await storedOrder('LATE CUSTOMER', 'SIT-LATE', lateStart, 'late@example.test'),
      {
        kind: 'sit',
        sit_authorization: 'AUTH-78',
        sit_start: lateStart,
        sit_days_allowed: 90,
      },
    );
    expect(late).toMatchObject({ kind: 'permanent', converted_on: dayIso(-10) });
    await runBillingDay(db(), dayIso(0));
    expect(await ctx.app.mailOutbox!.tick()).toMatchObject({ claimed: 1, sent: 1 });
    const [converted, ...twice] = arrivedFor('late@example.test');
    expect(twice).toEqual([]);
    expect(converted!.subject).toContain(`permanent storage from ${enUsDay(dayIso(-10))}`);
    expect(converted!.attachments.map((a) => a.filename)).toEqual([`sit-notice-${late.id}.pdf`]);
    // the first account got nothing more
    expect(arrivedFor(email)).toHaveLength(1);
  });

  it('never sends a mail without the PDF it names: the attempt fails and the mail waits for the next', async () => {
    await enqueueMail(db(), {
      companyId: user.companyId,
      kind: 'invoice',
      recipient: 'no-pdf@example.test',
      subject: 'Invoice 999',
      body: 'Here is invoice 999.',
      createdBy: null,
      attachment: 'invoice:999999',
    });
    expect(await ctx.app.mailOutbox!.tick()).toMatchObject({ claimed: 1, sent: 0, retried: 1 });
    expect(arrivedFor('no-pdf@example.test')).toEqual([]);
    const row = await db()
      .selectFrom('mail_outbox')
      .select(['status', 'last_error'])
      .where('recipient', '=', 'no-pdf@example.test')
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('queued');
    expect(row.last_error).toMatch(/invoice does not exist/);
  });

  it('tells the webhooks and the history of each issued invoice and each paid one, without amounts', async () => {
    const hook = await post(user, '/api/webhooks', {
      url: 'https://hooks.example.test/billing',
      kinds: ['invoice.issued', 'invoice.paid'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const endpointId = (hook.json() as CreatedWebhookDto).endpoint.id;
    const deliveredKinds = async () =>
      (
        (await user.request({ method: 'GET', url: `/api/webhooks/${endpointId}/deliveries` })).json() as {
          kind: string;
        }[]
      ).map((d) => d.kind);
    await openAccount(await storedOrder('HOOKED CUSTOMER', 'INV-HOOK', '2026-01-10', null));
    await post(user, '/api/billing/rates', {
      kind: 'storage',
      unit_type: 'vault',
      amount: 2_000,
      effective_from: '2026-06-01',
    });

    const run = (await post(user, '/api/billing/runs', { period: '2026-06' })).json() as BillingRunDto;
    expect(run.issued.length).toBeGreaterThan(0);
    expect(await deliveredKinds()).toEqual(run.issued.map(() => 'invoice.issued'));

    const invoice = run.issued.find((i) =>
      run.invoices.some((d) => d.account_id === i.account_id && d.customer_name === 'HOOKED CUSTOMER'),
    )!;
    const paid = await post(user, '/api/payments', {
      account_id: invoice.account_id,
      paid_on: '2026-06-20',
      amount: invoice.total,
      method: 'transfer',
    });
    expect(paid.statusCode, paid.body).toBe(201);
    expect((await deliveredKinds()).filter((k) => k === 'invoice.paid')).toHaveLength(1);

    const history = (
      await user.request({ method: 'GET', url: '/api/activity?kind=invoice.issued' })
    ).json() as { items: { kind: string; customer: string | null; details: unknown }[] };
    const hooked = history.items.filter((e) => e.customer === 'HOOKED CUSTOMER');
    expect(hooked.map((e) => e.kind)).toContain('invoice.issued');
    expect(JSON.stringify(history.items)).not.toContain(String(invoice.total));
  });
});

describe.each(testEngines())('billing without SMTP_URL on %s', (engine) => {
  const { ctx, user } = useTestApp(engine, { users: 1 });

  it('issues invoices and converts SIT accounts without queuing mail', async () => {
    const db = ctx.database.db;
    const wh = await buildWarehouse(db, { companyId: user.companyId, rows: 1, cols: 1 });
    await buildVault(db, {
      companyId: user.companyId,
      fieldId: wh.field('A1').id,
      customerName: 'QUIET CUSTOMER',
      orderName: 'QUIET-1',
      name: 'QUIET-1-1',
    });
    await db.updateTable('vaults').set({ created_at: '2026-01-10T12:00:00.000Z' }).execute();
    expect(
      (
        await user.request({
          method: 'POST',
          url: '/api/customers',
          payload: { name: 'QUIET CUSTOMER', email: 'quiet@example.test' },
        })
      ).statusCode,
    ).toBe(201);
    const notBilled = (
      await user.request({ method: 'GET', url: '/api/storage-accounts/not-billed' })
    ).json() as NotBilledOrderDto[];
    const created = await user.request({
      method: 'POST',
      url: '/api/storage-accounts',
      payload: {
        order_ids: [notBilled[0]!.order_id],
        kind: 'sit',
        sit_authorization: 'Q-1',
        sit_start: '2026-01-10',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    await user.request({
      method: 'POST',
      url: '/api/billing/rates',
      payload: { kind: 'storage', unit_type: 'vault', amount: 5_000, effective_from: '2025-01-01' },
    });
    const run = await user.request({
      method: 'POST',
      url: '/api/billing/runs',
      payload: { period: '2026-06' },
    });
    expect((run.json() as BillingRunDto).issued).toHaveLength(1);
    await runBillingDay(db, dayIso(0));
    const account = (
      await user.request({ method: 'GET', url: `/api/storage-accounts/${(created.json() as AccountDto).id}` })
    ).json() as AccountDto;
    expect(account).toMatchObject({ kind: 'permanent', converted_on: '2026-04-10' });
    const queued = await db
      .selectFrom('mail_outbox')
      .select('id')
      .where('company_id', '=', user.companyId)
      .execute();
    expect(queued).toEqual([]);
  });
});
