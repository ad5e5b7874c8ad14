import { useSyncExternalStore } from 'react';

/** Whether a CSS media query matches now; follows it as it changes (a tablet rotated, a mouse plugged in). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** A touch screen: controls and what is drawn on floor plans get sizes a finger can hit (44 px). */
export function useCoarsePointer(): boolean {
  return useMediaQuery('(pointer: coarse)');
}
