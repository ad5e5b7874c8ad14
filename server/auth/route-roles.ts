import type { FastifyInstance } from 'fastify';
import { type Role, type RoleRequirement, roleAllows, roleRefusal } from '@domain/rules/roles';
import { forbidden, unauthorized } from '../http/errors';

/**
 * The role each API route needs, in one place (issue 14, decision 010): 'public' routes answer anyone, every other
 * route at least the named role. Reads, printing and exports are 'viewer'; vault, pallet, stage, field-full,
 * checklist answering and attachment work 'floor'; warehouses, their layout, racks, checklist administration and
 * the team 'manager'; storage billing 'office' (the Office role and Managers, issue 28). The server refuses to start with an API route missing here, so no route ships unguarded.
 */
export const ROUTE_ROLES: Record<string, RoleRequirement> = {
  // signing in and out, the landing page's form and the health check
  'POST /api/auth/login': 'public',
  'GET /api/auth/logout': 'public',
  'POST /api/auth/logout': 'public',
  'GET /api/health': 'public',
  'GET /api/contact/settings': 'public',
  'POST /api/contact': 'public',
  // the checklist fill-in link works with its key and no sign-in; the PATCH decides by its body (answer or edit)
  'GET /api/checklists/warehouse/:name': 'public',
  'PATCH /api/checklists/:id': 'public',

  'GET /api/auth/': 'viewer',
  // the API's OpenAPI document, for every signed-in member (decision 045)
  'GET /api/openapi.json': 'viewer',
  'GET /api/warehouse/company/:companyId': 'viewer',
  'GET /api/warehouse/:id': 'viewer',
  'GET /api/warehouse/:warehouseId/:fieldId': 'viewer',
  'GET /api/vaults/:id': 'viewer',
  'GET /api/vaults/all': 'viewer',
  'GET /api/stage/vaults': 'viewer',
  'GET /api/attachments/:id': 'viewer',
  'GET /api/racks/warehouse/:id': 'viewer',
  'GET /api/checklists/': 'viewer',
  'GET /api/events': 'viewer',
  'GET /api/activity': 'viewer',
  'GET /api/activity/export': 'viewer',
  'GET /api/vaults/:id/history': 'viewer',
  'GET /api/pull-lists': 'viewer',
  'GET /api/pull-lists/:id': 'viewer',
  'GET /api/released-vaults': 'viewer',
  // the top bar's company-wide find (issue 27)
  'GET /api/search': 'viewer',
  // templates and exports are reads; Print Studio's XLSX is a POST of the shown ids
  'GET /api/import/templates/:file': 'viewer',
  // finding a scanned label, and printing labels, is reading
  'GET /api/scan': 'viewer',
  'GET /api/scan/vaults/:id': 'viewer',
  'POST /api/labels/vaults': 'viewer',
  'POST /api/labels/fields': 'viewer',
  // Viewers print (issue 34), the checklist poster too: it carries the fill-in key for the floor to scan, and the
  // poster is where that key is meant to be read (decision 037)
  'GET /api/labels/checklist-poster/:id': 'viewer',
  'GET /api/export/:file': 'viewer',
  // a warehouse check and its report are reads; running one is floor work
  'GET /api/checks': 'viewer',
  'GET /api/checks/:id': 'viewer',
  'GET /api/checks/:id/report.csv': 'viewer',
  'GET /api/checks/:id/report.pdf': 'viewer',
  'POST /api/export/print-vaults.xlsx': 'viewer',

  'POST /api/vaults/': 'floor',
  'POST /api/vaults': 'floor',
  'PUT /api/vaults/move': 'floor',
  'POST /api/vaults/upload': 'floor',
  'PUT /api/vaults/:id': 'floor',
  'DELETE /api/vaults/:id': 'floor',
  'POST /api/stage/vaults/:id': 'floor',
  'DELETE /api/attachments/:id': 'floor',
  'PATCH /api/fields/:id/full': 'floor',
  'POST /api/racks/pallets': 'floor',
  'PUT /api/racks/pallets/:id/edit': 'floor',
  'PUT /api/racks/pallets/:id/move': 'floor',
  'DELETE /api/pallets/:id/delete': 'floor',
  // pulling an order and receiving a shipment are vault work
  'POST /api/pull-lists': 'floor',
  'POST /api/pull-lists/:id/steps': 'floor',
  'POST /api/pull-lists/:id/release': 'floor',
  'DELETE /api/pull-lists/:id': 'floor',
  'POST /api/receiving/proposal': 'floor',
  'POST /api/receiving': 'floor',
  'POST /api/scan/move': 'floor',
  'POST /api/checks': 'floor',
  'POST /api/checks/:id/scans': 'floor',
  'POST /api/checks/:id/finish': 'floor',
  'POST /api/checks/:id/cancel': 'floor',
  'POST /api/checks/:id/fields/:fieldId/recount': 'floor',
  'POST /api/checks/:id/resolve': 'floor',

  'POST /api/warehouse/add-warehouse': 'manager',
  // the company file holds every row of the company (password hashes too): Managers only (issue 25)
  'POST /api/company-file/jobs': 'manager',
  'GET /api/company-file/jobs/latest': 'manager',
  'GET /api/company-file/jobs/:id/download': 'manager',
  'DELETE /api/warehouse/:id': 'manager',
  'PATCH /api/warehouse/:id/edit-dimensions': 'manager',
  'PUT /api/warehouse/:id/field-grid': 'manager',
  'PATCH /api/fields/:id': 'manager',
  'POST /api/fields/': 'manager',
  'POST /api/fields': 'manager',
  'DELETE /api/fields/': 'manager',
  'DELETE /api/fields': 'manager',
  'POST /api/racks/warehouse/:id/add': 'manager',
  'PUT /api/racks/:warehouseId/rack/:rackId': 'manager',
  'PATCH /api/racks/:warehouseId/rack/:rackId': 'manager',
  'DELETE /api/racks/:warehouseId/rack/:rackId/delete': 'manager',
  'POST /api/checklists/': 'manager',
  'POST /api/checklists/:id/key': 'manager',
  // bringing a company's spreadsheets in, and undoing it, is a manager's job
  'POST /api/import/vaults/dry-run': 'manager',
  'POST /api/import/vaults': 'manager',
  'POST /api/import/pallets/dry-run': 'manager',
  'POST /api/import/pallets': 'manager',
  'GET /api/imports': 'manager',
  'POST /api/imports/:id/undo': 'manager',
  'GET /api/team': 'manager',
  'POST /api/team/invites': 'manager',
  'PATCH /api/team/members/:id': 'manager',
  'POST /api/team/members/:id/reset-link': 'manager',
  'DELETE /api/team/links/:id': 'manager',
  // the company's mails and their delivery state (issue 29)
  'GET /api/team/mails': 'manager',
  // the company's locale, shown to every member
  'PATCH /api/company': 'manager',
  // a one-time link is its own key: the invited member has no account yet, a reset member cannot sign in
  'POST /api/team/link': 'public',
  'POST /api/team/link/accept': 'public',
  // every member's own name and password
  'PATCH /api/profile': 'viewer',
  // the landing page's messages reach the operator's managers only
  'GET /api/contact/messages': 'manager',
  // the installation's automatic backups, for its operator's managers (decision 029)
  'GET /api/backups': 'manager',
  'POST /api/backups': 'manager',

  // storage billing (issue 28): amounts are for the Office role and Managers only, never Floor or Viewer
  'GET /api/storage-accounts': 'office',
  'GET /api/storage-accounts/not-billed': 'office',
  'POST /api/storage-accounts': 'office',
  'POST /api/storage-accounts/bulk': 'office',
  'GET /api/storage-accounts/:id': 'office',
  'PATCH /api/storage-accounts/:id': 'office',
  'GET /api/storage-accounts/:id/statement': 'office',
  'GET /api/billing/settings': 'office',
  'PUT /api/billing/settings': 'office',
  'GET /api/billing/rates': 'office',
  'POST /api/billing/rates': 'office',
  // a rate's correction, by whoever adds rates; the server keeps the ones issued invoices used
  'PUT /api/billing/rates/:id': 'office',
  'DELETE /api/billing/rates/:id': 'office',
  'POST /api/billing/runs/dry-run': 'office',
  'POST /api/billing/runs': 'office',
  'GET /api/billing/aging': 'office',
  'GET /api/invoices': 'office',
  'GET /api/invoices/:id': 'office',
  'POST /api/invoices/:id/credit-notes': 'office',
  'POST /api/invoices/:id/void': 'office',
  'GET /api/payments': 'office',
  'POST /api/payments': 'office',
  'GET /api/invoices/:id/invoice.pdf': 'office',
  'GET /api/storage-accounts/:id/statement.pdf': 'office',
  'GET /api/storage-accounts/:id/sit-notice.pdf': 'office',
  'GET /api/billing/export/:file': 'office',
  // holds (decision 039): putting an overdue account on hold is billing work; which units are held shows no amount,
  // so every member reads it for the badge
  'POST /api/storage-accounts/:id/hold': 'office',
  'DELETE /api/storage-accounts/:id/hold': 'office',
  'GET /api/holds': 'viewer',
  // the dashboard's billing card and the statistics' revenue
  'GET /api/billing/overview': 'office',

  // API tokens and webhooks (issue 31, decision 044): they open the company's data to other programs
  'GET /api/api-tokens': 'manager',
  'POST /api/api-tokens': 'manager',
  'DELETE /api/api-tokens/:id': 'manager',
  'GET /api/webhooks': 'manager',
  'POST /api/webhooks': 'manager',
  'PATCH /api/webhooks/:id': 'manager',
  'DELETE /api/webhooks/:id': 'manager',
  'GET /api/webhooks/:id/deliveries': 'manager',
  'POST /api/webhooks/:id/test': 'manager',
  // customers and their portal links (issue 29): the office's work, like billing
  'GET /api/customers': 'office',
  'POST /api/customers': 'office',
  'PATCH /api/customers/:id': 'office',
  'POST /api/customers/:id/portal-link': 'office',
  // the customer portal: the link is its own key; everything else needs a portal session, which no staff cookie is
  'POST /api/portal/sign-in': 'public',
  'POST /api/portal/sign-out': 'public',
  'GET /api/portal/me': 'portal',
  'GET /api/portal/units': 'portal',
  'GET /api/portal/invoices': 'portal',
  'GET /api/portal/invoices/:id/invoice.pdf': 'portal',

  // condition inventories (issue 29, decision 049): the crew takes them, every member reads and prints them, the
  // company's own codes are a Manager's; the portal customer reads the inventories of their own units
  'GET /api/vaults/:id/inventory': 'viewer',
  'GET /api/vaults/:id/inventory.pdf': 'viewer',
  'GET /api/inventory-codes': 'viewer',
  'POST /api/vaults/:id/inventory/items': 'floor',
  'PATCH /api/inventory-items/:id': 'floor',
  'DELETE /api/inventory-items/:id': 'floor',
  'POST /api/vaults/:id/inventory/photos': 'floor',
  'DELETE /api/inventory-photos/:id': 'floor',
  'POST /api/vaults/:id/inventory/signatures': 'floor',
  'POST /api/inventory-codes': 'manager',
  'DELETE /api/inventory-codes/:id': 'manager',
  'GET /api/portal/units/:id/inventory': 'portal',
  'GET /api/portal/inventory-photos/:id': 'portal',
  'GET /api/customers/:id/units': 'office',
  // customers' requests and the load-out check (issue 29, decision 048): the office takes and schedules them; the
  // crew (Floor) scans units onto the truck; reading the load-out is for every member; marking a request delivered
  // is for the crew and the office alike, decided in the service (Floor, Office or Manager)
  'GET /api/requests': 'office',
  'POST /api/requests': 'office',
  'GET /api/requests/:id': 'office',
  'POST /api/requests/:id/schedule': 'office',
  'POST /api/requests/:id/cancel': 'office',
  'POST /api/requests/:id/delivered': 'viewer',
  'GET /api/requests/:id/load-out': 'viewer',
  'POST /api/requests/:id/load-scans': 'floor',
  'POST /api/requests/:id/load': 'floor',
  'GET /api/portal/requests': 'portal',
  'POST /api/portal/requests': 'portal',
  'POST /api/portal/requests/:id/cancel': 'portal',
};

