import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChecklistDto } from '@domain/schemas/checklist.schema';
import type { TeamDto } from '@domain/schemas/team.schema';
import { ROLES, type Role, roleAllows } from '@domain/rules/roles';
import { roleOf } from '../auth/route-roles';
import { tokenRefusedOn } from '../auth/session.plugin';
import { buildAccount, buildRack, buildStagedVault, buildVault, buildWarehouse } from '../factories';
import { EventIdTokens } from '../events/event-id-token';
import { DEMO_LOGIN, seedDemoIfEmpty } from '../demo-seed';
import { multipartBody } from './multipart-body';
import { pngImage } from './test-images';
import { type CompanyIds, collectCompanyIds } from './company-ids';
import { type DatabaseSnapshot, companyEventIds, snapshotDatabase } from './database-snapshot.repo';
import { type ApiRoute, apiRoutes } from './route-table';
import { type SignedIn, signIn, testEngines } from './test-app';
import { useTestApp } from './use-test-app';

/** What a probe may name of company A: real ids, or ids that exist nowhere (to compare "not yours" with "not there"). */
interface Targets extends CompanyIds {
  email: string;
  /** A's member (the demo user) */
  memberId: number;
  /** an open invitation link of A's */
  linkId: number;
  attachmentId: number;
  /** a spreadsheet import of A's (one staged vault) */
  importId: number;
  /** the secret of A's checklist fill-in link, as A's staff are shown it */
  checklistKey: string;
  /** a pull list of A's (issue 16), of this order */
  pullListId: number;
  pullOrderName: string;
  /** the code in the QR link of the label of A's placed vault */
  vaultLabelCode: string;
  /** a warehouse check of A's (issue 15), still open */
  checkId: number;
  /** a finished download of A's company file (issue 25) */
  companyFileJobId: number;
  /** A's storage account (issue 28), its issued invoice, and an order of A's without an account */
  storageAccountId: number;
  invoiceId: number;
  unbilledOrderId: number;
  /** a rate of A's this month's invoice used */
  rateId: number;
  /** an API token and a webhook endpoint of A's (issue 31) */
  apiTokenId: number;
  webhookId: number;
  /** A's customer with an address (issue 29), the one of A's placed vault */
  customerId: number;
  /** an item and a photo of the inventory of A's placed vault, and A's own condition code (decision 049) */
  inventoryItemId: number;
  inventoryPhotoId: number;
  inventoryCodeId: number;
  /** a delivery request of A's customer, for A's placed vault (issue 29, decision 048) */
  requestId: number;
}

/** Company B's own things, for requests that mix B's and A's ids. */
interface Own {
  companyId: number;
  warehouseId: number;
  fieldId: number;
  freePosition: number;
  placedVaultId: number;
  stagedVaultId: number;
  rackId: number;
}

interface Probe {
  label: string;
  url: string;
  payload?: unknown;
  multipart?: Parameters<typeof multipartBody>;
  /**
   * What a signed-in user of company B gets: 'hidden' = 404, the same answer as for ids that exist nowhere;
   * a status = B's own scope answers it; 'stream' = the live event stream, checked over a real socket below.
   */
  asOther?: 'hidden' | 'stream' | number;
  /** status for a signed-out caller (default 401); null = not sent here, a test below covers it */
  asSignedOut?: number | null;
  /** texts of company A that a signed-out caller may see in this answer */
  mayShow?: (t: Targets) => string[];
  /** run with a throw-away session of B (the probe ends it) */
  freshSession?: boolean;
  /** carries A's fill-in link key: whoever holds the link may see `mayShow`, signed in to B or not */
  withKey?: boolean;
  /** the role a signed-in caller needs, when a public route decides by what it is asked (a checklist answer or edit) */
  roleNeeded?: Role;
}

type Recipe = (t: Targets, own: Own) => Probe[];

const BRAVO_VAULT = {
  vault_id: 'B-100',
  customer_name: 'BRAVO CUSTOMER',
  order_name: 'B-ORD-1',
  type: 'vault',
  note: 'bravo',
};
const gridChange = (t: Targets, opperation: 'plus' | 'minus') => ({
  warehouse_id: t.warehouseId,
  direction: opperation === 'plus' ? 'right' : 'bottom',
  opperation,
  count: 1,
  warehouse_cols: 9,
  warehouse_rows: 12,
});
/** A spreadsheet with one vault row (warehouse, field, position, then customer, order, note) as an import form. */
const importProbe = (
  [customer, order, note]: [string, string, string],
  place: [string, string, string] = ['', '', ''],
): Parameters<typeof multipartBody> => [
  {},
  {
    file: {
      fileName: 'import.csv',
      contentType: 'text/csv',
      content: Buffer.from(
        `Warehouse,Field,Position,Vault Number,Customer,Order,Type,Note\r\n${place.join(',')},,${customer},${order},vault,${note}\r\n`,
      ),
    },
  },
];
/** A pallet spreadsheet with one row onto shelf 1 of rack 'R1' of the named warehouse. */
const palletProbe = (warehouse: string): Parameters<typeof multipartBody> => [
  {},
  {
    file: {
      fileName: 'pallets.csv',
      contentType: 'text/csv',
      content: Buffer.from(
        `Warehouse,Rack,Shelf,Slot,Customer,Pallet Name,Pallet Number,Spaces,Weight,Notes\r\n${warehouse},R1,1,1,BRAVO,B,B-1,1,10,bravo\r\n`,
      ),
    },
  },
];
const openTasks = (c: ChecklistDto) => c.tasks.filter((task) => !task.completed);
/** A delivery request of A's placed vault (issue 29). */
const requestBody = (t: Targets) => ({
  kind: 'delivery',
  vault_ids: [t.placedVaultId],
  wished_date: '2030-05-01',
  address: '1 Alpha Street',
});

/**
 * One recipe per API route. A route the server answers without a recipe here fails the coverage test by name,
 * so a new route cannot ship without its isolation check.
 */
