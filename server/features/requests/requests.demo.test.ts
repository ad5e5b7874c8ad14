import { describe, expect, it } from 'vitest';
import { dayOf, isoOf } from '@domain/billing/days';
import type { CustomerDto } from '@domain/schemas/customer.schema';
import type { PullListSummaryDto } from '@domain/schemas/pull-list.schema';
import type { LoadOutDto, RequestDto, RequestSummaryDto } from '@domain/schemas/request.schema';
import { testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { today } from '../accounts/accounts.service';
import { seedDemoWarehouses } from '../warehouses/warehouses.demo';
import { seedDemoRequests } from './requests.demo';

describe.each(testEngines())('the demo company requests on %s', (engine) => {
  const { ctx, user } = useTestApp(engine);
  const get = async <T>(url: string): Promise<T> => {
    const res = await user.request({ method: 'GET', url });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json<T>();
  };

  it('has a delivery waiting to be scheduled and one scheduled for tomorrow with its pull list and load-out', async () => {
    const db = ctx.database.db;
    await seedDemoWarehouses(db, user.companyId);
    await seedDemoRequests(db, user.companyId, user.userId);
    const day = dayOf(today());

    const requests = await get<RequestSummaryDto[]>('/api/requests');
    expect(requests.map((r) => [r.customer_name, r.state]).sort()).toEqual([
      ['JOHANSSON', 'requested'],
      ['NGUYEN', 'scheduled'],
    ]);
    const asked = await get<RequestDto>(`/api/requests/${requests.find((r) => r.state === 'requested')!.id}`);
    expect(asked.wished_date).toBe(isoOf(day + 6));
    expect(asked.units.length).toBeGreaterThan(0);

    const scheduled = await get<RequestDto>(
      `/api/requests/${requests.find((r) => r.state === 'scheduled')!.id}`,
    );
    expect(scheduled).toMatchObject({ scheduled_date: isoOf(day + 1), truck: 'Truck 3' });
    expect(scheduled.pull_list_id).not.toBeNull();
    const lists = await get<PullListSummaryDto[]>('/api/pull-lists');
    expect(lists.map((l) => l.id)).toContain(scheduled.pull_list_id);
    const loadOut = await get<LoadOutDto>(`/api/requests/${scheduled.id}/load-out`);
    // nothing on the truck yet: every unit of the request is still to load, in its field
    expect(loadOut).toMatchObject({ requested: scheduled.units.length, loaded: [], crew: 'Marco and Dee' });
    expect(loadOut.missing.map((u) => u.place)).toEqual(scheduled.units.map(() => 'in-field'));
    // both customers have an address: the office can hand each a portal link to follow their request
    const customers = await get<CustomerDto[]>('/api/customers');
    for (const name of ['JOHANSSON', 'NGUYEN']) {
      const customer = customers.find((c) => c.name === name)!;
      expect(customer.email).toMatch(/@example\.com$/);
      const link = await user.request({ method: 'POST', url: `/api/customers/${customer.id}/portal-link` });
      expect(link.statusCode, name).toBe(201);
    }
  });
});