/** The declared need of one route; undefined for a route outside the API (the web app's files). */
export function roleOf(method: string, url: string): RoleRequirement | undefined {
  return ROUTE_ROLES[`${method} ${url}`];
}

// Fastify adds a HEAD twin for every GET
const SKIPPED_METHODS = new Set(['HEAD', 'OPTIONS']);

/**
 * Guards every API route by its declared role: checked as soon as the session is read, before the body, so a refused
 * upload is never read. A route added without a declaration stops the server at start-up, by name.
 */
export function guardRoutesByRole(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    for (const method of [route.method].flat()) {
      if (SKIPPED_METHODS.has(method)) continue;
      if (!roleOf(method, route.url))
        throw new Error(`The route ${method} ${route.url} declares no role: add it to ROUTE_ROLES.`);
    }
  });
  app.addHook('onRequest', async (request) => {
    const { url, method } = request.routeOptions;
    if (!url) return;
    const needed = roleOf(method === 'HEAD' ? 'GET' : String(method), url);
    if (!needed || needed === 'public') return;
    // a customer's portal session (issue 29): no staff session counts, and a portal session reaches nothing else
    if (needed === 'portal') {
      if (!request.portalCustomer) throw unauthorized();
      return;
    }
    if (!request.user) throw unauthorized();
    if (!roleAllows(request.user.role, needed)) throw forbidden(roleRefusal(needed));
  });
}

/** Refuses a caller whose role is below `needed`, for routes that decide by what they are asked (403). */
export function requireRole(user: { role: Role }, needed: Role) {
  if (!roleAllows(user.role, needed)) throw forbidden(roleRefusal(needed));
}
