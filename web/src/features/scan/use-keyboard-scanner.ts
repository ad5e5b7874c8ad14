import { useEffect, useRef } from 'react';

/** Keys of a hand scanner arrive within a few milliseconds of each other; people type far slower. */
const MAX_GAP_MS = 50;
const MIN_LENGTH = 2;

/**
 * Inside a control that takes text (issue 27), every keystroke is typing, however fast: a scanner aimed at a form's
 * box fills that box and its Enter does what Enter does there (the add-vault dialog saves).
 */
export function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

/**
 * A keyboard-wedge scanner anywhere in the signed-in app: outside the controls that take text, a burst of fast
 * keystrokes ending in Enter is a scan. Slow typing is never one.
 */
export function useKeyboardScanner(onScan: (text: string) => void) {
  const handler = useRef(onScan);
  useEffect(() => {
    handler.current = onScan;
  });
  useEffect(() => {
    let text = '';
    let last = 0;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (isEditable(event.target)) {
        text = '';
        return;
      }
      const now = event.timeStamp;
      const fast = now - last <= MAX_GAP_MS;
      if (event.key === 'Enter') {
        if (fast && text.length >= MIN_LENGTH) {
          event.preventDefault();
          event.stopPropagation();
          const scanned = text;
          text = '';
          handler.current(scanned);
        }
        text = '';
        return;
      }
      if (event.key.length !== 1) return;
      if (!fast) text = '';
      text += event.key;
      last = now;
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, []);
}
