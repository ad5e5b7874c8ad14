export interface Throttle {
  /** runs `update` now if the window is open, otherwise once when it closes (the latest `update` wins) */
  run(update: () => void): void;
  /** drops a waiting update and opens the window again */
  cancel(): void;
}

/**
 * At most one update per `ms`, and the last update of a burst is never lost: it runs when the window closes.
 * A drag preview built on it always ends where the pointer stopped.
 */
export function createThrottle(ms: number): Throttle {
  let last = Number.NEGATIVE_INFINITY;
  let pending: (() => void) | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    run(update) {
      const wait = last + ms - Date.now();
      if (wait <= 0 && timer === undefined) {
        last = Date.now();
        update();
        return;
      }
      pending = update;
      timer ??= setTimeout(
        () => {
          timer = undefined;
          const next = pending;
          pending = null;
          last = Date.now();
          next?.();
        },
        Math.max(0, wait),
      );
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
      pending = null;
      last = Number.NEGATIVE_INFINITY;
    },
  };
}
