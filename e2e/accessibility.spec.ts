import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { uniqueSuffix } from '../server/db/factories';
import { buildPallet, buildRack } from '../server/features/racks/racks.factories';
import {
  buildStagedVault,
  buildVault,
  buildWarehouse,
} from '../server/features/warehouses/warehouses.factories';
import { e2eDatabase, expect, test } from './fixtures';

// axe-core over every screen of the app: any violation, of any impact, fails the run. One browser context for the
// signed-in screens and one for the signed-out ones keep the run short.

interface Finding {
  screen: string;
  violations: { id: string; impact: string | null | undefined; nodes: number; sample: string }[];
}

async function scan(page: Page, screen: string, findings: Finding[]) {
  // let transitions (dialogs fading in, toasts) settle so colours are measured at rest
  await page.waitForTimeout(350);
  const result = await new AxeBuilder({ page }).analyze();
  findings.push({
    screen,
    violations: result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.length,
      sample: v.nodes[0]?.target.join(' ') ?? '',
    })),
  });
}

function report(findings: Finding[]): string {
  return findings
    .map((f) => {
      const count = f.violations.reduce((sum, v) => sum + v.nodes, 0);
      const detail = f.violations.map((v) => `    ${v.id} (${v.impact}) x${v.nodes}: ${v.sample}`).join('\n');
      return `${f.screen}: ${count}${detail ? `\n${detail}` : ''}`;
    })
    .join('\n');
}

test('axe-core finds no violation on any screen', async ({ signedIn: page, account, browser }) => {
  test.setTimeout(120_000);
  const db = e2eDatabase().db;
  const findings: Finding[] = [];
  const w = await buildWarehouse(db, {
    companyId: account.companyId,
    name: `Axe Depot ${uniqueSuffix()}`,
    rows: 4,
    cols: 5,
    fieldCapacity: 3,
    width: 80,
    length: 60,
    gridX: 2,
    gridY: 2,
  });
  // one tile of each fill level: in use, over half, full
  await buildVault(db, { companyId: account.companyId, fieldId: w.field('A1').id, name: 'AX-1' });
  for (const name of ['AX-2', 'AX-3']) {
    await buildVault(db, { companyId: account.companyId, fieldId: w.field('B2').id, name });
  }
  for (const name of ['AX-4', 'AX-5', 'AX-6']) {
    await buildVault(db, { companyId: account.companyId, fieldId: w.field('C3').id, name });
  }
  const rack = await buildRack(db, {
    companyId: account.companyId,
    warehouseId: w.id,
    name: 'Axe Rack',
    x: 50,
    y: 5,
    shelves: 2,
    capacity: 4,
  });
  await buildPallet(db, {
    companyId: account.companyId,
    shelfId: rack.shelfIds[0]!,
    customer: 'Axel',
    slotIndex: 0,
  });
  await buildStagedVault(db, { companyId: account.companyId, name: 'AX-STAGED' });

  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Warehouses' })).toBeVisible();
  await scan(page, 'dashboard', findings);

  await page.goto(`/warehouse/${w.slug}`);
  await page.getByRole('group', { name: 'Fields' }).getByRole('button', { name: 'C3', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Field C3' })).toBeVisible();
  await scan(page, 'warehouse page, field selected', findings);

  await page.getByRole('button', { name: 'Rack View' }).click();
  await page.getByRole('button', { name: 'Rack Axe Rack' }).first().click();
  await page.getByRole('button', { name: 'Add pallet to shelf 1, slot 2' }).click();
  await expect(page.getByRole('dialog', { name: 'Add Pallet' })).toBeVisible();
  await scan(page, 'rack view with the pallet dialog', findings);
  await page.keyboard.press('Escape');
  await scan(page, 'rack view', findings);

  await page.goto('/add-warehouse');
  await expect(page.locator('main h1').first()).toBeVisible();
  await scan(page, 'add warehouse', findings);

  await page.goto(`/edit/${w.slug}`);
  await expect(page.locator('main h1').first()).toBeVisible();
  await scan(page, 'edit warehouse with the rack layout', findings);

  await page.goto('/edit/vault/AX-1');
  await expect(page.getByLabel('Customer Name')).toBeVisible();
  await scan(page, 'edit vault', findings);

  for (const [path, screen] of [
    ['/stage', 'stage'],
    ['/print-studio', 'print studio'],
    ['/statistics', 'statistics'],
    ['/messages', 'messages'],
  ] as const) {
    await page.goto(path);
    await expect(page.locator('main h1').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    await scan(page, screen, findings);
  }

  await page.goto('/warehouse-checklists');
  await page.getByRole('button', { name: 'Add New Checklist' }).click();
  const add = page.getByRole('dialog', { name: 'New Checklist Info' });
  await scan(page, 'checklists admin, add dialog', findings);
  await add.getByLabel('Warehouse').selectOption({ label: w.name });
  await add.getByLabel('Description').fill('Axe round');
  await add.getByRole('button', { name: 'Add Checklist' }).click();
  await expect(add).toBeHidden();
  const link = await page
    .getByRole('article', { name: `${w.name} checklist` })
    .getByRole('textbox', { name: 'Fill-in link' })
    .inputValue();
  await scan(page, 'checklists admin', findings);

  const outside = await browser.newContext();
  const guest = await outside.newPage();
  await guest.goto('/');
  await expect(guest.locator('h1').first()).toBeVisible();
  await scan(guest, 'landing', findings);
  await guest.goto('/login');
  await expect(guest.getByLabel('Email')).toBeVisible();
  await scan(guest, 'login', findings);
  await guest.goto(link);
  await guest.getByLabel('Your Name').fill('Rosa');
  const firstTask = 'Are all incoming/outgoing shipments labeled?';
  await guest.getByRole('button', { name: `Yes: ${firstTask}` }).click();
  await guest
    .getByRole('dialog', { name: 'Checklist Response' })
    .getByRole('button', { name: 'Submit' })
    .click();
  await expect(guest.getByRole('listitem', { name: firstTask })).toContainText('Completed by Rosa');
  await scan(guest, 'checklist fill-in with a completed task', findings);
  await outside.close();

  const text = report(findings);
  console.log(`axe-core violations per screen:\n${text}`);
  const total = findings.reduce((sum, f) => sum + f.violations.reduce((s, v) => s + v.nodes, 0), 0);
  expect(total, text).toBe(0);
});
