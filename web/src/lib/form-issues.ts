import type { z } from 'zod';

/** The first message per input, so each one shows under the input it belongs to. */
export function issuesByField(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : '_form';
    out[key] ??= issue.message;
  }
  return out;
}
