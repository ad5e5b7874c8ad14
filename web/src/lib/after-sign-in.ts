import { paths } from '../config/paths';

/**
 * Where signing in leads: the deep link a signed-out visitor opened (the router passes it to the sign-in page as
 * the location state `from`), or the dashboard. Only a path of this app is followed.
 */
export function afterSignIn(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : paths.dashboard;
}
