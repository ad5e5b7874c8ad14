import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_UPLOAD_BYTES } from '@domain/rules/capacity';
import { ReportQuerySchema } from '@domain/schemas/check.schema';
import {
  InventoryCodeDtoSchema,
  InventoryCodeSchema,
  InventoryDtoSchema,
  InventoryItemDtoSchema,
  InventoryItemSchema,
  InventoryItemUpdateSchema,
  InventoryPhotoFormSchema,
  InventorySignatureFormSchema,
  PortalInventoryDtoSchema,
} from '@domain/schemas/inventory.schema';
import { OkAnswerSchema, idParams } from '@domain/schemas/route-params';
import { actorOf } from '../../auth/actor';
import { requireUser } from '../../auth/session.plugin';
import { formBody } from '../../http/declared-routes';
import { notFound, parseInput } from '../../http/errors';
import { readForm } from '../../http/form-reader';
import type { FeatureOptions } from '../feature-options';
import { requirePortalCustomer } from '../portal/portal-session';
import { contentDisposition, safeContentType } from '../vaults/attachments.download';
import { reportTime } from '../checks/check-report';
import { inventoryPdf } from './inventory-pdf';
import { findCustomerPhotoContent, listInventoryFileContents } from './inventory.repo';
import {
  CODE_NOT_FOUND,
  ITEM_NOT_FOUND,
  PHOTO_NOT_FOUND,
  UNIT_NOT_FOUND,
  addCode,
  addItem,
  addPhoto,
  addSignature,
  changeItem,
  loadCodes,
  loadInventory,
  loadPortalInventory,
  removeCode,
  removeItem,
  removePhoto,
} from './inventory.service';

const tags = ['Inventories'];
/** a photo or a signature of at most 5 MB plus the form around it, as the vault attachments */
const UPLOAD_LIMIT = { bodyLimit: MAX_UPLOAD_BYTES + 256 * 1024 };
const unit = idParams(UNIT_NOT_FOUND);
/** A file answer is declared as a string for the document; its bytes are sent as they are, never serialized. */
const asFile = (bytes: Buffer) => bytes as unknown as string;
const imageAnswer = (description: string) => ({
  description,
  content: { 'image/jpeg': { schema: z.string().describe('JPEG or PNG bytes') } },
});

/**
 * Condition inventories (issue 29, point 5; decision 049): the crew's reads and writes on a unit's inventory, the
 * company's codes, the PDF, and the portal customer's read-only view of their own units.
 */
