import { useLayoutEffect, useState } from 'react';
import { type Floor, planScale } from '@domain/rules/rack-placement';

/**
 * Pixels per foot for a floor plan that fits the width of the element given to `ref` and at most
 * `maxHeight` pixels; follows the element as it resizes (rotating a tablet, opening a panel).
 */
export function usePlanScale(
  floor: Floor,
  maxHeight: number,
  maxPxPerFt?: number,
): { ref: (element: HTMLElement | null) => void; scale: number } {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    if (!element) return;
    // the observer reports the first size right after observe(), then every change
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? 0));
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  // the plan's 2px border on each side comes out of the available width
  return {
    ref: setElement,
    scale: planScale(floor, { width: Math.max(0, (width || 600) - 4), height: maxHeight }, maxPxPerFt),
  };
}
