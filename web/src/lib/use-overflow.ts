import { useLayoutEffect, useState } from 'react';

/**
 * Whether the element given to `ref` is wider than its box (it scrolls sideways), and whether it is scrolled to its
 * end: a list that scrolls shows a hint until the last of it has been seen.
 */
export function useSidewaysOverflow(): {
  ref: (element: HTMLElement | null) => void;
  overflows: boolean;
  atEnd: boolean;
} {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [state, setState] = useState({ overflows: false, atEnd: true });
  useLayoutEffect(() => {
    if (!element) return;
    const measure = () => {
      const overflows = element.scrollWidth > element.clientWidth + 1;
      const atEnd = element.scrollLeft + element.clientWidth >= element.scrollWidth - 1;
      setState((current) =>
        current.overflows === overflows && current.atEnd === atEnd ? current : { overflows, atEnd },
      );
    };
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    element.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener('scroll', measure);
    };
  }, [element]);
  return { ref: setElement, ...state };
}