const RECIPES: Record<string, Recipe> = {
  'GET /api/auth/': () => [{ label: 'who am I', url: '/api/auth/', asOther: 200 }],
  'POST /api/auth/login': (t) => [
    {
      label: "A's email with a wrong password",
      url: '/api/auth/login',
      payload: { email: t.email, password: 'not-the-password' },
      asOther: 401,
      asSignedOut: 401,
    },
  ],
  'GET /api/auth/logout': () => [
    { label: 'sign out', url: '/api/auth/logout', asOther: 200, asSignedOut: 200, freshSession: true },
  ],
  'POST /api/auth/logout': () => [
    {
      label: 'sign out by POST',
      url: '/api/auth/logout',
      asOther: 200,
      asSignedOut: 200,
      freshSession: true,
    },
  ],
  'GET /api/health': () => [{ label: 'health', url: '/api/health', asOther: 200, asSignedOut: 200 }],
  'GET /api/openapi.json': () => [{ label: 'the API document', url: '/api/openapi.json', asOther: 200 }],
  'GET /api/warehouse/company/:companyId': (t, own) => [
    { label: "A's company", url: `/api/warehouse/company/${t.companyId}` },
    { label: "B's company", url: `/api/warehouse/company/${own.companyId}`, asOther: 200 },
  ],
  'GET /api/warehouse/:id': (t) => [{ label: "A's warehouse", url: `/api/warehouse/${t.warehouseId}` }],
  'GET /api/warehouse/:warehouseId/:fieldId': (t, own) => [
    { label: "A's field", url: `/api/warehouse/${t.warehouseId}/${t.fieldId}` },
    { label: "A's field under B's warehouse", url: `/api/warehouse/${own.warehouseId}/${t.fieldId}` },
    { label: "B's field under A's warehouse", url: `/api/warehouse/${t.warehouseId}/${own.fieldId}` },
  ],
  'POST /api/warehouse/add-warehouse': () => [
    {
      label: 'a warehouse of its own',
      url: '/api/warehouse/add-warehouse',
      payload: { name: 'Bravo Depot', rows: 2, cols: 2, field_capacity: 3, length: 50, width: 50 },
      asOther: 201,
    },
  ],
  'DELETE /api/warehouse/:id': (t) => [{ label: "A's warehouse", url: `/api/warehouse/${t.warehouseId}` }],
  'PATCH /api/fields/:id': (t) => [
    {
      label: "A's field to couchbox",
      url: `/api/fields/${t.fieldId}`,
      payload: { type: 'couchbox', field2: t.fieldBelowName, warehouseId: t.warehouseId },
    },
  ],
  'PATCH /api/fields/:id/full': (t) => [
    { label: "A's field full", url: `/api/fields/${t.fieldId}/full`, payload: { full: true } },
  ],
  'POST /api/vaults/': (t) => addVaultProbes('/api/vaults/', t),
  'POST /api/vaults': (t) => addVaultProbes('/api/vaults', t),
  'PUT /api/vaults/move': (t, own) => [
    {
      label: "A's staged vault into A's field",
      url: '/api/vaults/move',
      payload: { vaultId: t.stagedVaultId, fieldId: t.fieldId, position: t.freePosition },
    },
    {
      label: "B's vault into A's field",
      url: '/api/vaults/move',
      payload: { vaultId: own.stagedVaultId, fieldId: t.fieldId, position: t.freePosition },
    },
    {
      label: "A's staged vault into B's field",
      url: '/api/vaults/move',
      payload: { vaultId: t.stagedVaultId, fieldId: own.fieldId, position: own.freePosition },
    },
    {
      label: "A's placed vault into B's field",
      url: '/api/vaults/move',
      payload: { vaultId: t.placedVaultId, fieldId: own.fieldId, position: own.freePosition },
    },
  ],
  'POST /api/vaults/upload': (t) => [
    {
      label: "a file for A's vault",
      url: '/api/vaults/upload',
      multipart: [
        { vault_id: t.placedVaultId },
        { attachment: { fileName: 'bravo.txt', contentType: 'text/plain', content: Buffer.from('bravo') } },
      ],
    },
  ],
  'GET /api/scan/vaults/:id': (t) => [
    { label: "A's placed vault", url: `/api/scan/vaults/${t.placedVaultId}` },
    { label: "A's staged vault", url: `/api/scan/vaults/${t.stagedVaultId}` },
  ],
  'GET /api/vaults/:id': (t) => [
    { label: "A's placed vault", url: `/api/vaults/${t.placedVaultId}` },
    { label: "A's staged vault", url: `/api/vaults/${t.stagedVaultId}` },
  ],
  'PUT /api/vaults/:id': (t) => [
    {
      label: "A's vault",
      url: `/api/vaults/${t.placedVaultId}`,
      payload: { name: 'B-1', customer_name: 'BRAVO', order_name: 'B-ORD', note: 'x' },
    },
  ],
  'DELETE /api/vaults/:id': (t) => [
    { label: "A's placed vault", url: `/api/vaults/${t.placedVaultId}` },
    { label: "A's staged vault", url: `/api/vaults/${t.stagedVaultId}` },
  ],
  'POST /api/import/vaults/dry-run': (t) => [
    {
      label: "a file naming A's warehouse and field",
      url: '/api/import/vaults/dry-run',
      multipart: importProbe(
        ['BRAVO', 'B-ORD', 'bravo'],
        [t.warehouseName, t.fieldName, String(t.freePosition)],
      ),
      asOther: 200,
    },
  ],
  'POST /api/import/vaults': (t) => [
    {
      label: "a file naming A's warehouse and field",
      url: '/api/import/vaults',
      multipart: importProbe(
        ['BRAVO', 'B-ORD', 'bravo'],
        [t.warehouseName, t.fieldName, String(t.freePosition)],
      ),
      asOther: 400,
    },
  ],
  'POST /api/import/pallets/dry-run': (t) => [
    {
      label: "a file naming A's warehouse",
      url: '/api/import/pallets/dry-run',
      multipart: palletProbe(t.warehouseName),
      asOther: 200,
    },
  ],
  'POST /api/import/pallets': (t) => [
    {
      label: "a file naming A's warehouse",
      url: '/api/import/pallets',
      multipart: palletProbe(t.warehouseName),
      asOther: 400,
    },
  ],
  'GET /api/imports': () => [{ label: "B's imports", url: '/api/imports', asOther: 200 }],
  'POST /api/imports/:id/undo': (t) => [{ label: "A's import", url: `/api/imports/${t.importId}/undo` }],
  'GET /api/import/templates/:file': () => [
    { label: 'the CSV template', url: '/api/import/templates/vaults.csv', asOther: 200 },
  ],
  'GET /api/export/:file': () => [
    { label: "B's vaults as CSV", url: '/api/export/vaults.csv', asOther: 200 },
    { label: "B's vaults as XLSX", url: '/api/export/vaults.xlsx', asOther: 200 },
    { label: "B's pallets as CSV", url: '/api/export/pallets.csv', asOther: 200 },
  ],
  'POST /api/export/print-vaults.xlsx': (t, own) => [
    {
      label: "A's vault ids among B's",
      url: '/api/export/print-vaults.xlsx',
      payload: { ids: [own.placedVaultId, t.placedVaultId, t.stagedVaultId] },
      asOther: 200,
    },
  ],
  'GET /api/stage/vaults': () => [{ label: "B's stage", url: '/api/stage/vaults', asOther: 200 }],
  'POST /api/stage/vaults/:id': (t) => [
    { label: "A's topmost vault", url: `/api/stage/vaults/${t.placedVaultId}` },
  ],
  'GET /api/pull-lists': () => [{ label: "B's pull lists", url: '/api/pull-lists', asOther: 200 }],
  'POST /api/pull-lists': (t) => [
    // B's own scope has no such order: the same answer as for any order B does not have
    {
      label: "a list of A's order",
      url: '/api/pull-lists',
      payload: { order_name: t.pullOrderName },
      asOther: 400,
    },
  ],
  'GET /api/pull-lists/:id': (t) => [{ label: "A's pull list", url: `/api/pull-lists/${t.pullListId}` }],
  'POST /api/pull-lists/:id/steps': (t) => [
    {
      label: "a step of A's pull list",
      url: `/api/pull-lists/${t.pullListId}/steps`,
      payload: { vault_id: t.placedVaultId, action: 'pulled' },
    },
  ],
  'GET /api/released-vaults': (t) => [
    // B's own released vaults only, whatever the search names of A's
    {
      label: "B's released vaults by A's order",
      url: `/api/released-vaults?q=${encodeURIComponent(t.pullOrderName)}`,
      asOther: 200,
    },
  ],
  'GET /api/search': (t) => [
    // B's own company only, whatever the text names of A's
    {
      label: "B's find by A's order",
      url: `/api/search?q=${encodeURIComponent(t.pullOrderName)}`,
      asOther: 200,
    },
    { label: "B's find by A's field", url: `/api/search?q=${t.fieldName}`, asOther: 200 },
  ],
  'POST /api/pull-lists/:id/release': (t) => [
    { label: "A's pull list", url: `/api/pull-lists/${t.pullListId}/release` },
  ],
  'DELETE /api/pull-lists/:id': (t) => [{ label: "A's pull list", url: `/api/pull-lists/${t.pullListId}` }],
  'GET /api/checks': () => [{ label: "B's checks", url: '/api/checks', asOther: 200 }],
  'POST /api/checks': (t, own) => [
    { label: "a check of A's warehouse", url: '/api/checks', payload: { warehouse_id: t.warehouseId } },
    {
      label: "A's field in a check of B's warehouse",
      url: '/api/checks',
      payload: { warehouse_id: own.warehouseId, field_ids: [t.fieldId] },
      asOther: 400,
    },
  ],
  'GET /api/checks/:id': (t) => [{ label: "A's check", url: `/api/checks/${t.checkId}` }],
  // storage billing (issue 28): B sees and bills only its own accounts
  'GET /api/storage-accounts': () => [{ label: "B's accounts", url: '/api/storage-accounts', asOther: 200 }],
  'GET /api/storage-accounts/not-billed': () => [
    { label: "B's unbilled orders", url: '/api/storage-accounts/not-billed', asOther: 200 },
  ],
  'POST /api/storage-accounts': (t) => [
    {
      label: "an account for A's order",
      url: '/api/storage-accounts',
      payload: { order_ids: [t.unbilledOrderId], kind: 'permanent' },
    },
  ],
  'POST /api/storage-accounts/bulk': (t) => [
    {
      label: "accounts for A's order",
      url: '/api/storage-accounts/bulk',
      payload: { order_ids: [t.unbilledOrderId] },
    },
  ],
  'GET /api/storage-accounts/:id': (t) => [
    { label: "A's account", url: `/api/storage-accounts/${t.storageAccountId}` },
  ],
  'PATCH /api/storage-accounts/:id': (t) => [
    {
      label: "A's account",
      url: `/api/storage-accounts/${t.storageAccountId}`,
      payload: { kind: 'permanent', bill_to_name: 'Bravo Takes Over', version: 1 },
    },
  ],
  'GET /api/storage-accounts/:id/statement': (t) => [
    { label: "A's statement", url: `/api/storage-accounts/${t.storageAccountId}/statement` },
  ],
  'GET /api/billing/settings': () => [{ label: "B's settings", url: '/api/billing/settings', asOther: 200 }],
  'PUT /api/billing/settings': () => [
    {
      label: "B's settings",
      url: '/api/billing/settings',
      payload: {
        currency: 'USD',
        tax_basis_points: 0,
        sit_days_default: 90,
        payment_terms_days: 30,
        hold_after_days: 60,
      },
      asOther: 200,
    },
  ],
  'GET /api/billing/rates': () => [{ label: "B's rates", url: '/api/billing/rates', asOther: 200 }],
  'PUT /api/billing/rates/:id': (t) => [
    {
      label: "A's rate",
      url: `/api/billing/rates/${t.rateId}`,
      payload: { kind: 'storage', unit_type: 'vault', amount: 1, effective_from: '2030-01-01' },
    },
  ],
  'DELETE /api/billing/rates/:id': (t) => [{ label: "A's rate", url: `/api/billing/rates/${t.rateId}` }],
  'POST /api/billing/rates': (t, own) => [
    {
      label: "a rate for A's account",
      url: '/api/billing/rates',
      payload: {
        kind: 'storage',
        unit_type: 'vault',
        account_id: t.storageAccountId,
        amount: 1,
        effective_from: '2030-01-01',
      },
    },
    {
      label: "a rate for A's warehouse",
      url: '/api/billing/rates',
      payload: {
        kind: 'storage',
        unit_type: 'vault',
        warehouse_id: t.warehouseId,
        amount: 1,
        effective_from: '2030-01-01',
      },
    },
    {
      label: "B's own rate",
      url: '/api/billing/rates',
      payload: {
        kind: 'storage',
        unit_type: 'vault',
        warehouse_id: own.warehouseId,
        amount: 1,
        effective_from: '2030-01-01',
      },
      asOther: 201,
    },
  ],
  'POST /api/billing/runs/dry-run': () => [
    {
      label: "B's own month",
      url: '/api/billing/runs/dry-run',
      payload: { period: new Date().toISOString().slice(0, 7) },
      asOther: 200,
    },
  ],
  'POST /api/billing/runs': () => [
    {
      label: "B's own month",
      url: '/api/billing/runs',
      payload: { period: new Date().toISOString().slice(0, 7) },
      asOther: 201,
    },
  ],
  'GET /api/billing/aging': () => [{ label: "B's aging", url: '/api/billing/aging', asOther: 200 }],
  'GET /api/billing/overview': () => [
    { label: "B's billing overview", url: '/api/billing/overview', asOther: 200 },
  ],
  'POST /api/storage-accounts/:id/hold': (t) => [
    { label: "a hold on A's account", url: `/api/storage-accounts/${t.storageAccountId}/hold` },
  ],
  'DELETE /api/storage-accounts/:id/hold': (t) => [
    { label: "lifting a hold of A's account", url: `/api/storage-accounts/${t.storageAccountId}/hold` },
  ],
  'GET /api/holds': () => [{ label: "B's units on hold", url: '/api/holds', asOther: 200 }],
  'GET /api/invoices': (t) => [
    { label: "B's invoices", url: '/api/invoices', asOther: 200 },
    {
      label: "B's invoices filtered by A's account",
      url: `/api/invoices?account_id=${t.storageAccountId}`,
      asOther: 200,
    },
  ],
  'GET /api/invoices/:id': (t) => [{ label: "A's invoice", url: `/api/invoices/${t.invoiceId}` }],
  'POST /api/invoices/:id/credit-notes': (t) => [
    { label: "A's invoice", url: `/api/invoices/${t.invoiceId}/credit-notes`, payload: { reason: 'bravo' } },
  ],
  'POST /api/invoices/:id/void': (t) => [
    { label: "A's invoice", url: `/api/invoices/${t.invoiceId}/void`, payload: { reason: 'bravo' } },
  ],
  'GET /api/invoices/:id/invoice.pdf': (t) => [
    { label: "A's invoice PDF", url: `/api/invoices/${t.invoiceId}/invoice.pdf` },
  ],
  'GET /api/storage-accounts/:id/statement.pdf': (t) => [
    { label: "A's statement PDF", url: `/api/storage-accounts/${t.storageAccountId}/statement.pdf` },
  ],
  'GET /api/storage-accounts/:id/sit-notice.pdf': (t) => [
    { label: "A's SIT notice", url: `/api/storage-accounts/${t.storageAccountId}/sit-notice.pdf` },
  ],
  'GET /api/billing/export/:file': () => [
    { label: "B's journal", url: '/api/billing/export/journal.csv', asOther: 200 },
    { label: "B's invoices workbook", url: '/api/billing/export/invoices.xlsx', asOther: 200 },
  ],
  'GET /api/payments': () => [{ label: "B's payments", url: '/api/payments', asOther: 200 }],
  'POST /api/payments': (t) => [
    {
      label: "a payment on A's account",
      url: '/api/payments',
      payload: { account_id: t.storageAccountId, paid_on: '2026-01-01', amount: 100, method: 'check' },
    },
  ],
  'GET /api/checks/:id/report.csv': (t) => [
    { label: "A's check report", url: `/api/checks/${t.checkId}/report.csv` },
  ],
  'GET /api/checks/:id/report.pdf': (t) => [
    { label: "A's check report", url: `/api/checks/${t.checkId}/report.pdf` },
  ],
  'POST /api/checks/:id/scans': (t) => [
    {
      label: "a scan into A's check",
      url: `/api/checks/${t.checkId}/scans`,
      payload: { text: t.fieldName, field_id: t.fieldId },
    },
  ],
  // B's Manager starts and follows B's own download; A's finished file stays hidden
  'POST /api/company-file/jobs': () => [
    { label: "B's own company file", url: '/api/company-file/jobs', asOther: 202 },
  ],
  'GET /api/company-file/jobs/latest': () => [
    { label: "B's own latest company file", url: '/api/company-file/jobs/latest', asOther: 200 },
  ],
  'GET /api/company-file/jobs/:id/download': (t) => [
    { label: "A's company file", url: `/api/company-file/jobs/${t.companyFileJobId}/download` },
  ],
  'POST /api/checks/:id/finish': (t) => [{ label: "A's check", url: `/api/checks/${t.checkId}/finish` }],
  'POST /api/checks/:id/cancel': (t) => [{ label: "A's check", url: `/api/checks/${t.checkId}/cancel` }],
  'POST /api/checks/:id/fields/:fieldId/recount': (t, own) => [
    { label: "a field of A's check", url: `/api/checks/${t.checkId}/fields/${t.fieldId}/recount` },
    { label: "B's field in A's check", url: `/api/checks/${t.checkId}/fields/${own.fieldId}/recount` },
  ],
  'POST /api/checks/:id/resolve': (t) => [
    {
      label: "a discrepancy of A's check",
      url: `/api/checks/${t.checkId}/resolve`,
      payload: { vault_id: t.placedVaultId, action: 'searched' },
    },
  ],
  'POST /api/receiving/proposal': () => [
    {
      label: "a proposal in B's own fields",
      url: '/api/receiving/proposal',
      payload: { customer_name: 'BRAVO', order_name: 'B-IN', vaults: [{ type: 'vault' }] },
      asOther: 200,
    },
  ],
  'POST /api/receiving': (t) => [
    {
      label: "a shipment into A's field",
      url: '/api/receiving',
      payload: {
        customer_name: 'BRAVO',
        order_name: 'B-IN',
        vaults: [{ type: 'vault', field_id: t.fieldId }],
      },
    },
  ],
  'GET /api/attachments/:id': (t) => [{ label: "A's attachment", url: `/api/attachments/${t.attachmentId}` }],
  'DELETE /api/attachments/:id': (t) => [
    { label: "A's attachment", url: `/api/attachments/${t.attachmentId}` },
  ],
  'PATCH /api/warehouse/:id/edit-dimensions': (t) => [
    {
      label: "A's warehouse",
      url: `/api/warehouse/${t.warehouseId}/edit-dimensions`,
      payload: { field_capacity: 5, length: 10, width: 10 },
    },
  ],
  'PUT /api/warehouse/:id/field-grid': (t) => [
    {
      label: "A's warehouse",
      url: `/api/warehouse/${t.warehouseId}/field-grid`,
      payload: { fieldgridLocation: { x: 1, y: 1 } },
    },
  ],
  'POST /api/fields/': (t) => [
    { label: "a column for A's warehouse", url: '/api/fields/', payload: gridChange(t, 'plus') },
  ],
  'POST /api/fields': (t) => [
    { label: "a column for A's warehouse", url: '/api/fields', payload: gridChange(t, 'plus') },
  ],
  'DELETE /api/fields/': (t) => [
    { label: "a row of A's warehouse", url: '/api/fields/', payload: gridChange(t, 'minus') },
  ],
  'DELETE /api/fields': (t) => [
    { label: "a row of A's warehouse", url: '/api/fields', payload: gridChange(t, 'minus') },
  ],
  'GET /api/racks/warehouse/:id': (t) => [
    { label: "A's racks", url: `/api/racks/warehouse/${t.rackWarehouseId}` },
  ],
  'POST /api/racks/warehouse/:id/add': (t) => [
    {
      label: "a rack in A's warehouse",
      url: `/api/racks/warehouse/${t.rackWarehouseId}/add`,
      payload: {
        name: 'Bravo rack',
        capacity: 2,
        num_shelves: 1,
        width: 4,
        length: 4,
        orientation: 'horizontal',
        position: { x: 0, y: 0 },
      },
    },
  ],
  'PUT /api/racks/:warehouseId/rack/:rackId': (t, own) =>
    rackProbes(t, own, '', { position: { x: 1, y: 1, width: 12, length: 4 } }),
  'PATCH /api/racks/:warehouseId/rack/:rackId': (t, own) =>
    rackProbes(t, own, '', { name: 'Taken over', num_shelves: 1, capacity: 1 }),
  'DELETE /api/racks/:warehouseId/rack/:rackId/delete': (t, own) => rackProbes(t, own, '/delete'),
  'POST /api/racks/pallets': (t) => [
    {
      label: "a pallet on A's shelf",
      url: '/api/racks/pallets',
      payload: { shelf_id: t.shelfId, customer_name: 'BRAVO', shelf_spots: 1 },
    },
  ],
  'PUT /api/racks/pallets/:id/edit': (t) => [
    {
      label: "A's pallet",
      url: `/api/racks/pallets/${t.palletId}/edit`,
      payload: { customer_name: 'BRAVO', pallet_spaces: 1 },
    },
  ],
  'PUT /api/racks/pallets/:id/move': (t) => [
    { label: "A's pallet", url: `/api/racks/pallets/${t.palletId}/move`, payload: { shelf_id: t.shelfId } },
  ],
  'DELETE /api/pallets/:id/delete': (t) => [
    { label: "A's pallet", url: `/api/pallets/${t.palletId}/delete` },
  ],
  'GET /api/checklists/': () => [{ label: "B's checklists", url: '/api/checklists/', asOther: 200 }],
  'POST /api/checklists/': (t) => [
    {
      label: "a checklist for A's warehouse",
      url: '/api/checklists/',
      payload: { warehouse_id: t.warehouseId, description: 'bravo', tasks: ['bravo task'] },
    },
  ],
  'GET /api/checklists/warehouse/:name': (t) => [
    // the fill-in link opens with its key, signed out or signed in to any company; without it nobody but A sees it
    {
      label: "A's warehouse name without the key",
      url: `/api/checklists/warehouse/${encodeURIComponent(t.warehouseName)}`,
      asSignedOut: 404,
    },
    {
      label: "A's warehouse name as a link slug without the key",
      url: `/api/checklists/warehouse/${encodeURIComponent(slugOf(t.warehouseName))}`,
      asSignedOut: 404,
    },
    {
      label: "A's warehouse name with a wrong key",
      url: `/api/checklists/warehouse/${encodeURIComponent(slugOf(t.warehouseName))}?key=${wrongKey(t)}`,
      asSignedOut: 404,
    },
    {
      label: "A's fill-in link with its key",
      url: `/api/checklists/warehouse/${encodeURIComponent(slugOf(t.warehouseName))}?key=${t.checklistKey}`,
      asOther: 200,
      asSignedOut: 200,
      mayShow: checklistTexts,
      withKey: true,
    },
  ],
  'PATCH /api/checklists/:id': (t) => [
    {
      label: "an edit of A's checklist without the key",
      url: `/api/checklists/${t.checklist.id}`,
      payload: { description: 'Hacked', is_active: false, tasks: [{ text: 'Hacked task' }] },
      asSignedOut: 404,
      roleNeeded: 'manager',
    },
    {
      label: "an edit of A's checklist with the key",
      url: `/api/checklists/${t.checklist.id}?key=${t.checklistKey}`,
      payload: { description: 'Hacked', is_active: false, tasks: [{ text: 'Hacked task' }] },
      // signed in to B, a body without a name is B's own edit of a checklist B does not have
      asSignedOut: 403,
      roleNeeded: 'manager',
    },
    {
      label: "an answer to A's open task without the key (the finding: 200 with all of A's answers)",
      roleNeeded: 'floor',
      url: `/api/checklists/${t.checklist.id}`,
      payload: {
        filled_out_by: 'Mallory',
        tasks: openTasks(t.checklist).map((task) => ({ id: task.id, completed: true })),
      },
      asSignedOut: 404,
    },
    {
      label: "the finding's empty answer with a wrong key",
      roleNeeded: 'floor',
      url: `/api/checklists/${t.checklist.id}?key=${wrongKey(t)}`,
      payload: { filled_out_by: 'x', tasks: [] },
      asSignedOut: 404,
    },
    {
      label:
        'an answer with the key that tries to rewrite texts, reopen done tasks and switch the checklist off',
      roleNeeded: 'floor',
      url: `/api/checklists/${t.checklist.id}?key=${t.checklistKey}`,
      payload: {
        filled_out_by: 'Mallory',
        description: 'Hacked',
        is_active: false,
        warehouse_id: 1,
        tasks: t.checklist.tasks.map((task) => ({
          id: task.id,
          text: 'Hacked',
          completed: false,
          completed_by: 'Mallory',
          completed_at: null,
        })),
      },
      asOther: 403,
      asSignedOut: 403,
      withKey: true,
    },
  ],
  'POST /api/checklists/:id/key': (t) => [
    { label: "a new key for A's checklist", url: `/api/checklists/${t.checklist.id}/key` },
  ],
  'GET /api/contact/settings': () => [
    { label: 'form settings', url: '/api/contact/settings', asOther: 200, asSignedOut: 200 },
  ],
  'POST /api/contact': () => [
    {
      label: 'a message',
      url: '/api/contact',
      payload: { name: 'Bravo', email: 'bravo@example.test', message: 'Hello there' },
      asOther: 201,
      asSignedOut: 201,
    },
  ],
  // landing-page messages belong to the operator's company only
  'GET /api/contact/messages': () => [{ label: "the operator's inbox", url: '/api/contact/messages' }],
  // the installation's automatic backups hold every company: the operator's (A's) managers only
  'GET /api/backups': () => [{ label: "the installation's backups", url: '/api/backups' }],
  'POST /api/backups': () => [{ label: 'a backup of the installation', url: '/api/backups' }],
  'GET /api/vaults/all': () => [{ label: "B's print list", url: '/api/vaults/all', asOther: 200 }],
  'GET /api/scan': (t) => [
    { label: "A's vault label link", url: scanUrl(`https://site.test/v/${t.vaultLabelCode}`) },
    {
      label: "A's field label link",
      url: scanUrl(`/warehouse/${slugOf(t.warehouseName)}?field=${t.fieldName}`),
    },
    { label: "A's warehouse and field by name", url: scanUrl(`${t.warehouseName} ${t.fieldName}`) },
    { label: "a field name within A's warehouse", url: scanUrl(t.fieldName, t.warehouseId) },
  ],
  'POST /api/labels/vaults': (t, own) => [
    {
      label: "labels of A's vault",
      url: '/api/labels/vaults',
      payload: { format: 'avery-5160', vaultIds: [t.placedVaultId] },
    },
    {
      label: "labels of B's vault and A's",
      url: '/api/labels/vaults',
      payload: { format: 'thermal-2x1', vaultIds: [own.placedVaultId, t.stagedVaultId] },
    },
  ],
  'POST /api/labels/fields': (t) => [
    {
      label: "labels of A's fields",
      url: '/api/labels/fields',
      payload: { format: 'avery-5163', warehouseId: t.warehouseId },
    },
  ],
  'GET /api/labels/checklist-poster/:id': (t) => [
    { label: "the poster of A's checklist", url: `/api/labels/checklist-poster/${t.checklist.id}?format=a4` },
  ],
  'POST /api/scan/move': (t, own) => [
    {
      label: "A's staged vault into A's field",
      url: '/api/scan/move',
      payload: { vaultId: t.stagedVaultId, fieldId: t.fieldId },
    },
    {
      label: "B's vault into A's field",
      url: '/api/scan/move',
      payload: { vaultId: own.stagedVaultId, fieldId: t.fieldId },
    },
    {
      label: "A's vault into B's field",
      url: '/api/scan/move',
      payload: { vaultId: t.stagedVaultId, fieldId: own.fieldId },
    },
  ],
  'GET /api/events': () => [{ label: "B's live stream", url: '/api/events', asOther: 'stream' }],
  'GET /api/activity': (t) => [
    { label: "B's history", url: '/api/activity', asOther: 200 },
    {
      label: "B's history filtered by A's warehouse",
      url: `/api/activity?warehouse=${t.warehouseId}`,
      asOther: 200,
    },
    { label: "B's history filtered by A's member", url: `/api/activity?member=${t.memberId}`, asOther: 200 },
  ],
  'GET /api/activity/export': (t) => [
    { label: "B's history as CSV", url: `/api/activity/export?warehouse=${t.warehouseId}`, asOther: 200 },
  ],
  'GET /api/vaults/:id/history': (t) => [
    { label: "A's vault's timeline", url: `/api/vaults/${t.placedVaultId}/history` },
  ],
  'GET /api/team': () => [{ label: "B's team", url: '/api/team', asOther: 200 }],
  'POST /api/team/invites': () => [
    {
      label: 'an invitation into B',
      url: '/api/team/invites',
      payload: { email: 'bravo-new-member@example.test', role: 'floor' },
      asOther: 201,
    },
  ],
  'PATCH /api/team/members/:id': (t) => [
    {
      label: "A's member made a Viewer",
      url: `/api/team/members/${t.memberId}`,
      payload: { role: 'viewer' },
    },
    { label: "A's member deactivated", url: `/api/team/members/${t.memberId}`, payload: { active: false } },
  ],
  'POST /api/team/members/:id/reset-link': (t) => [
    { label: "a reset link for A's member", url: `/api/team/members/${t.memberId}/reset-link` },
  ],
  'GET /api/team/mails': () => [{ label: "B's mails", url: '/api/team/mails', asOther: 200 }],
  'DELETE /api/team/links/:id': (t) => [
    { label: "A's open invitation revoked", url: `/api/team/links/${t.linkId}` },
  ],
  'POST /api/team/link': () => [
    {
      label: 'a made-up link',
      url: '/api/team/link',
      payload: { token: 'made-up-token-of-nobody' },
      asOther: 404,
      asSignedOut: 404,
    },
  ],
  'POST /api/team/link/accept': () => [
    {
      label: 'a made-up link used',
      url: '/api/team/link/accept',
      payload: {
        token: 'made-up-token-of-nobody',
        name: 'Mallory',
        password: 'correct horse battery staple',
      },
      asOther: 404,
      asSignedOut: 404,
    },
  ],
  'PATCH /api/company': () => [
    { label: "B's own company's locale", url: '/api/company', payload: { locale: 'de-DE' }, asOther: 200 },
  ],
  // customers and the portal (issue 29)
  'GET /api/customers': () => [{ label: "B's customers", url: '/api/customers', asOther: 200 }],
  'POST /api/customers': () => [
    {
      label: 'a customer of B',
      url: '/api/customers',
      payload: { name: 'Bravo Portal Customer', email: 'bravo-portal@example.test' },
      asOther: 201,
    },
  ],
  'PATCH /api/customers/:id': (t) => [
    {
      label: "A's customer",
      url: `/api/customers/${t.customerId}`,
      payload: { email: 'mallory@example.test' },
    },
  ],
  'POST /api/customers/:id/portal-link': (t) => [
    { label: "a portal link for A's customer", url: `/api/customers/${t.customerId}/portal-link` },
  ],
  'POST /api/portal/sign-in': () => [
    {
      label: 'a made-up portal link',
      url: '/api/portal/sign-in',
      payload: { token: 'made-up-token-of-nobody' },
      asOther: 404,
      asSignedOut: 404,
    },
  ],
  'POST /api/portal/sign-out': () => [
    { label: 'portal sign-out', url: '/api/portal/sign-out', asOther: 204, asSignedOut: 204 },
  ],
  // a staff session is not a portal session, whichever company
  'GET /api/portal/me': () => [{ label: 'the portal customer', url: '/api/portal/me', asOther: 401 }],
  'GET /api/portal/units': () => [{ label: 'portal units', url: '/api/portal/units', asOther: 401 }],
  'GET /api/portal/invoices': () => [{ label: 'portal invoices', url: '/api/portal/invoices', asOther: 401 }],
  'GET /api/portal/invoices/:id/invoice.pdf': (t) => [
    {
      label: "A's invoice PDF in the portal",
      url: `/api/portal/invoices/${t.invoiceId}/invoice.pdf`,
      asOther: 401,
    },
  ],
  // condition inventories (issue 29, decision 049)
  'GET /api/vaults/:id/inventory': (t) => [
    { label: "A's unit's inventory", url: `/api/vaults/${t.placedVaultId}/inventory` },
  ],
  'GET /api/vaults/:id/inventory.pdf': (t) => [
    { label: "A's unit's inventory PDF", url: `/api/vaults/${t.placedVaultId}/inventory.pdf` },
  ],
  'POST /api/vaults/:id/inventory/items': (t) => [
    {
      label: "an item on A's unit",
      url: `/api/vaults/${t.placedVaultId}/inventory/items`,
      payload: { sticker: '900', description: 'Bravo crate' },
    },
  ],
  'PATCH /api/inventory-items/:id': (t) => [
    {
      label: "A's item ticked off",
      url: `/api/inventory-items/${t.inventoryItemId}`,
      payload: { delivered: true },
    },
  ],
  'DELETE /api/inventory-items/:id': (t) => [
    { label: "A's item", url: `/api/inventory-items/${t.inventoryItemId}` },
  ],
  'POST /api/vaults/:id/inventory/photos': (t) => [
    {
      label: "a photo of A's unit",
      url: `/api/vaults/${t.placedVaultId}/inventory/photos`,
      multipart: [
        {},
        { photo: { fileName: 'bravo.png', contentType: 'image/png', content: pngImage(8, 8) } },
      ],
    },
  ],
  'DELETE /api/inventory-photos/:id': (t) => [
    { label: "A's photo", url: `/api/inventory-photos/${t.inventoryPhotoId}` },
  ],
  'POST /api/vaults/:id/inventory/signatures': (t) => [
    {
      label: "a signature on A's unit",
      url: `/api/vaults/${t.placedVaultId}/inventory/signatures`,
      multipart: [
        { kind: 'pickup', signer: 'Mallory' },
        { signature: { fileName: 'sign.png', contentType: 'image/png', content: pngImage(8, 8) } },
      ],
    },
  ],
  'GET /api/inventory-codes': () => [{ label: "B's codes", url: '/api/inventory-codes', asOther: 200 }],
  'POST /api/inventory-codes': () => [
    {
      label: 'a code of its own',
      url: '/api/inventory-codes',
      payload: { code: 'BX', meaning: 'Bravo box' },
      asOther: 201,
    },
  ],
  'DELETE /api/inventory-codes/:id': (t) => [
    { label: "A's code", url: `/api/inventory-codes/${t.inventoryCodeId}` },
  ],
  'GET /api/portal/units/:id/inventory': (t) => [
    {
      label: "A's unit's inventory in the portal",
      url: `/api/portal/units/${t.placedVaultId}/inventory`,
      asOther: 401,
    },
  ],
  'GET /api/portal/inventory-photos/:id': (t) => [
    {
      label: "A's photo in the portal",
      url: `/api/portal/inventory-photos/${t.inventoryPhotoId}`,
      asOther: 401,
    },
  ],
  'GET /api/portal/requests': () => [{ label: 'portal requests', url: '/api/portal/requests', asOther: 401 }],
  'POST /api/portal/requests': (t) => [
    {
      label: "a portal request of A's unit",
      url: '/api/portal/requests',
      payload: requestBody(t),
      asOther: 401,
    },
  ],
  'POST /api/portal/requests/:id/cancel': (t) => [
    {
      label: "cancel A's request in the portal",
      url: `/api/portal/requests/${t.requestId}/cancel`,
      asOther: 401,
    },
  ],
  'GET /api/customers/:id/units': (t) => [
    { label: "units of A's customer", url: `/api/customers/${t.customerId}/units` },
  ],
  // customers' requests and the load-out (issue 29, decision 048)
  'GET /api/requests': () => [{ label: "B's requests", url: '/api/requests', asOther: 200 }],
  'POST /api/requests': (t) => [
    {
      label: "a request for A's customer and unit",
      url: '/api/requests',
      payload: { customer_id: t.customerId, ...requestBody(t) },
    },
  ],
  'GET /api/requests/:id': (t) => [{ label: "A's request", url: `/api/requests/${t.requestId}` }],
  'POST /api/requests/:id/schedule': (t) => [
    {
      label: "schedule A's request",
      url: `/api/requests/${t.requestId}/schedule`,
      payload: { date: '2030-05-02', crew: 'Bravo crew', truck: 'B-T1' },
    },
  ],
  'POST /api/requests/:id/cancel': (t) => [
    { label: "cancel A's request", url: `/api/requests/${t.requestId}/cancel` },
  ],
  'POST /api/requests/:id/delivered': (t) => [
    { label: "A's request delivered", url: `/api/requests/${t.requestId}/delivered` },
  ],
  'GET /api/requests/:id/load-out': (t) => [
    { label: "A's load-out", url: `/api/requests/${t.requestId}/load-out` },
  ],
  'POST /api/requests/:id/load-scans': (t) => [
    {
      label: "A's unit onto A's truck",
      url: `/api/requests/${t.requestId}/load-scans`,
      payload: { text: t.vaultLabelCode },
    },
  ],
  'POST /api/requests/:id/load': (t) => [
    {
      label: "A's load complete",
      url: `/api/requests/${t.requestId}/load`,
      payload: { override_reason: 'Bravo says so' },
    },
  ],
  'PATCH /api/profile': () => [
    { label: "B's own name", url: '/api/profile', payload: { name: 'Bravo Boss' }, asOther: 200 },
  ],
  // API tokens and webhooks (issue 31, decision 044)
  'GET /api/api-tokens': () => [{ label: "B's tokens", url: '/api/api-tokens', asOther: 200 }],
  'POST /api/api-tokens': () => [
    {
      label: 'a token of its own',
      url: '/api/api-tokens',
      payload: { name: 'Bravo sync', role: 'viewer' },
      asOther: 201,
    },
  ],
  'DELETE /api/api-tokens/:id': (t) => [
    { label: "A's token revoked", url: `/api/api-tokens/${t.apiTokenId}` },
  ],
  'GET /api/webhooks': () => [{ label: "B's endpoints", url: '/api/webhooks', asOther: 200 }],
  'POST /api/webhooks': () => [
    {
      label: 'an endpoint of its own',
      url: '/api/webhooks',
      payload: { url: 'https://bravo.example.test/hook', kinds: ['check.finished'] },
      asOther: 201,
    },
  ],
  'PATCH /api/webhooks/:id': (t) => [
    { label: "A's endpoint switched off", url: `/api/webhooks/${t.webhookId}`, payload: { enabled: false } },
    {
      label: "A's endpoint's kinds",
      url: `/api/webhooks/${t.webhookId}`,
      payload: { kinds: ['vault.moved'] },
    },
  ],
  'DELETE /api/webhooks/:id': (t) => [{ label: "A's endpoint", url: `/api/webhooks/${t.webhookId}` }],
  'GET /api/webhooks/:id/deliveries': (t) => [
    { label: "A's deliveries", url: `/api/webhooks/${t.webhookId}/deliveries` },
  ],
  'POST /api/webhooks/:id/test': (t) => [
    { label: "a test event to A's endpoint", url: `/api/webhooks/${t.webhookId}/test` },
  ],
};

