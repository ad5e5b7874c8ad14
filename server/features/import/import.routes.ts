import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_UPLOAD_BYTES } from '@domain/rules/capacity';
import { actorOf } from '../../auth/actor';
import { requireUser } from '../../auth/session.plugin';
import { badRequest, notFound, parseId, parseInput } from '../../http/errors';
import { PrintExportSchema } from '@domain/schemas/import.schema';
import type { FeatureOptions } from '../feature-options';
import { contentDisposition } from '../vaults/attachments.download';
import { readForm } from '../../http/form-reader';
import { exportPallets, exportPrintVaults, exportVaults, templateFile } from './export.service';
import {
  IMPORT_NOT_FOUND,
  type ImportUpload,
  commitPalletImport,
  commitVaultImport,
  dryRunPalletImport,
  dryRunVaultImport,
  listImports,
  undoImport,
} from './import.service';
import { CONTENT_TYPES, type SheetFormat } from './write-sheet';

export const MISSING_IMPORT_FILE = 'Please choose a CSV or XLSX file to import.';

/** A spreadsheet of at most 5 MB (the same limit as any upload, said in the refusal) plus the form around it. */
const UPLOAD_LIMIT = { bodyLimit: MAX_UPLOAD_BYTES + 256 * 1024 };

const TEMPLATES: Record<string, { kind: 'vaults' | 'pallets'; format: SheetFormat }> = {
  'vaults.csv': { kind: 'vaults', format: 'csv' },
  'vaults.xlsx': { kind: 'vaults', format: 'xlsx' },
  'pallets.csv': { kind: 'pallets', format: 'csv' },
  'pallets.xlsx': { kind: 'pallets', format: 'xlsx' },
};

const EXPORTS = new Map<string, { kind: 'vaults' | 'pallets'; format: SheetFormat }>([
  ['vaults.csv', { kind: 'vaults', format: 'csv' }],
  ['vaults.xlsx', { kind: 'vaults', format: 'xlsx' }],
  ['pallets.csv', { kind: 'pallets', format: 'csv' }],
  ['pallets.xlsx', { kind: 'pallets', format: 'xlsx' }],
]);

async function readUpload(request: FastifyRequest): Promise<ImportUpload> {
  const form = await readForm(request);
  const file = form.files.file;
  if (!file) throw badRequest(MISSING_IMPORT_FILE);
  const flag = form.fields.create_warehouses;
  const repeats = form.fields.allow_repeated_numbers;
  const mapping = form.fields.mapping;
  return {
    fileName: file.fileName,
    content: file.content,
    mapping: typeof mapping === 'string' ? mapping : undefined,
    createWarehouses: flag === 'true' || flag === true,
    allowRepeatedNumbers: repeats === 'true' || repeats === true,
  };
}

function sendFile(reply: FastifyReply, fileName: string, format: SheetFormat, body: unknown) {
  return reply
    .header('Content-Type', CONTENT_TYPES[format])
    .header('Content-Disposition', contentDisposition(fileName))
    .header('Cache-Control', 'private, no-store')
    .send(body);
}

export const importRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database }) => {
  const { db } = database;

  app.post('/api/import/vaults/dry-run', UPLOAD_LIMIT, async (request) => {
    const user = requireUser(request);
    return dryRunVaultImport(db, user.companyId, await readUpload(request));
  });

  app.post('/api/import/vaults', UPLOAD_LIMIT, async (request, reply) => {
    const actor = actorOf(request);
    return reply.status(201).send(await commitVaultImport(db, actor, await readUpload(request)));
  });

  app.post('/api/import/pallets/dry-run', UPLOAD_LIMIT, async (request) => {
    const user = requireUser(request);
    return dryRunPalletImport(db, user.companyId, await readUpload(request));
  });

  app.post('/api/import/pallets', UPLOAD_LIMIT, async (request, reply) => {
    const actor = actorOf(request);
    return reply.status(201).send(await commitPalletImport(db, actor, await readUpload(request)));
  });

  app.get('/api/imports', async (request) => {
    const user = requireUser(request);
    return listImports(db, user.companyId);
  });

  app.post<{ Params: { id: string } }>('/api/imports/:id/undo', async (request) => {
    const actor = actorOf(request);
    return undoImport(db, actor, parseId(request.params.id, IMPORT_NOT_FOUND));
  });

  app.get<{ Params: { file: string } }>('/api/import/templates/:file', async (request, reply) => {
    requireUser(request);
    const template = Object.hasOwn(TEMPLATES, request.params.file)
      ? TEMPLATES[request.params.file]
      : undefined;
    if (!template) throw notFound('Template not found');
    const name = `import-template-${request.params.file}`;
    return sendFile(reply, name, template.format, templateFile(template.kind, template.format));
  });

  app.get<{ Params: { file: string } }>('/api/export/:file', async (request, reply) => {
    const user = requireUser(request);
    const file = EXPORTS.get(request.params.file);
    if (!file) throw notFound('Export not found');
    const write = file.kind === 'vaults' ? exportVaults : exportPallets;
    // an export may lag a second behind the last writes: it may read a standby (READ_FROM_STANDBY, decision 034)
    const rows = await write(database.readDb, user.companyId, file.format);
    return sendFile(reply, request.params.file, file.format, rows);
  });

  // Print Studio's filters run in the browser, which sends the ids it shows (about 7 bytes each)
  app.post('/api/export/print-vaults.xlsx', { bodyLimit: 1024 * 1024 }, async (request, reply) => {
    const user = requireUser(request);
    const { ids } = parseInput(PrintExportSchema, request.body);
    return sendFile(reply, 'vaults.xlsx', 'xlsx', await exportPrintVaults(db, user.companyId, ids));
  });
};