export const inventoryRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database, config }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get(
    '/api/vaults/:id/inventory',
    {
      schema: {
        tags,
        summary: "A unit's condition inventory (empty while none was taken)",
        params: unit,
        response: { 200: InventoryDtoSchema },
      },
    },
    async (request) => loadInventory(db, requireUser(request).companyId, request.params.id),
  );

  app.get(
    '/api/vaults/:id/inventory.pdf',
    {
      schema: {
        tags,
        summary: "A unit's condition inventory as a PDF, with photos and signatures",
        params: unit,
        querystring: ReportQuerySchema,
        produces: ['application/pdf'],
        response: {
          200: {
            description: 'inventory-{unit}.pdf',
            content: { 'application/pdf': { schema: z.string().describe('PDF') } },
          },
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const inventory = await loadInventory(db, user.companyId, request.params.id);
      const files = inventory.id ? await listInventoryFileContents(db, user.companyId, inventory.id) : [];
      const timeZone = request.query.tz ?? config.reportTimeZone;
      const bytes = await inventoryPdf(
        inventory,
        files.map((f) => ({ ...f, content: Buffer.from(f.content) })),
        user.company.name,
        (iso) => reportTime(iso, timeZone, user.company.locale),
      );
      const name = `inventory-${(inventory.vault.number ?? String(inventory.vault.id)).replace(/[^\w.-]+/g, '_')}.pdf`;
      return reply
        .type('application/pdf')
        .header('Content-Disposition', contentDisposition(name))
        .header('Cache-Control', 'private, no-store')
        .send(asFile(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
    },
  );

  app.post(
    '/api/vaults/:id/inventory/items',
    {
      schema: {
        tags,
        summary: "Add an item to a unit's inventory (the inventory starts with its first item)",
        params: unit,
        body: InventoryItemSchema,
        response: { 201: InventoryDtoSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await addItem(db, actorOf(request), request.params.id, request.body)),
  );

  app.patch(
    '/api/inventory-items/:id',
    {
      schema: {
        tags,
        summary: 'Change an inventory item, or tick it off as delivered',
        params: idParams(ITEM_NOT_FOUND),
        body: InventoryItemUpdateSchema,
        response: { 200: z.object({ item: InventoryItemDtoSchema }) },
      },
    },
    async (request) => changeItem(db, actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/inventory-items/:id',
    {
      schema: {
        tags,
        summary: 'Remove an inventory item and its photos',
        params: idParams(ITEM_NOT_FOUND),
        response: { 200: OkAnswerSchema },
      },
    },
    async (request) => removeItem(db, actorOf(request), request.params.id),
  );

  app.post(
    '/api/vaults/:id/inventory/photos',
    {
      ...UPLOAD_LIMIT,
      schema: {
        tags,
        summary:
          "Add a photo (JPEG or PNG, at most 5 MB) to a unit's inventory, of one item or the whole load",
        params: unit,
        consumes: ['multipart/form-data'],
        body: formBody(
          InventoryPhotoFormSchema,
          'multipart form: `photo` (the image) and an optional `item_id`',
        ),
        response: { 201: InventoryDtoSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const form = await readForm(request);
      const { item_id } = parseInput(InventoryPhotoFormSchema, form.fields);
      return reply.status(201).send(await addPhoto(db, actor, request.params.id, item_id, form.files.photo));
    },
  );

  app.delete(
    '/api/inventory-photos/:id',
    {
      schema: {
        tags,
        summary: 'Remove a photo of an inventory',
        params: idParams(PHOTO_NOT_FOUND),
        response: { 200: OkAnswerSchema },
      },
    },
    async (request) => removePhoto(db, actorOf(request), request.params.id),
  );

  app.post(
    '/api/vaults/:id/inventory/signatures',
    {
      ...UPLOAD_LIMIT,
      schema: {
        tags,
        summary: "The customer's signature on a unit's inventory, at pickup or at delivery",
        params: unit,
        consumes: ['multipart/form-data'],
        body: formBody(
          InventorySignatureFormSchema,
          'multipart form: `signature` (the drawing as PNG), `kind` (pickup or delivery) and `signer`',
        ),
        response: { 201: InventoryDtoSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const form = await readForm(request);
      const fields = parseInput(InventorySignatureFormSchema, form.fields);
      return reply
        .status(201)
        .send(await addSignature(db, actor, request.params.id, fields, form.files.signature));
    },
  );

  app.get(
    '/api/inventory-codes',
    {
      schema: {
        tags,
        summary: "The condition codes: the standard ones and the company's own",
        response: { 200: z.array(InventoryCodeDtoSchema) },
      },
    },
    async (request) => loadCodes(db, requireUser(request).companyId),
  );

  app.post(
    '/api/inventory-codes',
    {
      schema: {
        tags,
        summary: 'Add a condition code of the company',
        body: InventoryCodeSchema,
        response: { 201: z.array(InventoryCodeDtoSchema) },
      },
    },
    async (request, reply) => reply.status(201).send(await addCode(db, actorOf(request), request.body)),
  );

  app.delete(
    '/api/inventory-codes/:id',
    {
      schema: {
        tags,
        summary: 'Remove a condition code of the company that no item carries',
        params: idParams(CODE_NOT_FOUND),
        response: { 200: z.array(InventoryCodeDtoSchema) },
      },
    },
    async (request) => removeCode(db, actorOf(request), request.params.id),
  );

  // the customer portal (issue 29): only units of the signed-in customer; any other id answers as one that is not there
  app.get(
    '/api/portal/units/:id/inventory',
    {
      schema: {
        tags: ['Portal'],
        summary: "The condition inventory of one of the portal customer's units",
        params: unit,
        response: { 200: PortalInventoryDtoSchema },
      },
    },
    async (request) => loadPortalInventory(db, requirePortalCustomer(request), request.params.id),
  );

  app.get(
    '/api/portal/inventory-photos/:id',
    {
      schema: {
        tags: ['Portal'],
        summary: "A photo of the inventory of one of the portal customer's units",
        params: idParams(PHOTO_NOT_FOUND),
        produces: ['image/jpeg', 'image/png'],
        response: { 200: imageAnswer('the photo') },
      },
    },
    async (request, reply) => {
      const customer = requirePortalCustomer(request);
      const photo = await findCustomerPhotoContent(
        db,
        customer.companyId,
        customer.customerId,
        request.params.id,
      );
      if (!photo) throw notFound(PHOTO_NOT_FOUND);
      return reply
        .header('Content-Type', safeContentType(photo.content_type))
        .header('Content-Disposition', contentDisposition(photo.file_name))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'private, no-store')
        .send(asFile(Buffer.from(photo.content)));
    },
  );
};
