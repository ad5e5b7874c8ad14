import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/** Longest a new page may take to show its heading (its code and data loading) before focus is left alone. */
const WAIT_MS = 5000;

/**
 * After a change of page, focus goes to the new page's heading (its h1), so a screen reader starts there and the next
 * Tab goes on from the top of the page. Not on the first page a tab opens, and not when the page has put focus
 * somewhere itself (a form's first input, a dialog) or the user has moved on meanwhile.
 */
export function useHeadingFocusOnNavigation(): void {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const before = document.activeElement;
    const started = performance.now();
    let frame = 0;
    const look = () => {
      const active = document.activeElement;
      // focus left where a link or a dialog's close put it (body, the top bar, the menu button) can move on
      const chosen =
        active &&
        active !== document.body &&
        active !== before &&
        active.id !== 'main' &&
        !active.closest('header');
      if (chosen) return;
      const heading =
        document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('h1');
      if (heading) {
        if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
        heading.focus({ preventScroll: true });
        return;
      }
      if (performance.now() - started < WAIT_MS) frame = requestAnimationFrame(look);
    };
    frame = requestAnimationFrame(look);
    return () => cancelAnimationFrame(frame);
  }, [pathname]);
}
