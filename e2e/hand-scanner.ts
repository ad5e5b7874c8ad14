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

/**
 * A hand scanner's read aimed at the focused text box: each fast key goes to that box and, unless a listener takes
 * it, types its character there (as the browser's own input does); the final Enter, unless taken, submits the box's
 * form as a browser does. So a test sees whether the app let the scanner type or took the keys as a scan.
 */
export function scanIntoFocused(page: Page, text: string) {
  return page.evaluate((keys) => {
    for (const key of [...keys.split(''), 'Enter']) {
      const target = document.activeElement ?? document.body;
      const taken = !target.dispatchEvent(
        new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }),
      );
      if (taken) continue;
      if (key !== 'Enter') document.execCommand('insertText', false, key);
      else if (target instanceof HTMLInputElement) target.form?.requestSubmit();
    }
  }, text);
}
