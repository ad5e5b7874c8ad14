import { warehouseSlug, warehouseSlugInPath } from '@domain/rules/text';
import type { ShellData } from '@domain/schemas/app-shell.schema';
import type { SessionUser } from '@domain/schemas/auth.schema';
import type { Db } from '../../db/database';
import { listCompanyWarehouses, loadWarehouse } from '../warehouses/warehouses.service';

/** The warehouse page's address (the router's `/warehouse/:warehouseName`). */
const WAREHOUSE_PAGE = /^\/warehouse\/[^/]+\/?$/;

/**
 * The data of the first screen a signed-in user opens at `pathname`: the session, the company's warehouses and, on a
 * warehouse address, that warehouse when the company has one of that name. Only the session's company is read.
 */
export async function loadShellData(db: Db, user: SessionUser, pathname: string): Promise<ShellData> {
  const warehouses = await listCompanyWarehouses(db, user.companyId);
  const slug = WAREHOUSE_PAGE.test(pathname) ? warehouseSlugInPath(pathname) : undefined;
  const shown = slug === undefined ? undefined : warehouses.find((w) => w.slug === warehouseSlug(slug));
  if (!shown) return { session: user, warehouses };
  return { session: user, warehouses, warehouse: await loadWarehouse(db, user.companyId, shown.id) };
}