function addVaultProbes(url: string, t: Targets): Probe[] {
  const fields = { ...BRAVO_VAULT, field_id: t.fieldId, position: t.freePosition };
  return [
    { label: "a vault in A's field (form data)", url, multipart: [fields] },
    { label: "a vault in A's field (JSON)", url, payload: fields },
    {
      label: "a vault in A's field naming A's company",
      url,
      payload: { ...fields, company_id: t.companyId },
    },
  ];
}

function rackProbes(t: Targets, own: Own, suffix: string, payload?: unknown): Probe[] {
  return [
    { label: "A's rack", url: `/api/racks/${t.rackWarehouseId}/rack/${t.rackId}${suffix}`, payload },
    {
      label: "A's rack under B's warehouse",
      url: `/api/racks/${own.warehouseId}/rack/${t.rackId}${suffix}`,
      payload,
    },
    {
      label: "B's rack under A's warehouse",
      url: `/api/racks/${t.rackWarehouseId}/rack/${own.rackId}${suffix}`,
      payload,
    },
  ];
}

const slugOf = (name: string) => name.toLowerCase().replace(/ /g, '-');
const scanUrl = (text: string, warehouseId?: number) =>
  `/api/scan?${new URLSearchParams({ text, ...(warehouseId ? { warehouseId: String(warehouseId) } : {}) })}`;
