/**
 * One read of a label reaches a scanning screen by more than one way (the camera's callback, the page's scan claim,
 * a hand scanner typing it): within `windowMs` the same text counts once. A different text always passes.
 */
export function createReadGate(windowMs = 1500) {
  let last: { text: string; at: number } | null = null;
  return (text: string, now: number): boolean => {
    if (last && last.text === text && now - last.at < windowMs) return false;
    last = { text, at: now };
    return true;
  };
}

/**
 * The 'Last scans' list: newest first, at most `max`, each line with its own key (two may share a millisecond).
 * `waited`: what a screen keeps of a scan that waits on this device, to say later what came of it.
 */
export interface NotedScan<W = never> {
  key: number;
  said: string;
  ok: boolean;
  waited?: W;
}

let nextKey = 0;

export function noteScan<W = never>(
  list: readonly NotedScan<W>[],
  said: string,
  ok: boolean,
  max = 6,
  waited?: W,
): NotedScan<W>[] {
  nextKey += 1;
  return [{ key: nextKey, said, ok, ...(waited === undefined ? {} : { waited }) }, ...list].slice(0, max);
}
