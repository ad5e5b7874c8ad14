import { DEMO_LOGIN } from '../server/db/seed';
import { expect, signInThroughForm, test } from './fixtures';

test.describe('sign-in', () => {
  test('the demo login reaches the dashboard and logout returns to the landing page', async ({ page }) => {
    await signInThroughForm(page, DEMO_LOGIN);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('link', { name: 'Log In' }).first()).toBeVisible();
    // the session is gone on the server too: protected pages ask to sign in again
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('wrong credentials show the server errors above the form', async ({ page, account }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password.');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('the email is lower-cased before it is sent', async ({ page, account }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email.toUpperCase());
    await page.getByLabel('Password').fill(account.password);
    const request = page.waitForRequest((r) => r.url().endsWith('/api/auth/login'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect((await request).postDataJSON()).toMatchObject({ email: account.email });
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('empty fields are refused before anything is sent', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toContainText('Email is required.');
    await expect(page.getByRole('alert')).toContainText('Password is required.');
  });

  test('a 5xx answer shows the generic message', async ({ page, account }) => {
    await page.route('**/api/auth/login', (route) => route.fulfill({ status: 502, body: 'Bad gateway' }));
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('An error occurred. Please try again.');
  });

  test('the login page links back to the landing page', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('link', { name: /Back to home/ }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe('redirects', () => {
  test('signed out: protected paths ask to sign in first, unknown ones go to the landing page', async ({
    page,
  }) => {
    for (const path of ['/dashboard', '/stage', '/statistics', '/print-studio', '/warehouse/anything']) {
      await page.goto(path);
      await expect(page, `for ${path}`).toHaveURL(/\/login$/);
    }
    await page.goto('/no-such-page');
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  });

  test('signed out: the checklist pages open without sign-in', async ({ page }) => {
    await page.goto('/warehouse-checklists');
    await expect(page).toHaveURL(/\/warehouse-checklists$/);
    await page.goto('/warehouse-1-checklist');
    await expect(page).toHaveURL(/\/warehouse-1-checklist$/);
  });

  test('signed in: / and /login go to the dashboard, unknown paths go through / to the dashboard', async ({
    signedIn: page,
  }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/no-such-page');
    await expect(page).toHaveURL(/\/dashboard$/);
    for (const path of [
      '/stage',
      '/statistics',
      '/print-studio',
      '/add-warehouse',
      '/warehouse-checklists',
    ]) {
      await page.goto(path);
      await expect(page, `for ${path}`).toHaveURL(new RegExp(`${path}$`));
    }
  });
});
