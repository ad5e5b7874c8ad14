import { type CSSProperties, useLayoutEffect, useState } from 'react';
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

/** The floor plan's box: the floor to scale (inside its 2px border) with a 1-ft grid drawn on it. */
export function floorPlanStyle(floor: Floor, scale: number): CSSProperties {
  return {
    width: floor.width * scale + 4,
    height: floor.length * scale + 4,
    backgroundImage:
      'linear-gradient(to right, rgb(226 232 240) 1px, transparent 1px), linear-gradient(to bottom, rgb(226 232 240) 1px, transparent 1px)',
    backgroundSize: `${scale}px ${scale}px`,
  };
}
