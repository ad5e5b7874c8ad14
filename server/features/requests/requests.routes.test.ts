import { describe, expect, it } from 'vitest';
import type { CustomerDto, PortalLinkDto } from '@domain/schemas/customer.schema';
import type { PullListDto } from '@domain/schemas/pull-list.schema';
import type {
  LoadOutDto,
  LoadScanAnswer,
  PortalRequestDto,
  RequestDto,
} from '@domain/schemas/request.schema';
import { buildAccount, buildVault, buildWarehouse } from '../../factories';
import { type SignedIn, signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { exportCompany, importCompany } from '../../transfer/company-transfer';
import {
  NOT_YOUR_UNITS,
  OVERRIDE_NEEDS_MANAGER,
  SCHEDULE_IN_PAST,
  WISHED_IN_PAST,
  missingUnits,
} from './requests.service';

describe.each(testEngines())('customer requests and the load-out check on %s', (engine) => {
  // mail on (an SMTP address nobody listens on, the worker's timer off): request mails wait in the outbox
  const {
    ctx,
    user: manager,
    other,
  } = useTestApp(engine, {
    env: { SMTP_URL: 'smtp://127.0.0.1:9', MAIL_POLL_SECONDS: '0' },
  });
  let floor: SignedIn;
  let office: SignedIn;
  let counter = 0;

  /** A customer with an address and three units in three fields (each on top), signed in to the portal. */
  const storedCustomer = async () => {
    counter += 1;
    const db = ctx.database.db;
    floor ??= await signIn(ctx, await buildAccount(db, { company: manager.companyName, role: 'floor' }));
    office ??= await signIn(ctx, await buildAccount(db, { company: manager.companyName, role: 'office' }));
    const warehouse = await buildWarehouse(db, {
      companyId: manager.companyId,
      name: `Request Depot ${counter}`,
      rows: 2,
      cols: 2,
    });
    const name = `REQUEST CUSTOMER ${counter}`;
    const units = [];
    for (const [i, field] of (['A1', 'A2', 'B1'] as const).entries())
      units.push(
        await buildVault(db, {
          companyId: manager.companyId,
          fieldId: warehouse.field(field).id,
          customerName: name,
          orderName: `RQ-${counter}`,
          name: `RQ${counter}-${i + 1}`,
        }),
      );
    const added = await office.request({
      method: 'POST',
      url: '/api/customers',
      payload: { name, email: `customer-${counter}@example.test` },
    });
    expect(added.statusCode).toBe(201);
    const customer = added.json() as CustomerDto;
    const link = await office.request({ method: 'POST', url: `/api/customers/${customer.id}/portal-link` });
    const token = (link.json() as PortalLinkDto).url.split('#')[1];
    const signedIn = await ctx.app.inject({ method: 'POST', url: '/api/portal/sign-in', payload: { token } });
    expect(signedIn.statusCode).toBe(200);
    const cookie = `wm_portal=${signedIn.cookies.find((c) => c.name === 'wm_portal')!.value}`;
    const portal = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
      ctx.app.inject({ method, url, payload: payload as object, headers: { cookie } });
    return { customer, units, portal, email: `customer-${counter}@example.test` };
  };
  const delivery = (vaultIds: number[]) => ({
    kind: 'delivery',
    vault_ids: vaultIds,
    wished_date: '2030-06-01',
    address: '12 Harbour Road',
    notes: 'Ring twice',
  });
  const requestMails = async (email: string) =>
    (
      await ctx.database.db
        .selectFrom('mail_outbox')
        .select(['subject', 'body'])
        .where('recipient', '=', email)
        .where('kind', '=', 'request')
        .orderBy('id')
        .execute()
    ).map((m) => m.subject);
  const schedule = (signedIn: SignedIn, id: number) =>
    signedIn.request({
      method: 'POST',
      url: `/api/requests/${id}/schedule`,
      payload: { date: '2030-06-02', crew: 'Ana and Ben', truck: 'T-7' },
    });
  const scan = (signedIn: SignedIn, id: number, text: string) =>
    signedIn.request({ method: 'POST', url: `/api/requests/${id}/load-scans`, payload: { text } });

  it('takes a portal request of own units only, and the office schedules it with a pull list of exactly them', async () => {
    const { units, portal, email } = await storedCustomer();
    const created = await portal('POST', '/api/portal/requests', delivery([units[0]!.id, units[1]!.id]));
    expect(created.statusCode, created.body).toBe(201);
    const request = created.json() as PortalRequestDto;
    expect(request).toMatchObject({ kind: 'delivery', state: 'requested', address: '12 Harbour Road' });
    // a day already gone can be neither wished for nor scheduled
    const past = await portal('POST', '/api/portal/requests', {
      ...delivery([units[2]!.id]),
      wished_date: '2020-01-01',
    });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toEqual({ errors: [WISHED_IN_PAST] });
    const scheduledPast = await office.request({
      method: 'POST',
      url: `/api/requests/${request.id}/schedule`,
      payload: { date: '2020-01-01', crew: 'Ana and Ben', truck: 'T-7' },
    });
    expect(scheduledPast.statusCode).toBe(400);
    expect(scheduledPast.json()).toEqual({ errors: [SCHEDULE_IN_PAST] });
    expect(request.units.map((u) => u.number).sort()).toEqual([units[0]!.name, units[1]!.name].sort());

    // a unit of another customer, or of another company, is refused and nothing is written
    const stranger = await storedCustomer();
    const otherWarehouse = await buildWarehouse(ctx.database.db, {
      companyId: other.companyId,
      name: 'Elsewhere',
      rows: 1,
      cols: 1,
    });
    const otherCompanyUnit = await buildVault(ctx.database.db, {
      companyId: other.companyId,
      fieldId: otherWarehouse.field('A1').id,
      customerName: 'SOMEONE ELSE',
    });
    for (const id of [stranger.units[0]!.id, otherCompanyUnit.id]) {
      const refused = await portal('POST', '/api/portal/requests', delivery([units[2]!.id, id]));
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ errors: [NOT_YOUR_UNITS] });
    }
    // a unit already on an open request
    const twice = await portal('POST', '/api/portal/requests', delivery([units[0]!.id]));
    expect(twice.statusCode).toBe(409);
    expect((await portal('GET', '/api/portal/requests')).json()).toHaveLength(1);

    // no address for a delivery: 400
    const noAddress = await portal('POST', '/api/portal/requests', {
      ...delivery([units[2]!.id]),
      address: '',
    });
    expect(noAddress.statusCode).toBe(400);

    // Floor may not schedule; the office does, and the pull list holds exactly the two units
    expect((await schedule(floor, request.id)).statusCode).toBe(403);
    const scheduled = await schedule(office, request.id);
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    const dto = scheduled.json() as RequestDto;
    expect(dto).toMatchObject({
      state: 'scheduled',
      crew: 'Ana and Ben',
      truck: 'T-7',
      scheduled_date: '2030-06-02',
    });
    const list = (
      await manager.request({ method: 'GET', url: `/api/pull-lists/${dto.pull_list_id}` })
    ).json() as PullListDto;
    expect(list.vaults.map((v) => v.id).sort()).toEqual([units[0]!.id, units[1]!.id].sort());
    expect(list.request_id).toBe(request.id);
    // the request's list leaves with the load-out check, and goes with the request: not released or cancelled alone
    for (const [method, url] of [
      ['POST', `/api/pull-lists/${dto.pull_list_id}/release`],
      ['DELETE', `/api/pull-lists/${dto.pull_list_id}`],
    ] as const) {
      const refused = await manager.request({ method, url });
      expect(refused.statusCode, url).toBe(409);
      expect(refused.json().errors[0]).toContain(`request #${request.id}`);
    }

    // invalid transitions: scheduled twice, cancelled by the customer once scheduled, delivered before loaded
    const again = await schedule(office, request.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ errors: ['This request is Scheduled: it cannot be scheduled.'] });
    const late = await portal('POST', `/api/portal/requests/${request.id}/cancel`);
    expect(late.statusCode).toBe(409);
    expect(
      (await office.request({ method: 'POST', url: `/api/requests/${request.id}/delivered` })).statusCode,
    ).toBe(409);
    // a customer reads the step with its date; another company reads nothing of it
    const mine = (await portal('GET', '/api/portal/requests')).json() as PortalRequestDto[];
    expect(mine[0]!.steps.map((s) => s.state)).toEqual(['requested', 'scheduled']);
    expect((await other.request({ method: 'GET', url: `/api/requests/${request.id}` })).statusCode).toBe(404);
    expect((await schedule(other, request.id)).statusCode).toBe(404);
    expect((await stranger.portal('POST', `/api/portal/requests/${request.id}/cancel`)).statusCode).toBe(404);

    expect(await requestMails(email)).toEqual([
      expect.stringMatching(/delivery request #\d+ .*: Requested$/),
      expect.stringMatching(/: Scheduled$/),
    ]);
    // the mail says the day the way the company writes one (en-US)
    const scheduledMail = await ctx.database.db
      .selectFrom('mail_outbox')
      .select('body')
      .where('recipient', '=', email)
      .where('subject', 'like', '%: Scheduled')
      .executeTakeFirstOrThrow();
    expect(scheduledMail.body).toContain('It is scheduled for Jun 2, 2030 (truck T-7).');
    const events = await ctx.database.db
      .selectFrom('events')
      .select(['kind', 'actor'])
      .where('entity_type', '=', 'request')
      .where('entity_id', '=', request.id)
      .orderBy('id')
      .execute();
    expect(events).toEqual([
      { kind: 'request.requested', actor: expect.stringMatching(/\(customer\)$/) },
      { kind: 'request.scheduled', actor: expect.not.stringMatching(/\(customer\)$/) },
    ]);
  });

  it('loads only the requested units, completes only when complete, releases them and is delivered', async () => {
    const { units, portal, email } = await storedCustomer();
    const created = (
      await portal('POST', '/api/portal/requests', delivery([units[0]!.id, units[1]!.id]))
    ).json() as PortalRequestDto;
    const request = (await schedule(office, created.id)).json() as RequestDto;
    const label = (i: number) => units[i]!.name!;

    // still in its field: pull it first
    const inField = await scan(floor, request.id, label(0));
    expect(inField.statusCode).toBe(409);
    expect(inField.json().errors[0]).toMatch(/still in .*Pull it on the pull list first/);
    // the crew pulls both: the first step moves the request to Pulling
    for (const i of [0, 1]) {
      const step = await floor.request({
        method: 'POST',
        url: `/api/pull-lists/${request.pull_list_id}/steps`,
        payload: { vault_id: units[i]!.id, action: 'pulled' },
      });
      expect(step.statusCode, step.body).toBe(200);
    }
    expect(
      ((await office.request({ method: 'GET', url: `/api/requests/${request.id}` })).json() as RequestDto)
        .state,
    ).toBe('pulling');

    // the third unit is the customer's, but not on the request: refused, nothing loaded
    const wrong = await scan(floor, request.id, label(2));
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json()).toEqual({ errors: [`${label(2)} is not on this request. Leave it off the truck.`] });
    // the Office role does no floor work
    expect((await scan(office, request.id, label(0))).statusCode).toBe(403);

    const first = await scan(floor, request.id, label(0));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ result: 'loaded', load_out: { requested: 2 } });
    const repeat = (await scan(floor, request.id, label(0))).json() as LoadScanAnswer;
    expect(repeat.result).toBe('again');
    expect(repeat.load_out.loaded.map((u) => u.number)).toEqual([label(0)]);
    expect(repeat.load_out.missing.map((u) => u.number)).toEqual([label(1)]);

    // not complete: refused; Floor cannot override; the load is not marked
    const early = await floor.request({ method: 'POST', url: `/api/requests/${request.id}/load` });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ errors: [missingUnits(1)] });
    const floorOverride = await floor.request({
      method: 'POST',
      url: `/api/requests/${request.id}/load`,
      payload: { override_reason: 'In a hurry' },
    });
    expect(floorOverride.statusCode).toBe(403);
    expect(floorOverride.json()).toEqual({ errors: [OVERRIDE_NEEDS_MANAGER] });

    await scan(floor, request.id, label(1));
    const loaded = await floor.request({ method: 'POST', url: `/api/requests/${request.id}/load` });
    expect(loaded.statusCode, loaded.body).toBe(200);
    expect((loaded.json() as RequestDto).state).toBe('loaded');
    const vaults = await ctx.database.db
      .selectFrom('vaults')
      .select(['id', 'released_at', 'released_by'])
      .where(
        'id',
        'in',
        units.map((u) => u.id),
      )
      .orderBy('id')
      .execute();
    expect(vaults.map((v) => v.released_at !== null)).toEqual([true, true, false]);
    const list = (
      await manager.request({ method: 'GET', url: `/api/pull-lists/${request.pull_list_id}` })
    ).json() as PullListDto;
    expect(list.released_at).not.toBeNull();
    // the unit's history says who loaded and released it
    const history = await ctx.database.db
      .selectFrom('events')
      .select('kind')
      .where('entity_type', '=', 'vault')
      .where('entity_id', '=', units[0]!.id)
      .orderBy('id')
      .execute();
    expect(history.map((e) => e.kind)).toEqual(expect.arrayContaining(['vault.loaded', 'vault.released']));
    // once loaded, nothing more is scanned
    expect((await scan(floor, request.id, label(1))).statusCode).toBe(409);

    const delivered = await office.request({ method: 'POST', url: `/api/requests/${request.id}/delivered` });
    expect(delivered.statusCode).toBe(200);
    const seen = (await portal('GET', '/api/portal/requests')).json() as PortalRequestDto[];
    expect(seen[0]!.state).toBe('delivered');
    expect(seen[0]!.steps.map((s) => s.state)).toEqual([
      'requested',
      'scheduled',
      'pulling',
      'loaded',
      'delivered',
    ]);
    expect((await requestMails(email)).map((s) => s.split(': ').pop())).toEqual([
      'Requested',
      'Scheduled',
      'Pulling',
      'Loaded',
      'Delivered',
    ]);
  });

  it('lets a Manager mark a short load loaded with a reason, kept on the request; the customer cancels while Requested', async () => {
    const { units, portal } = await storedCustomer();
    const created = (
      await portal('POST', '/api/portal/requests', delivery([units[0]!.id, units[1]!.id]))
    ).json() as PortalRequestDto;
    const request = (await schedule(office, created.id)).json() as RequestDto;
    await floor.request({
      method: 'POST',
      url: `/api/pull-lists/${request.pull_list_id}/steps`,
      payload: { vault_id: units[0]!.id, action: 'pulled' },
    });
    expect((await scan(floor, request.id, units[0]!.name!)).statusCode).toBe(200);
    const short = await manager.request({
      method: 'POST',
      url: `/api/requests/${request.id}/load`,
      payload: { override_reason: 'Second unit goes next week' },
    });
    expect(short.statusCode, short.body).toBe(200);
    expect(short.json()).toMatchObject({ state: 'loaded', override_reason: 'Second unit goes next week' });
    const released = await ctx.database.db
      .selectFrom('vaults')
      .select('released_at')
      .where('id', 'in', [units[0]!.id, units[1]!.id])
      .orderBy('id')
      .execute();
    expect(released.map((v) => v.released_at !== null)).toEqual([true, false]);

    // a new request of the third unit, cancelled by the customer while Requested, and not twice
    const access = await portal('POST', '/api/portal/requests', {
      kind: 'access',
      vault_ids: [units[2]!.id],
      wished_date: '2030-07-01',
    });
    expect(access.statusCode, access.body).toBe(201);
    const id = (access.json() as PortalRequestDto).id;
    const cancelled = await portal('POST', `/api/portal/requests/${id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect((cancelled.json() as PortalRequestDto).state).toBe('cancelled');
    const twice = await portal('POST', `/api/portal/requests/${id}/cancel`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ errors: ['This request is Cancelled: it cannot be cancelled.'] });
  });

  it('lets the office enter a request for a phoning customer and cancel it after scheduling: its pull list goes', async () => {
    const { customer, units } = await storedCustomer();
    const listed = await office.request({ method: 'GET', url: `/api/customers/${customer.id}/units` });
    expect((listed.json() as { id: number }[]).map((u) => u.id)).toEqual(units.map((u) => u.id));
    const created = await office.request({
      method: 'POST',
      url: '/api/requests',
      payload: { customer_id: customer.id, ...delivery([units[2]!.id]), kind: 'pickup' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const request = created.json() as RequestDto;
    expect(request.steps[0]!.by).not.toContain('(customer)');
    const scheduled = (await schedule(office, request.id)).json() as RequestDto;
    const cancelled = await office.request({ method: 'POST', url: `/api/requests/${request.id}/cancel` });
    expect(cancelled.statusCode).toBe(200);
    expect((cancelled.json() as RequestDto).state).toBe('cancelled');
    expect(
      (await manager.request({ method: 'GET', url: `/api/pull-lists/${scheduled.pull_list_id}` })).statusCode,
    ).toBe(404);
    const byState = await office.request({ method: 'GET', url: '/api/requests?state=cancelled' });
    expect((byState.json() as { id: number }[]).map((r) => r.id)).toContain(request.id);
    const loadOut = (
      await floor.request({ method: 'GET', url: `/api/requests/${request.id}/load-out` })
    ).json() as LoadOutDto;
    expect(loadOut.requested).toBe(1);
  });

  it('carries the requests, their units and steps in the company file', async () => {
    const data = await exportCompany(ctx.database.db, manager.companyName);
    const requests = data.tables.customer_requests;
    expect(requests.length).toBeGreaterThanOrEqual(4);
    expect(new Set(requests.map((r) => r.state))).toEqual(
      new Set(['scheduled', 'delivered', 'loaded', 'cancelled']),
    );
    // into the same database as another company (its own name and members' addresses)
    const copy = structuredClone(data);
    copy.company.name = `${data.company.name} copy`;
    for (const row of copy.tables.users) row.email = `copy-${String(row.email)}`;
    const { companyId } = await importCompany(ctx.database.db, copy);
    const moved = await ctx.database.db
      .selectFrom('customer_requests as r')
      .innerJoin('customers as c', 'c.id', 'r.customer_id')
      .select(['r.state', 'r.kind', 'r.override_reason', 'c.name', 'r.loaded_by', 'r.pull_list_id'])
      .where('r.company_id', '=', companyId)
      .orderBy('r.id')
      .execute();
    const original = await ctx.database.db
      .selectFrom('customer_requests as r')
      .innerJoin('customers as c', 'c.id', 'r.customer_id')
      .select(['r.state', 'r.kind', 'r.override_reason', 'c.name', 'r.loaded_by', 'r.pull_list_id'])
      .where('r.company_id', '=', manager.companyId)
      .orderBy('r.id')
      .execute();
    expect(moved.map(({ pull_list_id, ...rest }) => ({ ...rest, list: pull_list_id !== null }))).toEqual(
      original.map(({ pull_list_id, ...rest }) => ({ ...rest, list: pull_list_id !== null })),
    );
    const units = await ctx.database.db
      .selectFrom('customer_request_units')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('company_id', '=', companyId)
      .where('loaded_at', 'is not', null)
      .executeTakeFirstOrThrow();
    expect(Number(units.n)).toBe(data.tables.customer_request_units.filter((u) => u.loaded_at).length);
  });
});
