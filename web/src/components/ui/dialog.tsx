import * as RadixDialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { type ReactNode, useCallback, useRef } from 'react';
import { OfflineBanner } from './offline-banner';

const FIRST_INPUT =
  'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled])';
const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function visible(element: Element): element is HTMLElement {
  return element instanceof HTMLElement && element.isConnected && element.getClientRects().length > 0;
}

/**
 * The control that opened a dialog, drawn anew by a re-render of the page (the grid editor after a refused change):
 * the one visible element of its kind with its accessible name, if there is exactly one.
 */
function sameControl(opener: HTMLElement): HTMLElement | null {
  const label = opener.getAttribute('aria-label');
  if (!label) return null;
  const matches = [...document.querySelectorAll<HTMLElement>(opener.tagName)].filter(
    (element) => element.getAttribute('aria-label') === label && visible(element),
  );
  return matches.length === 1 ? matches[0]! : null;
}

/**
 * Where focus goes back to when a dialog closes: the control that opened it (or the same control drawn anew), or,
 * when that control is gone (the
 * '+ Add Vault' button of a slot that now holds the vault), the first control of its nearest container still on
 * the page, so keyboard users carry on where they were rather than at the top of the page.
 */
function returnTarget(opener: HTMLElement | null, ancestors: Element[]): HTMLElement | null {
  if (opener && visible(opener)) return opener;
  const again = opener && sameControl(opener);
  if (again) return again;
  for (const ancestor of ancestors) {
    if (!ancestor.isConnected || ancestor === document.body) continue;
    const inside = [...ancestor.querySelectorAll(FOCUSABLE)].find(visible);
    if (inside) return inside;
  }
  return null;
}

/**
 * An accessible modal dialog: focus is trapped, Escape and the close button dismiss it. It opens on its first
 * input (or its first button after the close button), and gives focus back to where it came from when it closes,
 * also when the page re-renders around it a moment later.
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  wide = false,
  alert = false,
  onClosed,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  wide?: boolean;
  /**
   * an alert dialog (`role="alertdialog"`): a question or a message that needs an answer before work goes on. A
   * click beside it does not dismiss it; Escape, the close button and its own buttons do.
   */
  alert?: boolean;
  /**
   * runs once the dialog has closed and given focus back: a dialog that hands over to another (a refusal's alert)
   * opens it here, so only one is open at a time and the next one knows where focus goes after it
   */
  onClosed?: () => void;
}) {
  const content = useRef<HTMLDivElement>(null);
  const opener = useRef<{ element: HTMLElement | null; ancestors: Element[] }>({
    element: null,
    ancestors: [],
  });

  const rememberOpener = useCallback(() => {
    const focused = document.activeElement;
    // nothing focused (a button that disabled itself while saving): the dialog has no opener and gives focus to
    // no one on closing, so that a dialog below it (whose button asked the question) gives it back to its own opener
    const active = focused instanceof HTMLElement && focused !== document.body ? focused : null;
    const ancestors: Element[] = [];
    for (
      let node = active?.parentElement ?? null;
      node && node !== document.body;
      node = node.parentElement
    ) {
      ancestors.push(node);
    }
    opener.current = { element: active, ancestors };
  }, []);
  // called once when the dialog's content mounts, before it takes focus: the control that opened it is still focused
  const contentRef = useCallback(
    (node: HTMLDivElement | null) => {
      if (node && !content.current) rememberOpener();
      content.current = node;
    },
    [rememberOpener],
  );

  function onOpenAutoFocus(event: Event) {
    const root = content.current;
    if (!root) return;
    const first =
      root.querySelector<HTMLElement>(FIRST_INPUT) ??
      [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].find(
        (el) => !el.hasAttribute('data-dialog-close') && !el.closest('[data-offline-banner]'),
      );
    if (first) {
      event.preventDefault();
      first.focus();
    }
  }

  function onCloseAutoFocus(event: Event) {
    event.preventDefault();
    const { element, ancestors } = opener.current;
    const opening = () => (element && visible(element) ? element : element && sameControl(element));
    const focus = () => {
      const target = returnTarget(element, ancestors);
      target?.focus();
      return target;
    };
    let target = focus();
    // the page often re-renders after the change the dialog made (the slot now shows the vault, the grid editor
    // draws its buttons anew); while it settles, focus that fell back to the page body, or to a stand-in because the
    // opener was away for a moment, is put back near where the dialog was opened (a user who moved focus elsewhere
    // keeps their choice)
    const watcher = new MutationObserver(() => {
      const active = document.activeElement;
      if (target && target !== element && active === target) {
        const again = opening();
        if (again && again !== target) {
          target = again;
          again.focus();
        }
        return;
      }
      if (target?.isConnected) return;
      if (active && active !== document.body) return;
      target = focus();
    });
    watcher.observe(document.body, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['class', 'style', 'hidden'],
    });
    window.setTimeout(() => watcher.disconnect(), 10_000);
    onClosed?.();
  }

  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <RadixDialog.Content
          ref={contentRef}
          role={alert ? 'alertdialog' : 'dialog'}
          data-dialog-content=""
          onPointerDownOutside={alert ? (event) => event.preventDefault() : undefined}
          onOpenAutoFocus={onOpenAutoFocus}
          onCloseAutoFocus={onCloseAutoFocus}
          className={`fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-2xl focus:outline-none ${wide ? 'max-w-2xl' : 'max-w-md'}`}
        >
          <OfflineBanner inDialog />
          <div className="mb-4 flex items-start justify-between gap-4">
            <RadixDialog.Title className="text-lg font-bold text-primary">{title}</RadixDialog.Title>
            <RadixDialog.Close
              aria-label="Close"
              data-dialog-close=""
              className="flex shrink-0 items-center justify-center rounded p-1 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent pointer-coarse:h-11 pointer-coarse:w-11"
            >
              <X className="h-5 w-5" aria-hidden />
            </RadixDialog.Close>
          </div>
          {description ? (
            <RadixDialog.Description className="mb-4 text-sm wrap-anywhere text-slate-600">
              {description}
            </RadixDialog.Description>
          ) : (
            <RadixDialog.Description className="sr-only">{title}</RadixDialog.Description>
          )}
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
