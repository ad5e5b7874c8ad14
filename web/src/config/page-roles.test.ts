import { describe, expect, it } from 'vitest';
import { pageRoleOf } from './page-roles';
import { paths } from './paths';

describe('pageRoleOf', () => {
  it("names the role of a Manager's and of the Office's pages, with or without a trailing slash", () => {
    expect(pageRoleOf(paths.team)?.needed).toBe('manager');
    expect(pageRoleOf(`${paths.import}/`)?.needed).toBe('manager');
    expect(pageRoleOf(paths.receive)?.needed).toBe('floor');
    expect(pageRoleOf(paths.customers)).toEqual({
      needed: 'office',
      title: 'Customers',
      why: 'Only the Office role or a Manager can see customers and send portal links.',
    });
  });

  it('covers every tab of the Billing page', () => {
    expect(pageRoleOf(paths.billing())?.title).toBe('Billing');
    expect(pageRoleOf(paths.billing('aging'))?.needed).toBe('office');
  });

  it("leaves open the pages every member uses, a request's page and the crew's load-out among them", () => {
    for (const open of [
      paths.dashboard,
      paths.stage,
      paths.request(4),
      paths.loadOut(4),
      '/billingsomething',
    ])
      expect(pageRoleOf(open)).toBeUndefined();
  });
});
