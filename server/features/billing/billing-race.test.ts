// Not useTestApp: two server processes race on one database, and useTestApp's SQLite database is in its own memory.
import { afterAll, describe, expect, it } from 'vitest';
import type { BillingRunDto, InvoiceDto } from '@domain/schemas/billing.schema';
import { openDatabase } from '../../db/database';
import { migrateToLatest } from '../../db/migrate';
import { buildAccount, buildVault, buildWarehouse } from '../../factories';
import { type RunningServer, signInCookie, startServer } from '../../test/server-process';
import { scratchDatabase } from '../../test/scratch-database';
import { testEngines } from '../../test/test-app';

// Issue 28: a billing run started on two server processes at once (two app servers behind one load balancer)
// issues each account's invoice once, numbered without a gap.

describe.each(testEngines())('billing run raced from two server processes on %s', (engine) => {
  const servers: RunningServer[] = [];
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const s of servers) if (s.process.exitCode === null) await s.stop();
    for (const drop of drops) await drop();
  });

  it('issues each invoice once, with gap-free numbers', async () => {
    const scratch = await scratchDatabase(engine, 'billing');
    drops.push(scratch.drop);
    const { url } = scratch;
    const setup = openDatabase(scratch.target);
    await migrateToLatest(setup.db);
    const account = await buildAccount(setup.db);
    const wh = await buildWarehouse(setup.db, {
      companyId: account.companyId,
      rows: 4,
      cols: 5,
      fieldCapacity: 3,
    });
    const names = ['A1', 'A2', 'A3', 'A4', 'B1', 'B2', 'B3', 'B4', 'C1', 'C2', 'C3', 'C4'];
    for (const [i, field] of names.entries()) {
      for (let k = 0; k < 3; k++)
        await buildVault(setup.db, {
          companyId: account.companyId,
          fieldId: wh.field(field).id,
          customerName: `RACE CUSTOMER ${i}`,
          orderName: `RACE-${i}`,
        });
    }
    await setup.db.updateTable('vaults').set({ created_at: '2026-04-03T09:00:00.000Z' }).execute();
    await setup.close();

    const first = await startServer(url);
    servers.push(first);
    const second = await startServer(url);
    servers.push(second);
    const cookie = await signInCookie(first.baseUrl, account.email, account.password);
    const call = async (base: string, method: string, route: string, body?: unknown) => {
      const res = await fetch(`${base}${route}`, {
        method,
        headers: { cookie, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as unknown };
    };
    const notBilled = (await call(first.baseUrl, 'GET', '/api/storage-accounts/not-billed')).body as {
      order_id: number;
    }[];
    expect(notBilled).toHaveLength(12);
    expect(
      (
        await call(first.baseUrl, 'POST', '/api/storage-accounts/bulk', {
          order_ids: notBilled.map((o) => o.order_id),
        })
      ).status,
    ).toBe(201);
    const rate = { kind: 'storage', unit_type: 'vault', amount: 4_321, effective_from: '2026-01-01' };
    expect((await call(first.baseUrl, 'POST', '/api/billing/rates', rate)).status).toBe(201);

    const runs = await Promise.all(
      [first, second, first, second].map((s) =>
        call(s.baseUrl, 'POST', '/api/billing/runs', { period: '2026-04' }),
      ),
    );
    for (const r of runs) expect(r.status).toBe(201);
    const issued = runs.flatMap((r) => (r.body as BillingRunDto).issued);
    expect(issued).toHaveLength(12);
    expect(issued.map((i) => i.number).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    const invoices = (await call(second.baseUrl, 'GET', '/api/invoices')).body as InvoiceDto[];
    expect(invoices).toHaveLength(12);
    expect(new Set(invoices.map((i) => i.account_id)).size).toBe(12);
    // 28 of April's 30 days for three vaults, each line rounded once: 3 x (43.21 - round(43.21 * 2 / 30))
    for (const invoice of invoices) expect(invoice.total).toBe(3 * (4_321 - Math.round((4_321 * 2) / 30)));
  }, 180_000);
});
