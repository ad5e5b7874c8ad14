import { useEffect, useRef, useState } from 'react';
import type { z } from 'zod';

type Issue = { path: readonly PropertyKey[]; message: string };

/** The first message per input, so each one shows under the input it belongs to. */
function firstPerInput(issues: readonly Issue[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : '_form';
    out[key] ??= issue.message;
  }
  return out;
}

/**
 * The one way a form checks its values with the shared domain schema before sending: `check` answers the parsed
 * values, or undefined after keeping the schema's issues, which the form shows under each input (`byField`, the first
 * message per input) or as one list (`messages`, each message once).
 */
export function useFormIssues() {
  const [issues, setIssues] = useState<readonly Issue[]>([]);
  // the form of the last refused submit; after the render that marks its inputs, focus goes to the first of them
  const refused = useRef<HTMLFormElement | null>(null);
  const [attempts, setAttempts] = useState(0);
  useEffect(() => {
    const form = refused.current;
    refused.current = null;
    if (form) focusFirstInvalid(form);
  }, [attempts]);
  return {
    byField: firstPerInput(issues),
    messages: [...new Set(issues.map((issue) => issue.message))],
    check<S extends z.ZodType>(schema: S, values: unknown): z.output<S> | undefined {
      const parsed = schema.safeParse(values);
      setIssues(parsed.success ? [] : parsed.error.issues);
      // the submit came from the focused control (its button, or Enter in an input): its form is the one refused
      const active = document.activeElement;
      const form =
        active instanceof HTMLButtonElement || active instanceof HTMLInputElement
          ? (active.form ?? active.closest('form'))
          : active?.closest('form');
      if (!parsed.success && form) {
        refused.current = form;
        setAttempts((n) => n + 1);
      }
      return parsed.success ? parsed.data : undefined;
    },
    clear: () => setIssues([]),
  };
}

/**
 * After a refused submit: the first input marked invalid takes the focus (a screen reader reads its error, which is
 * its description); a form whose issues are not per input gets its error list focused instead.
 */
export function focusFirstInvalid(form: HTMLFormElement): void {
  const target =
    form.querySelector<HTMLElement>('[aria-invalid="true"]:not([disabled])') ??
    form.querySelector<HTMLElement>('[role="alert"]');
  if (!target) return;
  if (target.getAttribute('role') === 'alert' && !target.hasAttribute('tabindex')) target.tabIndex = -1;
  target.focus();
}
