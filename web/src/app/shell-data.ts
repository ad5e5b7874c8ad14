import type { QueryClient } from '@tanstack/react-query';
import { SHELL_DATA_ID, type ShellData } from '@domain/schemas/app-shell.schema';
import { sessionQueries } from '../api/session';
import { warehouseQueries } from '../api/warehouses';

/** The first screen's data the server wrote into a signed-in page's HTML, if any. */
function parseShellData(text: string | null | undefined): ShellData | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as ShellData;
  } catch {
    return undefined;
  }
}

/**
 * Puts the HTML's first-screen data into the query cache before the first render (issue 11, item 7): the session is
 * known at once, so the signed-in chrome and the screen draw as soon as their code is there, without waiting for
 * `GET /api/auth/`, the warehouse list and the warehouse one after the other. The warehouse list and the warehouse are
 * marked stale, so the screens that show them read them once more in the background: a change made between the HTML
 * and the live stream's start is not missed. `text` is the data block's text (the page's, when not given).
 */
export function seedShellData(
  queryClient: QueryClient,
  text: string | null | undefined = typeof document === 'undefined'
    ? undefined
    : document.getElementById(SHELL_DATA_ID)?.textContent,
): void {
  const data = parseShellData(text);
  if (!data) return;
  queryClient.setQueryData(sessionQueries.session().queryKey, data.session);
  const list = warehouseQueries.list(data.session.companyId).queryKey;
  queryClient.setQueryData(list, data.warehouses);
  void queryClient.invalidateQueries({ queryKey: list, exact: true, refetchType: 'none' });
  if (data.warehouse) {
    const detail = warehouseQueries.detail(data.warehouse.id).queryKey;
    queryClient.setQueryData(detail, data.warehouse);
    void queryClient.invalidateQueries({ queryKey: detail, exact: true, refetchType: 'none' });
  }
}
