import { useEffect, useRef } from 'react';

/** Keys of a hand scanner arrive within a few milliseconds of each other; people type far slower. */
const MAX_GAP_MS = 50;
const MIN_LENGTH = 2;

const editable = (target: EventTarget | null): target is HTMLInputElement | HTMLTextAreaElement =>
  target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement;

/** Puts back the text a field had before the scanner typed into it (React listens to the input event). */
function restore(field: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const proto =
    field instanceof HTMLInputElement ? HTMLInputElement.prototype : HTMLTextAreaElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * A keyboard-wedge scanner anywhere in the signed-in app: a burst of fast keystrokes ending in Enter is a scan.
 * Typed into a text box, the burst is taken back out of it; slow typing is left alone. `ignore` (the scan dialog's
 * own box) handles its Enter itself.
 */
export function useKeyboardScanner(onScan: (text: string) => void, ignore?: () => HTMLElement | null) {
  const handler = useRef(onScan);
  useEffect(() => {
    handler.current = onScan;
  });
  useEffect(() => {
    let text = '';
    let last = 0;
    let field: { element: HTMLInputElement | HTMLTextAreaElement; before: string } | null = null;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.target instanceof Node && ignore?.()?.contains(event.target)) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const now = event.timeStamp;
      const fast = now - last <= MAX_GAP_MS;
      if (event.key === 'Enter') {
        if (fast && text.length >= MIN_LENGTH) {
          event.preventDefault();
          event.stopPropagation();
          if (field) restore(field.element, field.before);
          const scanned = text;
          text = '';
          field = null;
          handler.current(scanned);
        }
        text = '';
        return;
      }
      if (event.key.length !== 1) return;
      if (!fast) {
        text = '';
        field = editable(event.target) ? { element: event.target, before: event.target.value } : null;
      }
      text += event.key;
      last = now;
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [ignore]);
}