const wrongKey = (t: Targets) => `${t.checklistKey.slice(0, -2)}xx`;

function checklistTexts(t: Targets): string[] {
  return [
    t.warehouseName,
    t.checklist.description,
    ...t.checklist.tasks.flatMap((task) => [task.text, task.completed_by ?? '']),
  ].filter(Boolean);
}

/** The same shape with ids and names that exist in no company. */
function ghostOf(t: Targets): Targets {
  let next = 2_000_000_000;
  const ghost = () => (next += 1);
  return {
    ...t,
    companyId: ghost(),
    warehouseId: ghost(),
    warehouseName: 'No Such Warehouse',
    fieldId: ghost(),
    fieldName: 'ZZ98',
    fieldBelowName: 'ZZ99',
    placedVaultId: ghost(),
    stagedVaultId: ghost(),
    rackWarehouseId: ghost(),
    rackId: ghost(),
    shelfId: ghost(),
    palletId: ghost(),
    attachmentId: ghost(),
    memberId: ghost(),
    linkId: ghost(),
    pullListId: ghost(),
    checkId: ghost(),
    companyFileJobId: ghost(),
    storageAccountId: ghost(),
    invoiceId: ghost(),
    unbilledOrderId: ghost(),
    rateId: ghost(),
    apiTokenId: ghost(),
    webhookId: ghost(),
    customerId: ghost(),
    inventoryItemId: ghost(),
    inventoryPhotoId: ghost(),
    inventoryCodeId: ghost(),
    pullOrderName: 'NO-SUCH-ORDER',
    importId: ghost(),
    email: 'nobody-at-all@example.test',
    vaultLabelCode: 'AAAAAAAAAAAAAAAA',
    checklist: {
      ...t.checklist,
      id: ghost(),
      tasks: t.checklist.tasks.map((task) => ({ ...task, id: ghost() })),
    },
  };
}

