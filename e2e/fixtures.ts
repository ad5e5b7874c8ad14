import { test as base, expect, type Page } from '@playwright/test';
import { openDatabase, type DatabaseHandle } from '../server/db/database';
import { type BuiltAccount, buildAccount } from '../server/factories';
import { E2E_DATABASE_FILE } from './e2e-env';

/** The server's own database, for arranging data through the same factories the seed and API tests use. */
let handle: DatabaseHandle | undefined;
export function e2eDatabase(): DatabaseHandle {
  handle ??= openDatabase({ kind: 'sqlite', file: E2E_DATABASE_FILE });
  return handle;
}

export async function signInThroughForm(page: Page, account: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

interface Fixtures {
  /** a new company with one user, removed after the test */
  account: BuiltAccount;
  /** a page signed in as `account` */
  signedIn: Page;
}

export const test = base.extend<Fixtures>({
  account: async ({}, use) => {
    const db = e2eDatabase().db;
    const account = await buildAccount(db);
    await use(account);
    await db.deleteFrom('companies').where('id', '=', account.companyId).execute();
  },
  signedIn: async ({ page, account }, use) => {
    await signInThroughForm(page, account);
    await use(page);
  },
});

export { expect };
