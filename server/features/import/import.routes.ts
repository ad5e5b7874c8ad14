import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_UPLOAD_BYTES } from '@domain/rules/capacity';
import {
  ImportDryRunDtoSchema,
  ImportRecordDtoSchema,
  ImportUploadFormSchema,
  PrintExportSchema,
} from '@domain/schemas/import.schema';
import { idParams } from '@domain/schemas/route-params';
import { actorOf } from '../../auth/actor';
import { requireUser } from '../../auth/session.plugin';
import { formBody } from '../../http/declared-routes';
import { badRequest } from '../../http/errors';
import { fileAnswer } from '../../http/file-answers';
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

/** The sheets a template or an export is offered as: what is in them, and the file's format. */
const SHEETS = {
  'vaults.csv': { kind: 'vaults', format: 'csv' },
  'vaults.xlsx': { kind: 'vaults', format: 'xlsx' },
  'pallets.csv': { kind: 'pallets', format: 'csv' },
  'pallets.xlsx': { kind: 'pallets', format: 'xlsx' },
} as const satisfies Record<string, { kind: 'vaults' | 'pallets'; format: SheetFormat }>;
type SheetFile = keyof typeof SHEETS;
const SHEET_FILES = Object.keys(SHEETS) as [SheetFile, ...SheetFile[]];

/** A sheet's file name in a path; any other names nothing, with the resource's not-found words (404). */
const sheetParams = (notFoundMessage: string) =>
  z.object({ file: z.enum(SHEET_FILES, { error: notFoundMessage }) });

const tags = ['Import and export'];
/** The upload routes' form, for the document: the handler reads the multipart stream itself. */
const uploadForm = formBody(ImportUploadFormSchema, 'a CSV or XLSX file and the choices of the import');
const sheetAnswer = (description: string) => fileAnswer([CONTENT_TYPES.csv, CONTENT_TYPES.xlsx], description);

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

export const importRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  const upload = <R extends Record<number, z.ZodType>>(summary: string, response: R) => ({
    ...UPLOAD_LIMIT,
    schema: { tags, summary, consumes: ['multipart/form-data'], body: uploadForm, response },
  });

  app.post(
    '/api/import/vaults/dry-run',
    upload('What a vault file would do and everything wrong with it; nothing is written', {
      200: ImportDryRunDtoSchema,
    }),
    async (request) => {
      const user = requireUser(request);
      return dryRunVaultImport(db, user.companyId, await readUpload(request));
    },
  );

  app.post(
    '/api/import/vaults',
    upload('Import a vault file, all rows or none', { 201: ImportRecordDtoSchema }),
    async (request, reply) => {
      const actor = actorOf(request);
      return reply.status(201).send(await commitVaultImport(db, actor, await readUpload(request)));
    },
  );

  app.post(
    '/api/import/pallets/dry-run',
    upload('What a pallet file would do and everything wrong with it; nothing is written', {
      200: ImportDryRunDtoSchema,
    }),
    async (request) => {
      const user = requireUser(request);
      return dryRunPalletImport(db, user.companyId, await readUpload(request));
    },
  );

  app.post(
    '/api/import/pallets',
    upload('Import a pallet file, all rows or none', { 201: ImportRecordDtoSchema }),
    async (request, reply) => {
      const actor = actorOf(request);
      return reply.status(201).send(await commitPalletImport(db, actor, await readUpload(request)));
    },
  );

  app.get(
    '/api/imports',
    {
      schema: {
        tags,
        summary: "The company's latest imports, newest first, with whether each can still be undone",
        response: { 200: z.array(ImportRecordDtoSchema) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return listImports(db, user.companyId);
    },
  );

  app.post(
    '/api/imports/:id/undo',
    {
      schema: {
        tags,
        summary: 'Undo an import: its vaults and the warehouses it created, while none of them changed since',
        params: idParams(IMPORT_NOT_FOUND),
        response: { 200: ImportRecordDtoSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return undoImport(db, actor, request.params.id);
    },
  );

  app.get(
    '/api/import/templates/:file',
    {
      schema: {
        tags,
        summary: 'An import template with its header and an example row, as CSV or XLSX',
        params: sheetParams('Template not found'),
        produces: [CONTENT_TYPES.csv, CONTENT_TYPES.xlsx],
        response: { 200: sheetAnswer('the template') },
      },
    },
    async (request, reply) => {
      requireUser(request);
      const { file } = request.params;
      const template = SHEETS[file];
      return sendFile(
        reply,
        `import-template-${file}`,
        template.format,
        templateFile(template.kind, template.format),
      );
    },
  );

  app.get(
    '/api/export/:file',
    {
      schema: {
        tags,
        summary: "The company's vaults or pallets as CSV or XLSX, in the import's columns",
        params: sheetParams('Export not found'),
        produces: [CONTENT_TYPES.csv, CONTENT_TYPES.xlsx],
        response: { 200: sheetAnswer('the export') },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { file } = request.params;
      const sheet = SHEETS[file];
      const write = sheet.kind === 'vaults' ? exportVaults : exportPallets;
      // an export may lag a second behind the last writes: it may read a standby (READ_FROM_STANDBY, decision 034)
      const rows = await write(database.readDb, user.companyId, sheet.format);
      return sendFile(reply, file, sheet.format, rows);
    },
  );

  // Print Studio's filters run in the browser, which sends the ids it shows (about 7 bytes each)
  app.post(
    '/api/export/print-vaults.xlsx',
    {
      bodyLimit: 1024 * 1024,
      schema: {
        tags,
        summary: "Print Studio's vaults, by id and in that order, as an XLSX file",
        body: PrintExportSchema,
        produces: [CONTENT_TYPES.xlsx],
        response: { 200: fileAnswer([CONTENT_TYPES.xlsx], 'the vaults as XLSX') },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { ids } = request.body;
      return sendFile(reply, 'vaults.xlsx', 'xlsx', await exportPrintVaults(db, user.companyId, ids));
    },
  );
};
