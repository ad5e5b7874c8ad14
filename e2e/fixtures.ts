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

/** The app's own API call from inside the page, as the browser's code makes it (same origin, same cookie). */
export function callApi(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.text() };
    },
    { method, path, body },
  );
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
