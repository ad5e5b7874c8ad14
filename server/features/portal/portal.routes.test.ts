import { describe, expect, it } from 'vitest';
import type {
  CustomerDto,
  PortalInvoicesDto,
  PortalLinkDto,
  PortalUnitDto,
} from '@domain/schemas/customer.schema';
import type { ActivityItemDto } from '@domain/schemas/activity.schema';
import { testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { buildStagedVault, buildVault, buildWarehouse } from '../../factories';
import { pdfText } from '../../test/pdf-text';
import { PORTAL_LINK_UNUSABLE } from './portal.service';

describe.each(testEngines())('customers and the customer portal on %s', (engine) => {
  const { ctx, user: office, other } = useTestApp(engine);

  const addCustomer = async (signedIn = office, name: string, email: string) => {
    const res = await signedIn.request({ method: 'POST', url: '/api/customers', payload: { name, email } });
    expect(res.statusCode).toBe(201);
    return res.json() as CustomerDto;
  };
  const linkFor = async (customerId: number, signedIn = office) => {
    const res = await signedIn.request({ method: 'POST', url: `/api/customers/${customerId}/portal-link` });
    expect(res.statusCode).toBe(201);
    return res.json() as PortalLinkDto;
  };
  const signInWith = (link: PortalLinkDto) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/portal/sign-in',
      payload: { token: link.url.split('#')[1] },
    });
  const portalCookie = async (link: PortalLinkDto) => {
    const res = await signInWith(link);
    expect(res.statusCode).toBe(200);
    return `wm_portal=${res.cookies.find((c) => c.name === 'wm_portal')!.value}`;
  };
  const asPortal = (cookie: string, url: string) =>
    ctx.app.inject({ method: 'GET', url, headers: { cookie } });
  /** A unit stored for `customerName` in a new one-field warehouse of the office's company. */
  const storedFor = async (customerName: string, warehouseName: string, type?: 'liftvan') => {
    const warehouse = await buildWarehouse(ctx.database.db, {
      companyId: office.companyId,
      name: warehouseName,
      rows: 1,
      cols: 1,
    });
    await buildVault(ctx.database.db, {
      companyId: office.companyId,
      fieldId: warehouse.field('A1').id,
      customerName,
      type,
    });
  };

  it('shows a customer only their own units, with number, type, warehouse and since when', async () => {
    const db = ctx.database.db;
    const warehouse = await buildWarehouse(db, {
      companyId: office.companyId,
      name: 'Portal Depot',
      rows: 2,
      cols: 2,
    });
    const mine = await buildVault(db, {
      companyId: office.companyId,
      fieldId: warehouse.field('A1').id,
      customerName: 'PORTAL SMITH',
      orderName: 'PS-1',
      name: 'PS-V1',
    });
    const staged = await buildStagedVault(db, {
      companyId: office.companyId,
      customerName: 'PORTAL SMITH',
      orderName: 'PS-1',
      name: 'PS-V2',
    });
    await buildVault(db, {
      companyId: office.companyId,
      fieldId: warehouse.field('A2').id,
      customerName: 'PORTAL JONES',
      orderName: 'PJ-1',
      name: 'PJ-V1',
    });
    // the office gives the customer the vaults already carry an address
    const smith = await addCustomer(office, 'portal smith', 'smith@example.test');
    expect(smith).toMatchObject({ name: 'PORTAL SMITH', email: 'smith@example.test', units: 2 });
    const jones = await addCustomer(office, 'Portal Jones', 'jones@example.test');

    const cookie = await portalCookie(await linkFor(smith.id));
    const units = (await asPortal(cookie, '/api/portal/units')).json() as PortalUnitDto[];
    expect(units.map((u) => [u.number, u.type, u.warehouse, u.order])).toEqual([
      ['PS-V1', 'vault', 'Portal Depot', 'PS-1'],
      ['PS-V2', 'vault', null, 'PS-1'],
    ]);
    expect(units.map((u) => u.id)).toEqual([mine.id, staged.id]);
    expect(units.every((u) => !Number.isNaN(Date.parse(u.since)))).toBe(true);
    expect((await asPortal(cookie, '/api/portal/me')).json()).toEqual({
      name: 'PORTAL SMITH',
      email: 'smith@example.test',
      company: office.companyName,
    });

    const jonesCookie = await portalCookie(await linkFor(jones.id));
    const jonesUnits = (await asPortal(jonesCookie, '/api/portal/units')).json() as PortalUnitDto[];
    expect(jonesUnits.map((u) => u.number)).toEqual(['PJ-V1']);
  });

  it('uses a link once, refuses a made-up or expired one, and ends with sign-out', async () => {
    const customer = await addCustomer(office, 'Once Only', 'once@example.test');
    const link = await linkFor(customer.id);
    const [first, second] = await Promise.all([signInWith(link), signInWith(link)]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 404]);
    const refused = first.statusCode === 404 ? first : second;
    expect(refused.json()).toEqual({ errors: [PORTAL_LINK_UNUSABLE] });
    const made = await ctx.app.inject({
      method: 'POST',
      url: '/api/portal/sign-in',
      payload: { token: 'x'.repeat(43) },
    });
    expect(made.statusCode).toBe(404);
    const empty = await ctx.app.inject({ method: 'POST', url: '/api/portal/sign-in', payload: {} });
    expect(empty.statusCode).toBe(400);

    const expired = await linkFor(customer.id);
    await ctx.database.db
      .updateTable('portal_links')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('used_at', 'is', null)
      .execute();
    expect((await signInWith(expired)).statusCode).toBe(404);

    const cookie = await portalCookie(await linkFor(customer.id));
    const out = await ctx.app.inject({ method: 'POST', url: '/api/portal/sign-out', headers: { cookie } });
    expect(out.statusCode).toBe(204);
    expect((await asPortal(cookie, '/api/portal/me')).statusCode).toBe(401);
  });

  it('ends the portal when the address changes: old links and sessions stop working', async () => {
    const customer = await addCustomer(office, 'Moving House', 'old@example.test');
    const cookie = await portalCookie(await linkFor(customer.id));
    const pending = await linkFor(customer.id);
    const changed = await office.request({
      method: 'PATCH',
      url: `/api/customers/${customer.id}`,
      payload: { email: 'new@example.test' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await asPortal(cookie, '/api/portal/units')).statusCode).toBe(401);
    expect((await signInWith(pending)).statusCode).toBe(404);
    const renamed = await office.request({
      method: 'PATCH',
      url: `/api/customers/${customer.id}`,
      payload: { name: 'MOVING HOME' },
    });
    expect(renamed.statusCode).toBe(200);

    // the history says who added, changed and sent links, never the addresses; the other company sees none of it
    const history = (await office.request({ method: 'GET', url: '/api/activity' })).json() as {
      items: ActivityItemDto[];
    };
    const ofCustomer = history.items
      .filter((item) => item.entityType === 'customer' && item.entityId === customer.id)
      .map((item) => [item.kind, item.customer, item.details]);
    expect(ofCustomer.reverse()).toEqual([
      ['customer.added', 'MOVING HOUSE', { hadUnits: false }],
      ['customer.portal-link', 'MOVING HOUSE', { mailed: false }],
      ['customer.portal-link', 'MOVING HOUSE', { mailed: false }],
      ['customer.changed', 'MOVING HOUSE', { newEmail: true }],
      ['customer.changed', 'MOVING HOME', { renamedFrom: 'MOVING HOUSE', newEmail: false }],
    ]);
    expect(JSON.stringify(history)).not.toContain('example.test');
    const theirs = (await other.request({ method: 'GET', url: '/api/activity' })).json() as {
      items: ActivityItemDto[];
    };
    expect(theirs.items.filter((item) => item.entityType === 'customer')).toEqual([]);
  });

  it("keeps customers of one company from another's: 404 for its ids, and B's portal sees none of A", async () => {
    const aCustomer = await addCustomer(office, 'Alpha Private', 'alpha-private@example.test');
    for (const res of [
      await other.request({ method: 'POST', url: `/api/customers/${aCustomer.id}/portal-link` }),
      await other.request({
        method: 'PATCH',
        url: `/api/customers/${aCustomer.id}`,
        payload: { name: 'Hacked' },
      }),
    ])
      expect(res.statusCode).toBe(404);
    const list = (await other.request({ method: 'GET', url: '/api/customers' })).json() as CustomerDto[];
    expect(list.map((c) => c.name)).not.toContain('ALPHA PRIVATE');

    const bCustomer = await addCustomer(other, 'Alpha Private', 'bravo-private@example.test');
    const bCookie = await portalCookie(await linkFor(bCustomer.id, other));
    expect((await asPortal(bCookie, '/api/portal/units')).json()).toEqual([]);
    expect(((await asPortal(bCookie, '/api/portal/invoices')).json() as PortalInvoicesDto).invoices).toEqual(
      [],
    );
    expect((await asPortal(bCookie, '/api/portal/me')).json()).toMatchObject({ company: other.companyName });
  });

  it('shows the customer their invoices and balance, and no other customer sees them', async () => {
    const db = ctx.database.db;
    const warehouse = await buildWarehouse(db, {
      companyId: office.companyId,
      name: 'Billing Depot',
      rows: 1,
      cols: 1,
    });
    await buildVault(db, {
      companyId: office.companyId,
      fieldId: warehouse.field('A1').id,
      customerName: 'BILLED CUSTOMER',
      orderName: 'BC-1',
    });
    const billed = await addCustomer(office, 'Billed Customer', 'billed@example.test');
    const bystander = await addCustomer(office, 'Bystander', 'bystander@example.test');
    const notBilled = (
      await office.request({ method: 'GET', url: '/api/storage-accounts/not-billed' })
    ).json() as {
      order_id: number;
      order_name: string;
    }[];
    const order = notBilled.find((o) => o.order_name === 'BC-1')!;
    const account = await office.request({
      method: 'POST',
      url: '/api/storage-accounts',
      payload: { order_ids: [order.order_id], kind: 'permanent' },
    });
    expect(account.statusCode).toBe(201);
    const rate = await office.request({
      method: 'POST',
      url: '/api/billing/rates',
      payload: { kind: 'storage', unit_type: 'vault', amount: 4500, effective_from: '2000-01-01' },
    });
    expect(rate.statusCode).toBe(201);
    const run = await office.request({
      method: 'POST',
      url: '/api/billing/runs',
      payload: { period: new Date().toISOString().slice(0, 7) },
    });
    expect(run.statusCode).toBe(201);

    const billedCookie = await portalCookie(await linkFor(billed.id));
    const bystanderCookie = await portalCookie(await linkFor(bystander.id));
    const invoices = (await asPortal(billedCookie, '/api/portal/invoices')).json() as PortalInvoicesDto;
    expect(invoices.invoices).toHaveLength(1);
    expect(invoices.invoices[0]!.total).toBeGreaterThan(0);
    expect(invoices.balance).toBe(invoices.invoices[0]!.open);
    expect(invoices.balance).toBe(invoices.invoices[0]!.total);
    const theirs = (await asPortal(bystanderCookie, '/api/portal/invoices')).json() as PortalInvoicesDto;
    expect(theirs).toMatchObject({ balance: 0, invoices: [] });

    // the customer downloads the invoice as the PDF the office sends; another customer's session finds no such invoice
    const pdfUrl = `/api/portal/invoices/${invoices.invoices[0]!.id}/invoice.pdf`;
    const pdf = await asPortal(billedCookie, pdfUrl);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(
      `attachment; filename="invoice-${invoices.invoices[0]!.number}.pdf"`,
    );
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain(`Invoice ${invoices.invoices[0]!.number}`);
    expect(text).toContain('BILLED CUSTOMER');
    const refused = await asPortal(bystanderCookie, pdfUrl);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ errors: ['Invoice not found.'] });
    expect((await asPortal(billedCookie, '/api/portal/invoices/99999999/invoice.pdf')).statusCode).toBe(404);
  });

  it('refuses bad input with readable messages and a portal link without an address', async () => {
    const bad = await office.request({
      method: 'POST',
      url: '/api/customers',
      payload: { name: '', email: 'nope' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/Customer name is required/);
    expect(bad.body).toMatch(/valid email/);
    await addCustomer(office, 'Taken Name', 'taken@example.test');
    const taken = await office.request({
      method: 'POST',
      url: '/api/customers',
      payload: { name: 'Taken Name', email: 'other@example.test' },
    });
    expect(taken.statusCode).toBe(409);

    await storedFor('NO ADDRESS', 'No Mail Depot');
    const list = (await office.request({ method: 'GET', url: '/api/customers' })).json() as CustomerDto[];
    const noAddress = list.find((c) => c.name === 'NO ADDRESS')!;
    expect(noAddress.email).toBeNull();
    const refused = await office.request({
      method: 'POST',
      url: `/api/customers/${noAddress.id}/portal-link`,
    });
    expect(refused.statusCode).toBe(409);
  });

  it('never takes an empty placeholder for a customer: not listed, not added, not renamed to, no portal', async () => {
    await storedFor('EMPTY LIFTVAN', 'Placeholder Depot', 'liftvan');
    const list = (await office.request({ method: 'GET', url: '/api/customers' })).json() as CustomerDto[];
    expect(list.map((c) => c.name).filter((n) => n.includes('EMPTY'))).toEqual([]);
    const placeholder = await ctx.database.db
      .selectFrom('customers')
      .select('id')
      .where('company_id', '=', office.companyId)
      .where('name', '=', 'EMPTY LIFTVAN')
      .executeTakeFirstOrThrow();

    const added = await office.request({
      method: 'POST',
      url: '/api/customers',
      payload: { name: 'Empty Liftvan', email: 'empty@example.test' },
    });
    expect(added.statusCode).toBe(400);
    expect(added.json().errors).toEqual([
      "name: A name with EMPTY in it marks an empty placeholder, not a customer: choose the customer's own name.",
    ]);
    const real = await addCustomer(office, 'REAL ONE', 'real@example.test');
    const renamed = await office.request({
      method: 'PATCH',
      url: `/api/customers/${real.id}`,
      payload: { name: 'EMPTY VAULT' },
    });
    expect(renamed.statusCode).toBe(400);
    for (const [method, url, payload] of [
      ['PATCH', `/api/customers/${placeholder.id}`, { email: 'empty@example.test' }],
      ['POST', `/api/customers/${placeholder.id}/portal-link`, undefined],
    ] as const) {
      const res = await office.request({ method, url, payload });
      expect(res.statusCode, url).toBe(404);
    }
    expect(
      await ctx.database.db
        .selectFrom('portal_links')
        .select('id')
        .where('customer_id', '=', placeholder.id)
        .execute(),
    ).toEqual([]);
  });
});
