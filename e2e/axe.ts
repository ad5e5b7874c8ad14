import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/**
 * axe-core over the page as it is: any violation, of any impact, fails with its rule and first node. The
 * experimental rule that a control's name must contain its visible words is switched on, as in the accessibility spec.
 */
export async function expectNoAxeViolations(page: Page) {
  await page.waitForTimeout(350); // dialogs and toasts settle before colours are measured
  const { violations } = await new AxeBuilder({ page })
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  expect(violations.map((v) => `${v.id} (${v.impact}): ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);
}
