import { type RefObject, useEffect, useState } from 'react';

export interface RowWindow {
  start: number;
  end: number;
}

/**
 * Which rows of a long list under `anchor` are in (or near) the browser window, for lists that scroll with the page.
 * Rows have one fixed height, so the range follows from the scroll position alone.
 */
export function useWindowRows(
  anchor: RefObject<HTMLElement | null>,
  count: number,
  rowHeight: number,
  overscan = 12,
): RowWindow {
  const [range, setRange] = useState<RowWindow>({ start: 0, end: Math.min(count, 60) });

  useEffect(() => {
    let frame = 0;
    const measure = () => {
      frame = 0;
      const element = anchor.current;
      if (!element) return;
      const top = element.getBoundingClientRect().top;
      const first = Math.floor(-top / rowHeight) - overscan;
      const last = Math.ceil((window.innerHeight - top) / rowHeight) + overscan;
      const start = Math.max(0, Math.min(count, first));
      const end = Math.max(start, Math.min(count, last));
      setRange((current) => (current.start === start && current.end === end ? current : { start, end }));
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    measure();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      if (frame) cancelAnimationFrame(frame);
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
    };
  }, [anchor, count, rowHeight, overscan]);

  return range;
}
