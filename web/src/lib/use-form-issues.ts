import { useState } from 'react';
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
  return {
    byField: firstPerInput(issues),
    messages: [...new Set(issues.map((issue) => issue.message))],
    check<S extends z.ZodType>(schema: S, values: unknown): z.output<S> | undefined {
      const parsed = schema.safeParse(values);
      setIssues(parsed.success ? [] : parsed.error.issues);
      return parsed.success ? parsed.data : undefined;
    },
    clear: () => setIssues([]),
  };
}
