import type { Page } from '@playwright/test';

/**
 * A hand scanner's read: its keys arrive a few milliseconds apart and end with Enter. Sent in one go, because the
 * test machine's own keystrokes through the browser protocol are too slow and uneven to pass for a scanner.
 */
export function scanWithKeyboard(page: Page, text: string) {
  return page.evaluate((keys) => {
    for (const key of [...keys.split(''), 'Enter'])
      document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
  }, text);
}
