import { type RefObject, useEffect } from 'react';

/**
 * Keeps `--top-bar-height` on the page's root at the top bar's height, which grows a row where the warehouse search
 * has no room beside the buttons: what must not slide under the bar (toasts, a panel scrolled to) keeps below it.
 */
export function useTopBarHeight(bar: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const element = bar.current;
    if (!element) return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() =>
      root.style.setProperty('--top-bar-height', `${element.offsetHeight}px`),
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--top-bar-height');
    };
  }, [bar]);
}
