import type { SessionUser } from './auth.schema';
import type { WarehouseDto, WarehouseSummaryDto } from './warehouse.schema';

/** The id of the JSON block in a signed-in page's HTML that carries its first screen's data. */
export const SHELL_DATA_ID = 'shell-data';

/**
 * The first screen's data the server writes into the HTML of a signed-in page (issue 11, item 7), the same answers
 * the API gives: the session (`GET /api/auth/`), the company's warehouses (`GET /api/warehouse/company/{id}`) and,
 * on a `/warehouse/{slug}` address, that warehouse (`GET /api/warehouse/{id}`).
 */
export interface ShellData {
  session: SessionUser;
  warehouses: WarehouseSummaryDto[];
  warehouse?: WarehouseDto;
}
