import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount, buildRack, buildStagedVault, buildVault, buildWarehouse } from '../factories';
import { DEMO_LOGIN, seedDemoIfEmpty } from '../demo-seed';
import { HttpError } from '../http/errors';
import { snapshotDatabase } from '../test/database-snapshot.repo';
import { findInvariantViolations } from '../test/invariants.repo';
import { type TestContext, startTestApp, testEngines } from '../test/test-app';
import { useTestApp } from '../test/use-test-app';
import { MAX_LISTED_PROBLEMS } from './check-company-file';
import { type CompanyExport, exportCompany, importCompany } from './company-transfer';

/** The lines a refused import lists (heading first). */
async function refusal(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!error) throw new Error('the import was expected to be refused, and it was not');
  if (!(error instanceof HttpError)) throw error;
  return error.messages;
}

describe('company export and import', () => {
  const contexts: TestContext[] = [];
  const open = async (engine: 'sqlite' | 'postgres') => {
    const ctx = await startTestApp(engine);
    contexts.push(ctx);
    return ctx;
  };
  let source: TestContext;

  beforeAll(async () => {
    source = await open('sqlite');
    await seedDemoIfEmpty(source.database.db);
  });
  afterAll(async () => {
    for (const ctx of contexts) await ctx.close();
  });

  it('moves the demo company through every engine and back without changing anything', async () => {
    const original = await exportCompany(source.database.db, DEMO_LOGIN.company);
    expect(original.tables.users).toHaveLength(1);
    expect(JSON.stringify(original)).not.toContain('company_id');

    // SQLite -> (PostgreSQL when available) -> SQLite
    let current = original;
    for (const engine of [...testEngines().filter((e) => e === 'postgres'), 'sqlite' as const]) {
      const target = await open(engine);
      const { rows } = await importCompany(target.database.db, current);
      expect(rows).toBe(Object.values(original.tables).reduce((sum, r) => sum + r.length, 0));
      current = await exportCompany(target.database.db, DEMO_LOGIN.company);
      expect(current).toEqual(original);
      // the kept counts are not in the file: the import recomputes them (migration 0005's triggers)
      const company = await target.database.db
        .selectFrom('companies')
        .select('id')
        .where('name', '=', DEMO_LOGIN.company)
        .executeTakeFirstOrThrow();
      expect(await findInvariantViolations(target.database.db, company.id)).toEqual([]);
      const kept = await target.database.db
        .selectFrom('warehouse_stats')
        .select((eb) => eb.fn.sum<number>('vault_count').as('n'))
        .where('company_id', '=', company.id)
        .executeTakeFirstOrThrow();
      expect(Number(kept.n)).toBe(original.tables.vaults.filter((v) => v.field_id !== null).length);
    }
  });

  it('the imported users can sign in with their old passwords', async () => {
    const data = await exportCompany(source.database.db, DEMO_LOGIN.company);
    const target = await open('sqlite');
    await importCompany(target.database.db, data);
    const res = await target.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: DEMO_LOGIN.email, password: DEMO_LOGIN.password },
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a second import of the same company and changes nothing', async () => {
    const data = await exportCompany(source.database.db, DEMO_LOGIN.company);
    await expect(importCompany(source.database.db, data)).rejects.toThrow(/already exists/);
    const again = await exportCompany(source.database.db, DEMO_LOGIN.company);
    expect(again).toEqual(data);
  });

  it('refuses a file that is not an export', async () => {
    const target = await open('sqlite');
    await expect(importCompany(target.database.db, { hello: 'world' })).rejects.toThrow(
      /not a Warehouse Manager company export/,
    );
  });
});

