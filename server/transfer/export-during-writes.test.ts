// Not useTestApp: the app needs a database a second connection reads while it writes (a SQLite file, not memory).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nextFreePosition, topmostPosition } from '@domain/rules/capacity';
import { buildApp } from '../app';
import { environmentWith, loadConfig } from '../config';
import { type DatabaseHandle, type Engine, openDatabase } from '../db/database';
import { buildAccount, buildRack, buildWarehouse } from '../factories';
import { migrateToLatest } from '../db/migrate';
import { DEMO_LOGIN, seedDemoIfEmpty } from '../demo-seed';
import { multipartBody } from '../test/multipart-body';
import { type SignedIn, type TestContext, signIn, startTestApp, testEngines } from '../test/test-app';
import { type CompanyExport, exportCompany, importCompany } from './company-transfer';

const FIELD_CAPACITY = 3;
const WRITERS = 4;

/**
 * The real app on a database another connection can read at the same time, as the command line does while the
 * server runs: a SQLite file (an in-memory database has one connection) or a PostgreSQL database. `reader` is that
 * second connection.
 */
async function startSource(engine: Engine): Promise<{ ctx: TestContext; reader: DatabaseHandle }> {
  if (engine === 'postgres') {
    const ctx = await startTestApp('postgres');
    return { ctx, reader: openDatabase({ kind: 'postgres', url: ctx.database.postgresUrl! }) };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wm-export-'));
  const file = path.join(dir, 'source.db');
  const database = openDatabase({ kind: 'sqlite', file });
  await migrateToLatest(database.db);
  const config = loadConfig(environmentWith({ LOGIN_RATE_LIMIT: '1000' }));
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  const reader = openDatabase({ kind: 'sqlite', file });
  const ctx: TestContext = {
    app,
    database,
    engine,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return { ctx, reader };
}

interface Placed {
  id: number;
  position: number;
}

/**
 * One person working through the app on fields and a shelf of their own, so that every write is expected to succeed:
 * vaults added (each with a new customer and an attachment), moved, staged and deleted, pallets added (new customers)
 * and deleted. Deletes remove customers nothing uses any more, which is what left dangling references in old exports.
 */
class Writer {
  private readonly fields = new Map<number, Placed[]>();
  private readonly pallets: number[] = [];
  private serial = 0;

  constructor(
    private readonly user: SignedIn,
    private readonly name: string,
    fieldIds: number[],
    private readonly shelfId: number,
    private readonly uploads: Map<string, Buffer>,
    private readonly acknowledged: () => void,
  ) {
    for (const id of fieldIds) this.fields.set(id, []);
  }

  private async send(what: string, options: Parameters<SignedIn['request']>[0], ok = [200, 201]) {
    const res = await this.user.request(options);
    if (!ok.includes(res.statusCode)) throw new Error(`${this.name} ${what}: ${res.statusCode} ${res.body}`);
    this.acknowledged();
    return res.json() as { id: number };
  }

  private freeField(except?: number) {
    for (const [id, vaults] of this.fields) {
      const position = nextFreePosition(
        vaults.map((v) => v.position),
        FIELD_CAPACITY,
      );
      if (id !== except && position !== null) return { id, position };
    }
    return null;
  }

  private fullestField() {
    return [...this.fields].sort((a, b) => b[1].length - a[1].length)[0]!;
  }

  private takeTopmost(fieldId: number): Placed {
    const vaults = this.fields.get(fieldId)!;
    const top = topmostPosition(vaults.map((v) => v.position));
    const index = vaults.findIndex((v) => v.position === top);
    return vaults.splice(index, 1)[0]!;
  }

  private async addVault() {
    const slot = this.freeField();
    if (!slot) return;
    this.serial += 1;
    const number = `${this.name}-${this.serial}`;
    const content = crypto.randomBytes(64 + (this.serial % 200));
    this.uploads.set(number, content);
    const form = multipartBody(
      {
        vault_id: number,
        customer_name: `customer ${number}`,
        order_name: `O-${number}`,
        field_id: slot.id,
        position: slot.position,
      },
      { attachment: { fileName: `${number}.bin`, contentType: 'application/octet-stream', content } },
    );
    const vault = await this.send('add vault', { method: 'POST', url: '/api/vaults', ...form });
    this.fields.get(slot.id)!.push({ id: vault.id, position: slot.position });
  }

  async cycle() {
    await this.addVault();
    await this.addVault();

    const [fromId, fromVaults] = this.fullestField();
    const to = this.freeField(fromId);
    if (fromVaults.length > 0 && to) {
      const vault = this.takeTopmost(fromId);
      await this.send('move vault', {
        method: 'PUT',
        url: '/api/vaults/move',
        payload: { vaultId: vault.id, fieldId: to.id, position: to.position },
      });
      this.fields.get(to.id)!.push({ id: vault.id, position: to.position });
    }

    const [stageFrom, stageVaults] = this.fullestField();
    if (stageVaults.length > 0) {
      const vault = this.takeTopmost(stageFrom);
      await this.send('stage vault', { method: 'POST', url: `/api/stage/vaults/${vault.id}` });
      await this.send('delete vault', { method: 'DELETE', url: `/api/vaults/${vault.id}` });
    }

    this.serial += 1;
    const pallet = await this.send('add pallet', {
      method: 'POST',
      url: '/api/racks/pallets',
      payload: { shelf_id: this.shelfId, customer_name: `pallet customer ${this.name}-${this.serial}` },
    });
    this.pallets.push(pallet.id);
    if (this.pallets.length > 4) {
      const oldest = this.pallets.shift()!;
      await this.send('delete pallet', { method: 'DELETE', url: `/api/pallets/${oldest}/delete` });
    }
  }
}

/** Writers that keep working until stopped; `waitForWrites(n)` resolves once n more writes were acknowledged. */
async function startWriters(ctx: TestContext, user: SignedIn, uploads: Map<string, Buffer>) {
  const db = ctx.database.db;
  const warehouse = await buildWarehouse(db, {
    companyId: user.companyId,
    rows: 6,
    cols: WRITERS * 2,
    fieldCapacity: FIELD_CAPACITY,
  });
  const rack = await buildRack(db, {
    companyId: user.companyId,
    warehouseId: warehouse.id,
    shelves: WRITERS,
    capacity: 20,
  });
  let acknowledged = 0;
  let waiters: { target: number; resolve: () => void }[] = [];
  const release = (all: boolean) => {
    waiters = waiters.filter((w) => (all || acknowledged >= w.target ? (w.resolve(), false) : true));
  };
  let stopped = false;
  let failure: unknown = null;
  const perWriter = warehouse.fields.length / WRITERS;
  const done = Promise.all(
    Array.from({ length: WRITERS }, async (_, i) => {
      const fieldIds = warehouse.fields.slice(i * perWriter, (i + 1) * perWriter).map((f) => f.id);
      const onWrite = () => {
        acknowledged += 1;
        release(false);
      };
      const writer = new Writer(user, `W${i + 1}`, fieldIds, rack.shelfIds[i]!, uploads, onWrite);
      try {
        while (!stopped) await writer.cycle();
      } catch (error) {
        // a failed write stops everyone and ends the waits; stop() reports it
        failure ??= error;
        stopped = true;
        release(true);
      }
    }),
  );
  return {
    acknowledged: () => acknowledged,
    waitForWrites: (n: number) =>
      stopped
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push({ target: acknowledged + n, resolve })),
    async stop() {
      stopped = true;
      await done;
      if (failure) throw failure;
    },
  };
}

const rowCounts = (data: CompanyExport) =>
  Object.fromEntries(Object.entries(data.tables).map(([table, rows]) => [table, rows.length]));

const pairs: [Engine, Engine][] = testEngines().includes('postgres')
  ? [
      ['sqlite', 'postgres'],
      ['postgres', 'sqlite'],
    ]
  : [['sqlite', 'sqlite']];

describe.each(pairs)('export from %s during writes, import into %s', (sourceEngine, targetEngine) => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('exports one consistent snapshot that the other engine imports and exports again identically', async () => {
    const { ctx, reader } = await startSource(sourceEngine);
    closers.push(
      () => ctx.close(),
      () => reader.close(),
    );
    // the demo company, busy with the writers' work besides
    await seedDemoIfEmpty(ctx.database.db);
    const demo = await ctx.database.db
      .selectFrom('users')
      .select(['id', 'company_id'])
      .where('email', '=', DEMO_LOGIN.email)
      .executeTakeFirstOrThrow();
    const user = await signIn(ctx, {
      ...DEMO_LOGIN,
      companyId: demo.company_id,
      companyName: DEMO_LOGIN.company,
      userId: demo.id,
    });
    const uploads = new Map<string, Buffer>();
    const writers = await startWriters(ctx, user, uploads);

    await writers.waitForWrites(WRITERS * 4);
    const startedAt = writers.acknowledged();
    // between the reads of two tables, writes commit: the export must not see them
    const exported = await exportCompany(reader.db, user.companyName, {
      afterTable: () => writers.waitForWrites(3),
    }).catch(async (error: unknown) => {
      await writers.stop().catch(() => undefined);
      throw error;
    });
    const duringExport = writers.acknowledged() - startedAt;
    await writers.stop();
    const rows = Object.values(exported.tables).reduce((sum, r) => sum + r.length, 0);
    console.info(
      `export from ${sourceEngine}: ${rows} rows (${exported.tables.vaults.length} vaults, ${exported.tables.attachments.length} attachments, ${exported.tables.pallets.length} pallets) while ${duringExport} writes were acknowledged`,
    );
    expect(duringExport).toBeGreaterThanOrEqual(13 * 3);
    expect(exported.tables.attachments.length).toBeGreaterThan(0);

    // the writes after the snapshot are real: a later export differs
    const later = await exportCompany(reader.db, user.companyName);
    expect(later).not.toEqual(exported);

    const target = await startTestApp(targetEngine);
    closers.push(() => target.close());
    const { rows: imported } = await importCompany(target.database.db, exported);
    expect(imported).toBe(rows);
    const again = await exportCompany(target.database.db, user.companyName);
    expect(rowCounts(again)).toEqual(rowCounts(exported));
    expect(JSON.stringify(again)).toBe(JSON.stringify(exported));

    // attachments: the target holds, byte for byte, what the writers uploaded
    const vaultNames = new Map(exported.tables.vaults.map((v) => [v.id, String(v.name)]));
    const stored = await target.database.db
      .selectFrom('attachments')
      .innerJoin('vaults', 'vaults.id', 'attachments.vault_id')
      .select(['vaults.name', 'attachments.content'])
      .orderBy('attachments.id')
      .execute();
    expect(stored).toHaveLength(exported.tables.attachments.length);
    exported.tables.attachments.forEach((attachment, index) => {
      const uploaded = uploads.get(vaultNames.get(attachment.vault_id as number)!);
      expect(uploaded).toBeDefined();
      expect(Buffer.from(String(attachment.content), 'base64').equals(uploaded!)).toBe(true);
      expect(stored[index]!.name).toBe(vaultNames.get(attachment.vault_id as number));
      expect(Buffer.from(stored[index]!.content).equals(uploaded!)).toBe(true);
    });
  });
});