function keyOfLink(fillInUrl: string | null | undefined): string {
  if (!fillInUrl) throw new Error('the checklist has no fill-in link');
  return new URL(fillInUrl, 'http://site.test').searchParams.get('key')!;
}

function toInject(method: string, probe: Probe): InjectOptions {
  if (probe.multipart) {
    const { payload, headers } = multipartBody(...probe.multipart);
    return { method: method as InjectOptions['method'], url: probe.url, payload, headers };
  }
  return {
    method: method as InjectOptions['method'],
    url: probe.url,
    ...(probe.payload === undefined ? {} : { payload: probe.payload as object }),
  };
}

function parse(res: LightMyRequestResponse): unknown {
  try {
    return res.json();
  } catch {
    return res.body;
  }
}

/** A's texts that must never reach another company: customers, orders, notes, names, descriptions, answers, emails. */
function secretsOf(snapshot: DatabaseSnapshot): string[] {
  const t = snapshot.company.tables;
  const texts = [
    snapshot.company.company.name,
    ...t.users.map((r) => r.email),
    ...t.warehouses.map((r) => r.name),
    ...t.customers.flatMap((r) => [r.name, r.email]),
    ...t.orders.map((r) => r.name),
    ...t.vaults.map((r) => r.note),
    ...t.attachments.map((r) => r.file_name),
    ...t.pallets.flatMap((r) => [r.name, r.notes, r.pallet_number]),
    ...t.racks.map((r) => r.name),
    ...t.checklists.map((r) => r.description),
    ...t.checklist_tasks.flatMap((r) => [r.text, r.completed_by, r.reason]),
  ];
  // placeholders ('EMPTY VAULT') and very short words are shared by every company
  return [
    ...new Set(
      texts
        .map((v) => (typeof v === 'string' ? v : ''))
        .filter((v) => v.length >= 4 && !v.startsWith('EMPTY')),
    ),
  ];
}

