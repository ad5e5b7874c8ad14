import { DEMO_LOGIN } from '../server/db/seed';
import { placeBackupTakenAt } from './factories';
import { expect, signInThroughForm, test } from './fixtures';

const DAY_MS = 24 * 3600_000;

// one backup folder for the whole installation: these steps build on each other
test.describe.configure({ mode: 'serial' });

test.describe('automatic backups, as the installation operator sees them', () => {
  test('warns that no backup exists, then that the last one is old, until Back up now takes one', async ({
    page,
  }) => {
    // the demo company is the installation's first: its operator
    await signInThroughForm(page, DEMO_LOGIN);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('link', { name: 'Backups' }).click();
    await expect(page).toHaveURL(/\/backups$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Backups' })).toBeVisible();
    const section = page.getByRole('region', { name: 'Automatic backups' });
    await expect(section.getByRole('alert')).toContainText('No good backup exists yet.');
    await expect(section.getByText('No backups kept yet')).toBeVisible();
    await expect(section.getByText('Next run')).toBeVisible();

    const old = await placeBackupTakenAt(new Date(Date.now() - 3 * DAY_MS));
    await page.reload();
    await expect(section.getByRole('alert')).toContainText(
      'The last good backup was taken 3 days ago: more than two days ago.',
    );
    const kept = section.getByRole('list', { name: 'Kept backups' });
    await expect(kept.getByRole('listitem')).toHaveCount(1);
    await expect(kept.getByRole('listitem').first()).toContainText(old);

    await section.getByRole('button', { name: 'Back up now' }).click();
    await expect(page.getByText(/Backup taken and checked: [\d.]+ (KB|MB)\./)).toBeVisible({
      timeout: 20_000,
    });
    await expect(section.getByRole('alert')).toBeHidden();
    await expect(kept.getByRole('listitem')).toHaveCount(2);
    await expect(kept.getByRole('listitem').first()).toContainText('Latest');
    await expect(kept.getByRole('listitem').nth(1)).toContainText(old);
    await expect(section.getByRole('button', { name: 'Back up now' })).toBeEnabled();
  });

  test("tells another company's Manager that backups are the operator's", async ({ signedIn: page }) => {
    await page.goto('/backups');
    await expect(page.getByRole('heading', { level: 1, name: 'Backups' })).toBeVisible();
    await expect(
      page
        .getByRole('region', { name: 'Automatic backups' })
        .getByText('Automatic backups are kept by the operator of this installation.'),
    ).toBeVisible();
  });
});
