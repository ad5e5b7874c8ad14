import { test as base, expect, type Page } from '@playwright/test';
import { type BuiltAccount, buildAccount, e2eDatabase, removeCompany } from './factories';

export { e2eDatabase };

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
    const account = await buildAccount(e2eDatabase().db);
    await use(account);
    await removeCompany(account.companyId);
  },
  signedIn: async ({ page, account }, use) => {
    await signInThroughForm(page, account);
    await use(page);
  },
});

export { expect };