describe.each(testEngines())('checking an import file on %s', (engine) => {
  const { ctx } = useTestApp(engine, { users: 0 });
  let victim: Awaited<ReturnType<typeof buildAccount>>;
  let victimFieldId: number;
  let exported: CompanyExport;
  let exportedName: string;
  beforeAll(async () => {
    victim = await buildAccount(db());
    victimFieldId = (await buildWarehouse(db(), { companyId: victim.companyId })).field('B2').id;
    // a company with a row in every table the attacks and broken files below touch
    const other = await buildAccount(db());
    const wh = await buildWarehouse(db(), { companyId: other.companyId });
    await buildVault(db(), { companyId: other.companyId, fieldId: wh.field('A1').id });
    await buildStagedVault(db(), { companyId: other.companyId });
    await buildRack(db(), { companyId: other.companyId, warehouseId: wh.id });
    exportedName = other.companyName;
    exported = await exportCompany(db(), other.companyName);
  });
  const db = () => ctx.database.db;

  /** The export as a new company (new name and emails), so that only the planted change can make it fail. */
  const copy = (): CompanyExport => {
    const data = structuredClone(exported);
    data.company.name = `${exportedName} copy ${Math.random().toString(36).slice(2)}`;
    for (const user of data.tables.users)
      user.email = `copy-${Math.random().toString(36).slice(2)}-${String(user.email)}`;
    return data;
  };
  const counts = async () => (await snapshotDatabase(db(), victim.companyName)).counts;

  it('takes an unchanged copy (the files below fail only for what they plant)', async () => {
    const data = copy();
    await importCompany(db(), data);
    expect(await exportCompany(db(), data.company.name)).toEqual(data);
  });

  it('takes a file from before checklist link keys and gives its checklists new keys', async () => {
    const data = copy();
    data.tables.checklists = [
      {
        id: 1,
        warehouse_id: data.tables.warehouses[0]!.id,
        description: 'From an older export',
        is_active: 1,
        filled_out_by: null,
        version: 1,
        created_at: '2026-11-23T10:00:00.000Z',
      },
    ];
    await importCompany(db(), data);
    const [imported] = (await exportCompany(db(), data.company.name)).tables.checklists;
    expect(imported!.description).toBe('From an older export');
    expect(imported!.link_key).toMatch(/^[A-Za-z0-9_-]{24,}$/);
  });

  it('refuses a user row with an upper-case COMPANY_ID naming another company, and plants nobody', async () => {
    const before = await counts();
    const data = copy();
    const user = data.tables.users[0]!;
    data.tables.users[0] = { COMPANY_ID: victim.companyId, ...user };
    const lines = await refusal(importCompany(db(), data));
    expect(lines[0]).toMatch(/refused and nothing was written \(1 problem\)/);
    expect(lines[1]).toMatch(
      /^1\. users row 1 \(id 1\): unknown key "COMPANY_ID" \(a users row holds only id, email, /,
    );
    expect(await counts()).toEqual(before);
    const planted = await db()
      .selectFrom('users')
      .select('id')
      .where('email', '=', String(user.email))
      .execute();
    expect(planted).toEqual([]);
    const victims = await db()
      .selectFrom('users')
      .select('id')
      .where('company_id', '=', victim.companyId)
      .execute();
    expect(victims).toHaveLength(1);
  });

  it("refuses a vault row with an upper-case FIELD_ID naming another company's field, or a lower-case company_id", async () => {
    const before = await counts();
    const data = copy();
    data.tables.vaults[0] = { FIELD_ID: victimFieldId, ...data.tables.vaults[0]! };
    data.tables.fields[0] = { company_id: victim.companyId, ...data.tables.fields[0]! };
    const lines = await refusal(importCompany(db(), data));
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^1\. fields row 1 \(id 1\): unknown key "company_id"/),
      expect.stringMatching(/^2\. vaults row 1 \(id 1\): unknown key "FIELD_ID"/),
    ]);
    expect(await counts()).toEqual(before);
    const inVictimField = await db()
      .selectFrom('vaults')
      .select('id')
      .where('field_id', '=', victimFieldId)
      .execute();
    expect(inVictimField).toEqual([]);
  });

  it('refuses a broken file with the list of its problems and writes nothing', async () => {
    const before = await counts();
    const data = copy();
    const [placed, staged] = data.tables.vaults;
    placed!.customer_id = 999; // dangling reference
    delete placed!.type; // missing required value
    staged!.note = 42; // wrong type
    staged!.type = 'crate'; // a text the app never writes there
    staged!.colour = 'red'; // unknown key
    data.tables.racks.push({ ...data.tables.racks[0]! }); // duplicate id
    data.tables.customers.push({ id: 77, name: null }); // required value null
    const lines = await refusal(importCompany(db(), data));
    expect(lines).toEqual([
      'The file was refused and nothing was written (7 problems):',
      '1. customers row 3 (id 77): name is required, found null',
      '2. vaults row 1 (id 1): type is missing',
      expect.stringMatching(
        /^3\. vaults row 2 \(id 2\): unknown key "colour" \(a vaults row holds only id, name, /,
      ),
      '4. vaults row 2 (id 2): type must be one of vault, liftvan, t2, couchbox, found "crate"',
      '5. vaults row 2 (id 2): note must be text, found 42',
      '6. racks row 2 (id 1): the id 1 appears twice in racks',
      '7. vaults row 1 (id 1): customer_id 999 matches no customers row of the file',
    ]);
    expect(await counts()).toEqual(before);
  });

  it('refuses a vault with a field but no position before writing, and rolls back what only the database sees', async () => {
    const before = await counts();
    const data = copy();
    data.tables.vaults[0]!.position = null;
    expect(await refusal(importCompany(db(), data))).toEqual([
      'The file was refused and nothing was written (1 problem):',
      '1. vaults row 1 (id 1): a vault on a field needs a position of 1 or more, a staged vault (field_id null) has none',
    ]);
    // two active checklists for one warehouse: only the database's partial unique index knows
    const twice = copy();
    const checklist = {
      id: 1,
      warehouse_id: 1,
      description: 'Open',
      is_active: 1,
      filled_out_by: null,
      version: 1,
      created_at: '2026-11-23T10:00:00.000Z',
    };
    twice.tables.checklists = [checklist, { ...checklist, id: 2 }];
    const lines = await refusal(importCompany(db(), twice));
    expect(lines).toEqual([
      expect.stringMatching(/^The database refused the file and nothing was written: /),
    ]);
    expect(await counts()).toEqual(before);
  });

  it('refuses hostile shapes with a list, never a crash', async () => {
    const before = await counts();
    const cases: [string, (data: Record<string, unknown>, json: string) => unknown, RegExp][] = [
      [
        'an entity_type that is a key of every object',
        (data) => {
          const tables = data.tables as CompanyExport['tables'];
          tables.events.push({ ...tables.events[0]!, id: 999, entity_type: 'constructor', entity_id: 1 });
          return data;
        },
        /^1\. events row \d+ \(id 999\): entity_id must be null for entity_type "constructor"$/,
      ],
      [
        '__proto__ keys',
        (_, json) =>
          JSON.parse(
            json
              .replace('"tables":{', '"tables":{"__proto__":[],')
              .replace('"email":', '"__proto__":{"company_id":1},"email":'),
          ),
        /^1\. tables: unknown table "__proto__"$/,
      ],
      ['tables as a list', (data) => ({ ...data, tables: [] }), /^1\. tables: missing$/],
      [
        'rows that are not objects',
        (data) => ({ ...data, tables: { ...(data.tables as object), users: [1, 'x', null] } }),
        /^1\. users row 1: must be an object, found 1$/,
      ],
      [
        'ids as text and too large',
        (data) => {
          const tables = data.tables as CompanyExport['tables'];
          tables.warehouses[0]!.id = '1';
          tables.vaults[0]!.id = 2 ** 60;
          return data;
        },
        /^1\. warehouses row 1: id must be a positive whole number, found "1"$/,
      ],
      ['no company', (data) => ({ ...data, company: null }), /^1\. company: missing/],
    ];
    for (const [what, change, first] of cases) {
      const data = copy();
      const lines = await refusal(
        importCompany(db(), change(data as unknown as Record<string, unknown>, JSON.stringify(data))),
      );
      expect(lines[0], what).toMatch(/^The file was refused and nothing was written \(\d+ problems?\):$/);
      expect(lines[1], what).toMatch(first);
    }
    expect(await counts()).toEqual(before);
  });

  it(`lists at most ${MAX_LISTED_PROBLEMS} problems and counts the rest`, async () => {
    const data = copy();
    data.tables.orders = Array.from({ length: 60 }, (_, i) => ({ id: i + 1, name: i + 1 }));
    const lines = await refusal(importCompany(db(), data));
    expect(lines[0]).toBe('The file was refused and nothing was written (60 problems):');
    expect(lines).toHaveLength(1 + MAX_LISTED_PROBLEMS + 1);
    expect(lines[MAX_LISTED_PROBLEMS]).toBe(
      `${MAX_LISTED_PROBLEMS}. orders row 50 (id 50): name must be text, found 50`,
    );
    expect(lines.at(-1)).toBe('and 10 more');
  });
});
