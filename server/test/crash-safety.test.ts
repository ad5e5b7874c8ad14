// Not useTestApp: the server runs as separate processes that are killed and restarted on one database.
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { findInvariantViolations } from './invariants.repo';
import { openDatabase } from '../db/database';
import { buildAccount } from '../factories';
import { migrateToLatest } from '../db/migrate';
import { type RunningServer, signInCookie, startServer } from './server-process';
import { scratchDatabase } from './scratch-database';
import { testEngines } from './test-app';

describe.each(testEngines())('crash safety on %s', (engine) => {
  const servers: RunningServer[] = [];
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const s of servers) if (s.process.exitCode === null) await s.stop();
    for (const drop of drops) await drop();
  });

  it('keeps every acknowledged write across a SIGKILL, and the database stays consistent', async () => {
    const scratch = await scratchDatabase(engine, 'crash');
    drops.push(scratch.drop);
    const { url } = scratch;
    const setup = openDatabase(scratch.target);
    await migrateToLatest(setup.db);
    const account = await buildAccount(setup.db);
    await setup.close();

    const first = await startServer(url);
    servers.push(first);
    const cookie = await signInCookie(first.baseUrl, account.email, account.password);
    const created = await fetch(`${first.baseUrl}/api/warehouse/add-warehouse`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Crash Test',
        rows: 10,
        cols: 10,
        field_capacity: 3,
        length: 100,
        width: 100,
      }),
    });
    expect(created.status).toBe(201);
    const warehouse = (await created.json()) as { id: number; fields: Record<string, { id: number }> };
    const fieldIds = Object.values(warehouse.fields).map((f) => f.id);

    // eight writers, each filling its own fields slot by slot, until the server dies under them
    const acknowledged: string[] = [];
    let killed = false;
    const writer = async (lane: number) => {
      for (let i = lane; i < fieldIds.length && !killed; i += 8) {
        for (let position = 3; position >= 1 && !killed; position--) {
          const name = `C-${fieldIds[i]}-${position}`;
          try {
            const res = await fetch(`${first.baseUrl}/api/vaults/`, {
              method: 'POST',
              headers: { cookie, 'content-type': 'application/json' },
              body: JSON.stringify({
                vault_id: name,
                customer_name: 'CRASH',
                order_name: 'C1',
                field_id: fieldIds[i],
                position,
              }),
            });
            if (res.status === 201) acknowledged.push(name);
            else if (!killed) throw new Error(`add answered ${res.status}: ${await res.text()}`);
          } catch (error) {
            if (!killed) throw error;
          }
        }
      }
    };
    let failure: unknown;
    const writers = Array.from({ length: 8 }, (_, lane) =>
      writer(lane).catch((error: unknown) => (failure = error)),
    );
    while (acknowledged.length < 120 && failure === undefined) await new Promise((r) => setTimeout(r, 10));
    if (failure) throw failure;
    killed = true;
    first.process.kill('SIGKILL');
    await Promise.all(writers);
    await first.stop();

    const second = await startServer(url);
    servers.push(second);
    const cookie2 = await signInCookie(second.baseUrl, account.email, account.password);
    const after = (await (
      await fetch(`${second.baseUrl}/api/warehouse/${warehouse.id}`, { headers: { cookie: cookie2 } })
    ).json()) as {
      fields: Record<string, { vaults: Record<string, { name: string }> }>;
    };
    const present = new Set(
      Object.values(after.fields).flatMap((f) => Object.values(f.vaults).map((v) => v.name)),
    );
    const lost = acknowledged.filter((name) => !present.has(name));
    expect(acknowledged.length).toBeGreaterThanOrEqual(120);
    expect(lost).toEqual([]);
    console.info(
      `crash safety (${engine}): ${acknowledged.length} acknowledged writes before SIGKILL, all present after restart`,
    );
    await second.stop();

    const check = openDatabase(scratch.target);
    if (check.sqlite) {
      expect(check.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(check.sqlite.pragma('foreign_key_check')).toEqual([]);
    }
    const duplicates = await sql<{
      n: number;
    }>`select count(*) as n from (select field_id, position from vaults where field_id is not null group by field_id, position having count(*) > 1) d`.execute(
      check.db,
    );
    expect(Number(duplicates.rows[0]!.n)).toBe(0);
    // the counts kept by triggers (migration 0005) commit with the writes or not at all
    const counts = (await findInvariantViolations(check.db, account.companyId)).filter((p) =>
      p.includes('keeps counts'),
    );
    expect(counts).toEqual([]);
    await check.close();
  }, 60_000);
});
