import crypto from 'node:crypto';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import pg from 'pg';
import { loadConfig } from '../server/config';
import { type DatabaseHandle, openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { DEMO_LOGIN, seedDemoIfEmpty } from '../server/demo-seed';
import { type RunningServer, startServer } from '../server/test/server-process';
import { E2E_WEB_DIST } from './e2e-env';
import {
  buildAccount,
  buildVault,
  buildWarehouse,
  type BuiltAccount,
  type BuiltWarehouse,
} from './factories';
import { expect, test } from './fixtures';

// Scale-out mode: two server processes on one PostgreSQL database, as behind a load balancer. Sessions, files and
// live events live in the database, so it must not matter which process a browser talks to.

const adminUrl = loadConfig().testPostgresUrl;

async function createDatabase(admin: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `wm_scale_${crypto.randomBytes(6).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

const tile = (page: Page, name: string) =>
  page.getByRole('group', { name: 'Fields' }).getByRole('button', { name, exact: true });
const slot = (page: Page, field: string, position: number) =>
  page
    .getByRole('region', { name: `Field ${field}` })
    .getByRole('list', { name: 'Vault slots' })
    .getByRole('listitem', { name: `Slot ${position}` });

async function signInTo(
  browser: Browser,
  server: RunningServer,
  account: { email: string; password: string },
) {
  // one context per browser: its own cookie jar, as two tablets have
  const context = await browser.newContext({ baseURL: server.baseUrl });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return { context, page };
}

async function sessionCookie(context: BrowserContext, server: RunningServer): Promise<string> {
  const cookies = await context.cookies(server.baseUrl);
  const session = cookies.find((c) => c.name === 'wm_session');
  if (!session) throw new Error('the browser holds no session cookie');
  return `${session.name}=${session.value}`;
}

test.describe('Several servers on one PostgreSQL database', () => {
  test.describe.configure({ mode: 'serial', timeout: 90_000 });

  let drop: (() => Promise<void>) | undefined;
  let database: DatabaseHandle | undefined;
  let one: RunningServer | undefined;
  let two: RunningServer | undefined;
  let account: BuiltAccount;
  let warehouse: BuiltWarehouse;

  test.beforeAll(async () => {
    if (!adminUrl) {
      throw new Error(
        'TEST_POSTGRES_URL is not set: the scale-out test needs a PostgreSQL server it may create a database on. ' +
          'Run it through `npm test`, or start one with scripts/postgres-temp.sh and export its URL.',
      );
    }
    const created = await createDatabase(adminUrl);
    drop = created.drop;
    database = openDatabase({ kind: 'postgres', url: created.url });
    await migrateToLatest(database.db);
    await seedDemoIfEmpty(database.db);
    account = await buildAccount(database.db);
    warehouse = await buildWarehouse(database.db, {
      companyId: account.companyId,
      name: 'Shared Depot',
      rows: 2,
      cols: 2,
    });
    await buildVault(database.db, {
      companyId: account.companyId,
      fieldId: warehouse.field('A1').id,
      name: 'SCALE-1',
      customerName: 'ACROSS SERVERS',
    });
    // both processes start on the same, already migrated and seeded database
    [one, two] = await Promise.all([
      startServer(created.url, { WEB_DIST_DIR: E2E_WEB_DIST }),
      startServer(created.url, { WEB_DIST_DIR: E2E_WEB_DIST }),
    ]);
  });

  test.afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
    await database?.close();
    await drop?.();
  });

  test('the demo company was seeded once and both servers serve it', async ({ browser }) => {
    for (const server of [one!, two!]) {
      const { context, page } = await signInTo(browser, server, DEMO_LOGIN);
      await expect(page.getByRole('heading', { name: 'Warehouses' })).toBeVisible();
      await context.close();
    }
    const companies = await database!.db.selectFrom('companies').select('name').execute();
    expect(companies).toHaveLength(2);
  });

  test('a change made through server 1 shows live in a browser on server 2 within a second', async ({
    browser,
  }) => {
    const first = await signInTo(browser, one!, account);
    const second = await signInTo(browser, two!, account);
    try {
      for (const { page } of [first, second]) {
        await page.goto(`/warehouse/${warehouse.slug}`);
        await tile(page, 'A1').click();
        await expect(slot(page, 'A1', 3)).toContainText('SCALE-1');
      }
      await first.page.getByRole('button', { name: 'Stage vault SCALE-1' }).click();
      const staged = first.page.waitForResponse(
        (res) => res.url().includes('/api/stage/vaults/') && res.request().method() === 'POST',
      );
      await first.page
        .getByRole('alertdialog', { name: 'Stage Vault' })
        .getByRole('button', { name: 'Yes, stage it' })
        .click();
      expect((await staged).url()).toContain(one!.baseUrl);
      // no reload on server 2's page: the event crossed processes through PostgreSQL
      await expect(slot(second.page, 'A1', 3).getByRole('button', { name: '+ Add Vault' })).toBeVisible({
        timeout: 1_000,
      });
      await expect(tile(second.page, 'A1')).toHaveAttribute('data-fill', 'empty', { timeout: 1_000 });
      expect(new URL(second.page.url()).pathname).toBe(`/warehouse/${warehouse.slug}`);
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });

  test('a session started on server 1 is valid on server 2, and signing out on 2 ends it on 1', async ({
    browser,
  }) => {
    const { context } = await signInTo(browser, one!, account);
    const cookie = await sessionCookie(context, one!);
    await context.close();

    const me = await fetch(`${two!.baseUrl}/api/auth/`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: account.email, companyId: account.companyId });

    // server 1 has looked the session up (and keeps it, decision 024)
    expect((await fetch(`${one!.baseUrl}/api/auth/`, { headers: { cookie } })).status).toBe(200);
    const out = await fetch(`${two!.baseUrl}/api/auth/logout`, { headers: { cookie } });
    expect(out.ok).toBe(true);
    expect((await fetch(`${two!.baseUrl}/api/auth/`, { headers: { cookie } })).status).toBe(401);
    // server 1 forgets it when PostgreSQL's notification of the sign-out reaches it, a moment after the commit
    await expect
      .poll(async () => (await fetch(`${one!.baseUrl}/api/auth/`, { headers: { cookie } })).status, {
        timeout: 2000,
      })
      .toBe(401);
  });

  test('an attachment uploaded through server 1 downloads byte-identical through server 2', async ({
    browser,
  }) => {
    const vault = await buildVault(database!.db, {
      companyId: account.companyId,
      fieldId: warehouse.field('B1').id,
      name: 'FILES-1',
    });
    const first = await signInTo(browser, one!, account);
    const second = await signInTo(browser, two!, account);
    try {
      // every byte value, in a file big enough to arrive in several chunks
      const bytes = crypto.randomBytes(300_000);
      bytes.set(Array.from({ length: 256 }, (_, i) => i));
      const form = new FormData();
      form.set('vault_id', String(vault.id));
      form.set('attachment', new Blob([bytes], { type: 'application/pdf' }), 'inventory list.pdf');
      const upload = await fetch(`${one!.baseUrl}/api/vaults/upload`, {
        method: 'POST',
        headers: { cookie: await sessionCookie(first.context, one!) },
        body: form,
      });
      expect(upload.status).toBe(201);
      const { attachment } = (await upload.json()) as { attachment: { file_name: string; file_url: string } };
      expect(attachment.file_name).toBe('inventory list.pdf');

      const download = await fetch(`${two!.baseUrl}${attachment.file_url}`, {
        headers: { cookie: await sessionCookie(second.context, two!) },
      });
      expect(download.status).toBe(200);
      expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);

      // and the browser on server 2 lists it with the vault
      const listed = await second.page.evaluate(
        async (id) => (await fetch(`/api/vaults/${id}`)).json(),
        vault.id,
      );
      expect(listed.attachments).toEqual([
        expect.objectContaining({ file_name: 'inventory list.pdf', file_url: attachment.file_url }),
      ]);
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });
});
