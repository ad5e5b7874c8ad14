import { describe, expect, it } from 'vitest';
import type { CustomerDto } from '@domain/schemas/customer.schema';
import { countRows } from '../test/row-count.repo';
import { testEngines } from '../test/test-app';
import { useTestApp } from '../test/use-test-app';
import { insertPortalLink, insertPortalSession } from '../features/portal/portal.repo';
import { sweepAuthTables } from './housekeeping';

describe.each(testEngines())('the housekeeping sweep on %s', (engine) => {
  const { ctx, user } = useTestApp(engine, { users: 1 });

  it("deletes the customer portal's expired sessions and links and keeps the live ones", async () => {
    const db = ctx.database.db;
    const added = await user.request({
      method: 'POST',
      url: '/api/customers',
      payload: { name: 'Sweep Customer', email: 'sweep@example.com' },
    });
    expect(added.statusCode).toBe(201);
    const customer = added.json<CustomerDto>();
    const at = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
    const owner = { companyId: user.companyId, customerId: customer.id };
    await insertPortalSession(db, { ...owner, id: 'sweep-expired', expiresAt: at(-1) });
    await insertPortalSession(db, { ...owner, id: 'sweep-live', expiresAt: at(60) });
    const link = { ...owner, email: 'sweep@example.com', createdBy: 'test' };
    await insertPortalLink(db, { ...link, tokenHash: 'sweep-expired-hash', expiresAt: at(-1) });
    await insertPortalLink(db, { ...link, tokenHash: 'sweep-live-hash', expiresAt: at(60) });

    const removed = await sweepAuthTables(db, 3600_000);

    expect(removed.portalSessions).toBeGreaterThanOrEqual(1);
    expect(removed.portalLinks).toBeGreaterThanOrEqual(1);
    const left = (table: 'portal_sessions' | 'portal_links') => countRows(db, table, user.companyId);
    expect(await left('portal_sessions')).toBe(1);
    expect(await left('portal_links')).toBe(1);
  });
});
