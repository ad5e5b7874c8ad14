import { systemActor } from '../server/auth/actor';
import { createPullList } from '../server/features/pull-lists/pull-lists.service';
import { buildAccount, buildVault, buildWarehouse } from './factories';
import { e2eDatabase, expect, signInThroughForm, test } from './fixtures';

// Every page of the app, opened by the roles below a Manager: each draws what the role may see and asks the server
// for nothing the role is refused (a refused request would be the page's bug, and noise in the server's log).
const PAGES = [
  '/dashboard',
  '/add-warehouse',
  '/messages',
  '/stage',
  '/statistics',
  '/print-studio',
  '/import',
  '/warehouse-checklists',
  '/team',
  '/backups',
  '/api-reference',
  '/activity',
  '/pull-lists',
  '/receive',
  '/customers',
  '/requests',
  '/checks',
  '/billing',
  '/billing/rates',
  '/warehouse/role-hall',
  '/edit/role-hall',
];

const MANAGERS = ['/add-warehouse', '/messages', '/import', '/team', '/backups', '/api-reference'];
const OFFICE = ['/billing', '/billing/rates', '/customers', '/requests'];
// the pages each role is told are not theirs: a Viewer is refused the most; the Office role sees billing and customers
// but not a Manager's pages, nor floor work
const NOT_THEIRS = { viewer: [...MANAGERS, ...OFFICE, '/receive'], office: [...MANAGERS, '/receive'] };

for (const role of ['viewer', 'office'] as const)
  test(`a ${role} member opens every page without a request the server refuses`, async ({
    page,
    account,
  }) => {
    const db = e2eDatabase().db;
    const hall = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Role Hall',
      rows: 2,
      cols: 2,
    });
    await buildVault(db, { companyId: account.companyId, fieldId: hall.field('A1').id, orderName: 'ROLE-1' });
    const list = await createPullList(db, systemActor(account.companyId), { order_name: 'ROLE-1' });
    const member = await buildAccount(db, { company: account.companyName, role });
    await signInThroughForm(page, member);
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 403)
        refused.push(`${new URL(page.url()).pathname}: ${new URL(response.url()).pathname}`);
    });
    for (const path of [...PAGES, `/pull-lists/${list.id}`]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.waitForLoadState('networkidle');
      // a page that is not the role's says why, and offers nothing to press or fill in
      if (NOT_THEIRS[role].includes(path)) {
        await expect(page.getByRole('main').getByRole('note')).toBeVisible();
        await expect(page.getByRole('main').locator('button, input, select, textarea')).toHaveCount(0);
      }
      // checks are floor work: the page says so in words true for the role, and points to no start control
      if (path === '/checks') {
        await expect(page.getByRole('main').getByRole('note')).toHaveText(
          'Warehouse checks are floor work: a member with the Floor role or a Manager starts, scans and resolves them.',
        );
        await expect(page.getByText('No warehouse checks yet')).toBeVisible();
        await expect(page.getByText(/Start one above/)).toHaveCount(0);
      }
    }
    // a pull list is read by everyone; its steps are floor work, offered to neither role
    await expect(page.getByRole('main').getByRole('note')).toContainText('floor work');
    await expect(page.getByRole('button', { name: /^Pulled / })).toBeDisabled();
    expect(refused).toEqual([]);
  });
