import { expect, type Locator } from '@playwright/test';

/**
 * A confirmation or an in-app alert as the spec's are: `role="alertdialog"`, labelled by its title and described by
 * exactly the spec's text, both through elements inside the dialog (`aria-labelledby`, `aria-describedby`).
 */
export async function expectAlertDialog(dialog: Locator, title: string, text: string) {
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute('role', 'alertdialog');
  const labelledBy = await dialog.getAttribute('aria-labelledby');
  const describedBy = await dialog.getAttribute('aria-describedby');
  expect(labelledBy, 'aria-labelledby').toBeTruthy();
  expect(describedBy, 'aria-describedby').toBeTruthy();
  await expect(dialog.locator(`[id="${labelledBy}"]`)).toHaveText(title);
  await expect(dialog.locator(`[id="${describedBy}"]`)).toHaveText(text);
  await expect(dialog).toHaveAccessibleName(title);
  await expect(dialog).toHaveAccessibleDescription(text);
}