describe.each(testEngines())('an export on %s', (engine) => {
  it('sees none of the writes that commit while it reads', async () => {
    const { ctx, reader } = await startSource(engine);
    try {
      const account = await buildAccount(ctx.database.db);
      const user = await signIn(ctx, account);
      const warehouse = await buildWarehouse(ctx.database.db, { companyId: user.companyId });
      const rack = await buildRack(ctx.database.db, { companyId: user.companyId, warehouseId: warehouse.id });
      const before = await exportCompany(reader.db, user.companyName);

      let wrote = false;
      const during = await exportCompany(reader.db, user.companyName, {
        async afterTable(table) {
          if (table !== 'users') return;
          // a new customer's vault and pallet, committed after the export read its first table
          for (const res of [
            await user.request({
              method: 'POST',
              url: '/api/vaults',
              ...multipartBody({
                vault_id: 'LATE-1',
                customer_name: 'late customer',
                order_name: 'O-LATE',
                field_id: warehouse.field('A1').id,
                position: FIELD_CAPACITY,
              }),
            }),
            await user.request({
              method: 'POST',
              url: '/api/racks/pallets',
              payload: { shelf_id: rack.shelfIds[0], customer_name: 'late pallet customer' },
            }),
          ])
            expect(res.statusCode).toBe(201);
          wrote = true;
        },
      });
      expect(wrote).toBe(true);
      expect(during).toEqual(before);
      const after = await exportCompany(reader.db, user.companyName);
      expect(after.tables.customers.map((c) => c.name)).toEqual(['LATE CUSTOMER', 'LATE PALLET CUSTOMER']);
    } finally {
      await reader.close();
      await ctx.close();
    }
  });
});