function leaksIn(body: unknown, secrets: string[], companyId: number): string[] {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const found = secrets.filter((s) => text.includes(s) || text.includes(JSON.stringify(s).slice(1, -1)));
  if (new RegExp(`"(companyId|company_id)":${companyId}[,}]`).test(text))
    found.push(`companyId ${companyId}`);
  return found;
}

describe.each(testEngines())('tenant isolation matrix on %s', (engine) => {
  const { ctx } = useTestApp(engine, { users: 0 });
  let a: SignedIn;
  let b: SignedIn;
  let targets: Targets;
  let own: Own;
  let before: DatabaseSnapshot;
  let secrets: string[];
  let routes: ApiRoute[];
  /** the token of a portal link of A's customer (issue 29) */
  let portalToken: string;

  const demoSession = () =>
    signIn(ctx, {
      email: DEMO_LOGIN.email,
      password: DEMO_LOGIN.password,
      companyName: DEMO_LOGIN.company,
      companyId: 0,
      userId: 0,
    });

  beforeAll(async () => {
    const db = ctx.database.db;
    await seedDemoIfEmpty(db);
    a = await demoSession();
    const ids = await collectCompanyIds(async (method, url) => {
      const res = await a.request({ method: method as InjectOptions['method'], url });
      return { status: res.statusCode, body: parse(res) };
    });
    const upload = await a.request(
      toInject('POST', {
        label: 'setup',
        url: '/api/vaults/upload',
        multipart: [
          { vault_id: ids.placedVaultId },
          {
            attachment: {
              fileName: 'alpha-inventory.txt',
              contentType: 'text/plain',
              content: Buffer.from('alpha secret'),
            },
          },
        ],
      }),
    );
    expect(upload.statusCode).toBe(201);
    const aPlaced = (await a.request({ method: 'GET', url: `/api/vaults/${ids.placedVaultId}` })).json() as {
      order_name: string | null;
    };
    const pullOrderName = aPlaced.order_name ?? 'NO-ORDER';
    const pullList = await a.request({
      method: 'POST',
      url: '/api/pull-lists',
      payload: { order_name: pullOrderName },
    });
    expect(pullList.statusCode).toBe(201);
    const imported = await a.request(
      toInject('POST', {
        label: 'setup',
        url: '/api/import/vaults',
        multipart: importProbe(['Alpha Imported Customer', 'ALPHA-IMP-1', 'alpha imported note']),
      }),
    );
    expect(imported.statusCode).toBe(201);
    const check = await a.request({
      method: 'POST',
      url: '/api/checks',
      payload: { warehouse_id: ids.warehouseId },
    });
    expect(check.statusCode).toBe(201);
    const companyFile = await a.request({ method: 'POST', url: '/api/company-file/jobs' });
    expect(companyFile.statusCode).toBe(202);
    for (let tries = 0; tries < 100; tries += 1) {
      const latest = await a.request({ method: 'GET', url: '/api/company-file/jobs/latest' });
      if ((latest.json() as { job: { status: string } }).job.status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const invited = await a.request({
      method: 'POST',
      url: '/api/team/invites',
      payload: { email: 'alpha-invited-member@example.test', role: 'floor' },
    });
    expect(invited.statusCode).toBe(201);
    const openLinks = (await a.request({ method: 'GET', url: '/api/team' })).json() as TeamDto;
    // storage billing (issue 28): an account for one of A's orders, a rate, and this month's invoice
    const notBilled = (
      await a.request({ method: 'GET', url: '/api/storage-accounts/not-billed' })
    ).json() as {
      order_id: number;
    }[];
    expect(notBilled.length).toBeGreaterThan(1);
    const storageAccount = await a.request({
      method: 'POST',
      url: '/api/storage-accounts',
      payload: { order_ids: [notBilled[0]!.order_id], kind: 'permanent', note: 'alpha billing note' },
    });
    expect(storageAccount.statusCode).toBe(201);
    const thisMonth = new Date().toISOString().slice(0, 7);
    let rateId = 0;
    for (const unit_type of ['vault', 'liftvan', 't2', 'couchbox']) {
      const added = await a.request({
        method: 'POST',
        url: '/api/billing/rates',
        // from this month: the demo company's past months are invoiced, and a rate never changes those
        payload: { kind: 'storage', unit_type, amount: 9900, effective_from: `${thisMonth}-01` },
      });
      expect(added.statusCode).toBe(201);
      rateId = (added.json() as { id: number; unit_type: string; amount: number }[]).find(
        (r) => r.unit_type === unit_type && r.amount === 9900,
      )!.id;
    }
    const billed = await a.request({
      method: 'POST',
      url: '/api/billing/runs',
      payload: { period: thisMonth },
    });
    expect(billed.statusCode).toBe(201);
    const billedInvoice = (billed.json() as { issued: { id: number }[] }).issued[0]!;
    // an API token and a webhook endpoint of A's (issue 31)
    const aToken = await a.request({
      method: 'POST',
      url: '/api/api-tokens',
      payload: { name: 'Alpha dispatch sync', role: 'floor' },
    });
    expect(aToken.statusCode).toBe(201);
    const aWebhook = await a.request({
      method: 'POST',
      url: '/api/webhooks',
      payload: { url: 'https://alpha-receiver.example.test/hook', kinds: ['vault.added'] },
    });
    expect(aWebhook.statusCode).toBe(201);
    // issue 29: the customer of A's placed vault gets an address and a portal link
    const customerName = (
      (await a.request({ method: 'GET', url: `/api/vaults/${ids.placedVaultId}` })).json() as {
        customer_name: string;
      }
    ).customer_name;
    const aCustomers = (await a.request({ method: 'GET', url: '/api/customers' })).json() as {
      id: number;
      name: string;
    }[];
    const customerId = aCustomers.find((c) => c.name === customerName)!.id;
    const withEmail = await a.request({
      method: 'PATCH',
      url: `/api/customers/${customerId}`,
      payload: { email: 'alpha-portal-customer@example.test' },
    });
    expect(withEmail.statusCode).toBe(200);
    const portalLink = await a.request({ method: 'POST', url: `/api/customers/${customerId}/portal-link` });
    expect(portalLink.statusCode).toBe(201);
    portalToken = (portalLink.json() as { url: string }).url.split('#')[1]!;
    // a condition inventory of A's placed vault with an item and a photo, and a code of A's own (decision 049)
    const aCodes = await a.request({
      method: 'POST',
      url: '/api/inventory-codes',
      payload: { code: 'AQ', meaning: 'Alpha quirk' },
    });
    expect(aCodes.statusCode).toBe(201);
    const aItem = await a.request({
      method: 'POST',
      url: `/api/vaults/${ids.placedVaultId}/inventory/items`,
      payload: { sticker: '1', description: 'Alpha heirloom piano', codes: ['AQ', 'SC'] },
    });
    expect(aItem.statusCode).toBe(201);
    const aPhoto = await a.request(
      toInject('POST', {
        label: 'setup',
        url: `/api/vaults/${ids.placedVaultId}/inventory/photos`,
        multipart: [
          {},
          { photo: { fileName: 'alpha-piano.png', contentType: 'image/png', content: pngImage(16, 16) } },
        ],
      }),
    );
    expect(aPhoto.statusCode).toBe(201);
    const aInventory = aPhoto.json() as { items: { id: number }[]; photos: { id: number }[] };
    const aRequest = await a.request({
      method: 'POST',
      url: '/api/requests',
      payload: {
        customer_id: customerId,
        kind: 'delivery',
        vault_ids: [ids.placedVaultId],
        wished_date: '2030-05-01',
        address: '1 Alpha Street',
      },
    });
    expect(aRequest.statusCode, aRequest.body).toBe(201);
    targets = {
      apiTokenId: (aToken.json() as { token: { id: number } }).token.id,
      webhookId: (aWebhook.json() as { endpoint: { id: number } }).endpoint.id,
      customerId,
      inventoryItemId: aInventory.items[0]!.id,
      inventoryPhotoId: aInventory.photos[0]!.id,
      inventoryCodeId: (aCodes.json() as { id: number | null; code: string }[]).find((c) => c.code === 'AQ')!
        .id!,
      requestId: (aRequest.json() as { id: number }).id,
      storageAccountId: (storageAccount.json() as { id: number }).id,
      invoiceId: billedInvoice.id,
      unbilledOrderId: notBilled[1]!.order_id,
      rateId,
      checkId: (check.json() as { id: number }).id,
      companyFileJobId: (companyFile.json() as { id: number }).id,
      ...ids,
      pullListId: (pullList.json() as { id: number }).id,
      pullOrderName,
      email: DEMO_LOGIN.email,
      memberId: ((await a.request({ method: 'GET', url: '/api/auth/' })).json() as { id: number }).id,
      linkId: openLinks.invites.find((i) => i.email === 'alpha-invited-member@example.test')!.id,
      attachmentId: (upload.json() as { attachment: { id: number } }).attachment.id,
      importId: (imported.json() as { id: number }).id,
      checklistKey: keyOfLink(ids.checklist.fill_in_url),
      vaultLabelCode: (
        await db
          .selectFrom('vaults')
          .select('label_code')
          .where('id', '=', ids.placedVaultId)
          .executeTakeFirstOrThrow()
      ).label_code!,
    };

    const account = await buildAccount(db, { company: 'Bravo Relocation' });
    b = await signIn(ctx, account);
    const warehouse = await buildWarehouse(db, {
      companyId: account.companyId,
      name: 'Bravo Storage',
      rows: 3,
      cols: 2,
    });
    const placed = await buildVault(db, {
      companyId: account.companyId,
      fieldId: warehouse.field('A1').id,
      customerName: 'BRAVO ONE',
      orderName: 'B-1',
      name: 'B1',
    });
    const staged = await buildStagedVault(db, {
      companyId: account.companyId,
      customerName: 'BRAVO STAGED',
      orderName: 'B-2',
      name: 'B2',
    });
    const rack = await buildRack(db, {
      companyId: account.companyId,
      warehouseId: warehouse.id,
      name: 'Bravo rack',
      shelves: 1,
      capacity: 2,
    });
    own = {
      companyId: account.companyId,
      warehouseId: warehouse.id,
      fieldId: warehouse.field('B1').id,
      freePosition: 3,
      placedVaultId: placed.id,
      stagedVaultId: staged.id,
      rackId: rack.id,
    };

    routes = apiRoutes(ctx.app);
    before = await snapshotDatabase(db, DEMO_LOGIN.company);
    secrets = [
      ...secretsOf(before),
      'Alpha dispatch sync',
      'alpha-receiver.example.test',
      'Alpha heirloom piano',
      'Alpha quirk',
    ];
  });

  it('has a recipe for every API route the server answers, and none for a route it does not', () => {
    const keys = new Set(routes.map((r) => r.key));
    expect(routes.filter((r) => !RECIPES[r.key]).map((r) => `no isolation recipe for ${r.key}`)).toEqual([]);
    expect(
      Object.keys(RECIPES)
        .filter((k) => !keys.has(k))
        .map((k) => `recipe for a route the server lacks: ${k}`),
    ).toEqual([]);
    expect(secrets.length).toBeGreaterThan(20);
  });

  it("answers another company's ids as if they did not exist, and signed-out callers with 401", async () => {
    const failures: string[] = [];
    const ghost = ghostOf(targets);
    let probes = 0;
    for (const route of routes) {
      const recipe = RECIPES[route.key];
      if (!recipe) continue;
      const real = recipe(targets, own);
      const fake = recipe(ghost, own);
      for (const [index, probe] of real.entries()) {
        const name = `${route.key} [${probe.label}]`;
        probes += 1;
        const asOther = probe.asOther ?? 'hidden';
        if (asOther !== 'stream') {
          const session = probe.freshSession ? await signIn(ctx, { ...b, companyId: own.companyId }) : b;
          const res = await session.request(toInject(route.method, probe));
          const body = parse(res);
          if (asOther === 'hidden') {
            const ghostRes = await b.request(toInject(route.method, fake[index]!));
            if (res.statusCode !== 404)
              failures.push(
                `${name}: company B got ${res.statusCode}, expected 404: ${res.body.slice(0, 200)}`,
              );
            else if (
              ghostRes.statusCode !== 404 ||
              JSON.stringify(body) !== JSON.stringify(parse(ghostRes))
            ) {
              failures.push(
                `${name}: answer differs from a missing id: ${res.body} vs ${ghostRes.statusCode} ${ghostRes.body}`,
              );
            }
          } else if (res.statusCode !== asOther) {
            failures.push(
              `${name}: company B got ${res.statusCode}, expected ${asOther}: ${res.body.slice(0, 200)}`,
            );
          }
          const shown = new Set(probe.withKey ? (probe.mayShow?.(targets) ?? []) : []);
          const leaks = leaksIn(
            body,
            secrets.filter((s) => !shown.has(s)),
            targets.companyId,
          );
          if (leaks.length > 0) failures.push(`${name}: company B's answer shows A's ${leaks.join(', ')}`);
        }

        if (probe.asSignedOut === null) continue;
        const expected = probe.asSignedOut ?? 401;
        const out = await ctx.app.inject(toInject(route.method, probe));
        const outBody = parse(out);
        if (out.statusCode !== expected)
          failures.push(
            `${name}: signed out got ${out.statusCode}, expected ${expected}: ${out.body.slice(0, 200)}`,
          );
        if (out.statusCode >= 400 && !Array.isArray((outBody as { errors?: unknown })?.errors))
          failures.push(`${name}: signed-out refusal without errors`);
        const allowed = new Set(probe.mayShow?.(targets) ?? []);
        const outLeaks = leaksIn(
          outBody,
          secrets.filter((s) => !allowed.has(s)),
          targets.companyId,
        );
        if (outLeaks.length > 0)
          failures.push(`${name}: a signed-out caller sees A's ${outLeaks.join(', ')}`);
      }
    }
    expect(failures).toEqual([]);
    // the report names how much the matrix covered
    console.info(
      `isolation matrix on ${engine}: ${routes.length} routes, ${probes} probes, each as company B and signed out`,
    );
    expect(probes).toBeGreaterThanOrEqual(routes.length);
  });

  it('grows into a role matrix: every route x Manager, Office, Floor and Viewer answers as its declared role says', async () => {
    // B's own Floor and Viewer members send every probe B's Manager sent: below the route's role they get a 403 before
    // anything is read or written; at or above it the same answer as the Manager (A's ids stay hidden)
    const members: Record<Role, SignedIn> = {
      manager: b,
      floor: await signIn(
        ctx,
        await buildAccount(ctx.database.db, { company: b.companyName, role: 'floor' }),
      ),
      viewer: await signIn(
        ctx,
        await buildAccount(ctx.database.db, { company: b.companyName, role: 'viewer' }),
      ),
      office: await signIn(
        ctx,
        await buildAccount(ctx.database.db, { company: b.companyName, role: 'office' }),
      ),
    };
    const failures: string[] = [];
    let checks = 0;
    for (const route of routes) {
      const declared = roleOf(route.method, route.url);
      if (!declared) {
        failures.push(`${route.key} declares no role`);
        continue;
      }
      for (const probe of RECIPES[route.key]?.(targets, own) ?? []) {
        const asOther = probe.asOther ?? 'hidden';
        if (asOther === 'stream') continue;
        // a portal route (issue 29) answers every staff member alike: no staff session is a portal session
        const needed = probe.roleNeeded ?? (declared === 'public' || declared === 'portal' ? null : declared);
        // a public route answers every member alike, and its rate limits (sign-in failures, the contact form) count
        // every request: it is probed by three roles, so the Office member's probes do not run into those limits
        for (const role of needed === null ? ROLES.filter((r) => r !== 'office') : ROLES) {
          const name = `${route.key} [${probe.label}] as ${role}`;
          const member = members[role];
          const session = probe.freshSession
            ? await signIn(ctx, { ...member, companyId: own.companyId })
            : member;
          const res = await session.request(toInject(route.method, probe));
          checks += 1;
          const allowed = needed === null || roleAllows(role, needed);
          const expected = allowed ? (asOther === 'hidden' ? 404 : asOther) : 403;
          // a create B's Manager already made once (the same name) may answer that it exists
          const repeated = allowed && expected === 201 && res.statusCode === 409;
          if (res.statusCode !== expected && !repeated) {
            failures.push(`${name}: got ${res.statusCode}, expected ${expected}: ${res.body.slice(0, 160)}`);
          } else if (!allowed && !/Manager/.test(res.body)) {
            failures.push(`${name}: the refusal does not say who may: ${res.body.slice(0, 160)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    console.info(
      `role matrix on ${engine}: ${routes.length} routes, ${checks} requests as Manager, Office, Floor and Viewer`,
    );
    expect(checks).toBeGreaterThanOrEqual(routes.length * (ROLES.length - 1));
    // four roles over every route: on a loaded machine this is longer than the default 30 s
  }, 180_000);

  it('tokens answer as sessions do: every route x a token of company B per role, and never on sign-in routes', async () => {
    // B's Manager makes one token per role; each sends every probe B's members sent: A's ids stay hidden, a role below
    // the route's is refused before anything is read, and the routes tokens never open (sign-in, profile, one-time
    // links, the live stream) answer 401 whatever the role
    const tokens = {} as Record<Role, (options: InjectOptions) => Promise<LightMyRequestResponse>>;
    for (const role of ROLES) {
      const made = await b.request({
        method: 'POST',
        url: '/api/api-tokens',
        payload: { name: `Bravo ${role} token`, role },
      });
      expect(made.statusCode).toBe(201);
      const { secret } = made.json() as { secret: string };
      // from an address of their own: the public routes' per-address limits (the contact form's) count them apart
      tokens[role] = (options) =>
        ctx.app.inject({
          ...options,
          remoteAddress: '10.0.0.31',
          headers: { ...options.headers, authorization: `Bearer ${secret}` },
        });
    }
    const failures: string[] = [];
    let checks = 0;
    let refusedRoutes = 0;
    for (const route of routes) {
      const declared = roleOf(route.method, route.url)!;
      const refused = tokenRefusedOn(route.url);
      if (refused) refusedRoutes += 1;
      for (const probe of RECIPES[route.key]?.(targets, own) ?? []) {
        const asOther = probe.asOther ?? 'hidden';
        if (asOther === 'stream') continue;
        const needed = probe.roleNeeded ?? (declared === 'public' ? null : declared);
        for (const role of needed === null ? ROLES.filter((r) => r !== 'office') : ROLES) {
          const name = `${route.key} [${probe.label}] with B's ${role} token`;
          const res = await tokens[role](toInject(route.method, probe));
          checks += 1;
          const allowed = needed === null || (needed !== 'portal' && roleAllows(role, needed));
          const expected = refused ? 401 : allowed ? (asOther === 'hidden' ? 404 : asOther) : 403;
          const repeated = !refused && allowed && expected === 201 && res.statusCode === 409;
          if (res.statusCode !== expected && !repeated)
            failures.push(`${name}: got ${res.statusCode}, expected ${expected}: ${res.body.slice(0, 160)}`);
          // whoever holds A's fill-in link may read what the link shows, as with a session
          const shown = new Set(probe.withKey ? (probe.mayShow?.(targets) ?? []) : []);
          const leaks = leaksIn(
            parse(res),
            secrets.filter((text) => !shown.has(text)),
            targets.companyId,
          );
          if (leaks.length > 0) failures.push(`${name}: shows A's ${leaks.join(', ')}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(refusedRoutes).toBeGreaterThanOrEqual(5);
    console.info(`token matrix on ${engine}: ${routes.length} routes, ${checks} requests with B's tokens`);
    expect(checks).toBeGreaterThanOrEqual(routes.length * (ROLES.length - 1));
  }, 180_000);

  it("left company A's data exactly as it was, and A is still signed in", async () => {
    const after = await snapshotDatabase(ctx.database.db, DEMO_LOGIN.company);
    expect(after.company).toEqual(before.company);
    const me = await a.request({ method: 'GET', url: '/api/auth/' });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ companyId: targets.companyId });
  });

  it("streams none of A's events to company B, even when B asks to catch up from the first event", async () => {
    const aEvents = new Set(await companyEventIds(ctx.database.db, targets.companyId));
    expect(aEvents.size).toBeGreaterThan(0);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    // event ids are sealed per company: B may hold the start of its own log, or try A's
    const tokens = await EventIdTokens.load(ctx.database.db);
    const open = (lastEventId: string) => {
      const frames: string[] = [];
      return new Promise<{ frames: string[]; req: http.ClientRequest }>((resolve, reject) => {
        const req = http.get(
          {
            host: '127.0.0.1',
            port,
            path: '/api/events',
            headers: { cookie: b.cookie, 'last-event-id': lastEventId },
          },
          (res) => {
            expect(res.statusCode).toBe(200);
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => frames.push(...chunk.split('\n\n').filter(Boolean)));
            resolve({ frames, req });
          },
        );
        req.on('error', reject);
      });
    };
    const fromStart = await open(tokens.seal(b.companyId, 0));
    const fromA = await open(tokens.seal(targets.companyId, 0));
    // a change of B's own marks the point by which the catch-up and the live feed have both been sent
    const added = await b.request({
      method: 'POST',
      url: '/api/warehouse/add-warehouse',
      payload: { name: 'Bravo Marker', rows: 1, cols: 1, field_capacity: 1, length: 10, width: 10 },
    });
    expect(added.statusCode).toBe(201);
    const marker = `"warehouseId":${(added.json() as { id: number }).id}`;
    for (const stream of [fromStart, fromA]) {
      await expect.poll(() => stream.frames.some((f) => f.includes(marker)), { timeout: 10_000 }).toBe(true);
      stream.req.destroy();
    }
    const changeIds = (frames: string[]) =>
      frames
        .filter((f) => f.includes('event: change'))
        .map((f) => tokens.open(/^id: (.+)$/m.exec(f)![1]!, b.companyId));
    const caughtUp = changeIds(fromStart.frames);
    expect(caughtUp.length).toBeGreaterThan(1);
    expect(caughtUp.filter((id) => id === null || aEvents.has(id))).toEqual([]);
    // A's token opens nothing for B: a reset, then only B's own new change
    expect(fromA.frames.some((f) => f.includes('event: reset'))).toBe(true);
    expect(changeIds(fromA.frames)).toHaveLength(1);
    for (const stream of [fromStart, fromA])
      expect(leaksIn(stream.frames.join('\n'), secrets, targets.companyId)).toEqual([]);
  });

  it('lets a signed-out caller with the link answer an open task, and nothing more', async () => {
    const open = openTasks(targets.checklist)[0]!;
    const done = targets.checklist.tasks.find((task) => task.completed)!;
    const url = `/api/checklists/${targets.checklist.id}?key=${targets.checklistKey}`;
    const others = targets.checklist.tasks.filter((task) => task.id !== open.id && task.id !== done.id);
    const tampered = await ctx.app.inject({
      method: 'PATCH',
      url,
      payload: {
        filled_out_by: 'Floor Worker',
        tasks: [
          { id: open.id, completed: true },
          { id: done.id, completed: false, completed_by: 'Mallory' },
          ...others.map((task) => ({ id: task.id })),
        ],
      },
    });
    expect(tampered.statusCode).toBe(403);

    const res = await ctx.app.inject({
      method: 'PATCH',
      url,
      payload: {
        filled_out_by: 'Floor Worker',
        tasks: targets.checklist.tasks.map((task) =>
          task.id === open.id ? { id: task.id, completed: true } : { id: task.id },
        ),
      },
    });
    expect(res.statusCode).toBe(200);
    const answered = res.json() as ChecklistDto;
    expect(answered.description).toBe(targets.checklist.description);
    expect(answered.filled_out_by).toBe('Floor Worker');
    const byId = new Map(answered.tasks.map((task) => [task.id, task]));
    expect(byId.get(open.id)).toMatchObject({
      text: open.text,
      completed: true,
      completed_by: 'Floor Worker',
    });
    expect(byId.get(done.id)).toMatchObject({
      text: done.text,
      completed: true,
      completed_by: done.completed_by,
    });
    expect(JSON.stringify(answered)).not.toContain('companyId');
    expect(JSON.stringify(answered)).not.toContain(targets.checklistKey);

    const after = await snapshotDatabase(ctx.database.db, DEMO_LOGIN.company);
    const changed = after.company.tables.checklist_tasks.filter(
      (row, i) => JSON.stringify(row) !== JSON.stringify(before.company.tables.checklist_tasks[i]),
    );
    expect(changed.map((row) => row.text)).toEqual([open.text]);
    expect(after.company.tables.vaults).toEqual(before.company.tables.vaults);
  });

  it("keeps A's fill-in link working when another company adds a warehouse of the same name (MAIN-a vs Main A)", async () => {
    const slug = slugOf(targets.warehouseName);
    const url = `/api/checklists/warehouse/${encodeURIComponent(slug)}`;
    const twin = await b.request({
      method: 'POST',
      url: '/api/warehouse/add-warehouse',
      payload: {
        name: targets.warehouseName.toUpperCase().replace(/ /g, '-'),
        rows: 1,
        cols: 1,
        field_capacity: 1,
        length: 10,
        width: 10,
      },
    });
    expect(twin.statusCode).toBe(201);
    const created = await b.request({
      method: 'POST',
      url: '/api/checklists/',
      payload: {
        warehouse_id: (twin.json() as { id: number }).id,
        description: 'Bravo round',
        tasks: ['Bravo task'],
      },
    });
    expect(created.statusCode).toBe(201);
    const bKey = keyOfLink((created.json() as ChecklistDto).fill_in_url);

    const withA = await ctx.app.inject({ method: 'GET', url: `${url}?key=${targets.checklistKey}` });
    expect(withA.statusCode).toBe(200);
    expect((withA.json() as ChecklistDto).id).toBe(targets.checklist.id);
    const withB = await ctx.app.inject({ method: 'GET', url: `${url}?key=${bKey}` });
    expect((withB.json() as ChecklistDto).description).toBe('Bravo round');
    expect((await ctx.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    const asA = await a.request({ method: 'GET', url });
    expect(asA.statusCode).toBe(200);
    expect((asA.json() as ChecklistDto).id).toBe(targets.checklist.id);
    const asB = await b.request({ method: 'GET', url });
    expect(asB.statusCode).toBe(200);
    expect((asB.json() as ChecklistDto).description).toBe('Bravo round');
  });

  it("gives A's portal customer a session that reaches no staff route, and A's staff cookie no portal route", async () => {
    const signedIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/portal/sign-in',
      payload: { token: portalToken },
    });
    expect(signedIn.statusCode).toBe(200);
    const portal = signedIn.cookies.find((c) => c.name === 'wm_portal')!;
    expect(signedIn.cookies.find((c) => c.name === 'wm_session')).toBeUndefined();
    const portalCookie = `wm_portal=${portal.value}`;
    const failures: string[] = [];
    let probes = 0;
    for (const route of routes) {
      const declared = roleOf(route.method, route.url);
      for (const probe of RECIPES[route.key]?.(targets, own) ?? []) {
        if (declared === 'portal') {
          // the staff cookie of A's Manager, and both cookies together read as the portal customer only
          const staff = await a.request(toInject(route.method, probe));
          if (staff.statusCode !== 401)
            failures.push(`${route.key} with A's staff cookie: ${staff.statusCode}`);
          continue;
        }
        if (declared === 'public') continue;
        probes += 1;
        const res = await ctx.app.inject({
          ...toInject(route.method, probe),
          headers: { cookie: portalCookie },
        });
        if (res.statusCode !== 401)
          failures.push(
            `${route.key} [${probe.label}] with a portal cookie: ${res.statusCode} ${res.body.slice(0, 120)}`,
          );
      }
    }
    expect(failures).toEqual([]);
    expect(probes).toBeGreaterThan(100);
    const units = await ctx.app.inject({
      method: 'GET',
      url: '/api/portal/units',
      headers: { cookie: portalCookie },
    });
    expect(units.statusCode).toBe(200);
    expect((units.json() as { id: number }[]).map((u) => u.id)).toContain(targets.placedVaultId);
  });

  it("ignores a company_id of another company in B's vault form", async () => {
    const res = await b.request({
      method: 'POST',
      url: '/api/vaults/',
      payload: {
        ...BRAVO_VAULT,
        vault_id: 'B-200',
        field_id: own.fieldId,
        position: own.freePosition,
        company_id: targets.companyId,
      },
    });
    expect(res.statusCode).toBe(201);
    expect(await (await snapshotDatabase(ctx.database.db, DEMO_LOGIN.company)).company.tables.vaults).toEqual(
      before.company.tables.vaults,
    );
    const mine = await b.request({ method: 'GET', url: `/api/vaults/${(res.json() as { id: number }).id}` });
    expect(mine.statusCode).toBe(200);
  });
});
