import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AnswerChecklistSchema,
  type ChecklistDto,
  ChecklistDtoSchema,
  ChecklistKeyQuerySchema,
  CreateChecklistSchema,
  EditChecklistSchema,
} from '@domain/schemas/checklist.schema';
import { idParams, pathName } from '@domain/schemas/route-params';
import { requireRole } from '../../auth/route-roles';
import { requireUser } from '../../auth/session.plugin';
import { parseInput } from '../../http/errors';
import { formBody } from '../../http/declared-routes';
import { publicOrigin } from '../../http/public-url';
import type { FeatureOptions } from '../feature-options';
import {
  CHECKLIST_NOT_FOUND,
  NO_ACTIVE_CHECKLIST,
  activeChecklistByWarehouseName,
  answerChecklist,
  createChecklist,
  editChecklist,
  listCompanyChecklists,
  renewChecklistKey,
} from './checklists.service';

// the fill-in page is public: keep one address from hammering it
// limits anonymous callers only: staff signed in behind one site address must not share a budget
const publicRateLimit = {
  rateLimit: {
    max: 300,
    timeWindow: '1 minute',
    allowList: (request: FastifyRequest) => request.user !== null,
  },
};
/** an answer names a person and a hundred tasks at most: far less than this */
const PUBLIC_BODY_LIMIT = 16 * 1024;

/** The fill-in link's secret: `?key=` (as in the page's address, read by the declaration) or an `X-Checklist-Key` header. */
function linkKey(request: FastifyRequest, fromQuery: string | undefined): string | undefined {
  const key = fromQuery ?? request.headers['x-checklist-key'];
  return typeof key === 'string' && key !== '' ? key : undefined;
}

const tags = ['Checklists'];
const params = idParams(CHECKLIST_NOT_FOUND);

export const checklistsRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database, config }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;
  /** the whole fill-in link, at PUBLIC_URL when set, for the checklists that carry their key (issue 34) */
  const linked = (request: FastifyRequest, checklist: ChecklistDto): ChecklistDto =>
    checklist.fill_in_url
      ? { ...checklist, fill_in_link: publicOrigin(config, request) + checklist.fill_in_url }
      : checklist;

  app.get(
    '/api/checklists/',
    {
      schema: {
        tags,
        summary: "The company's checklists with their tasks and fill-in links",
        response: { 200: z.array(ChecklistDtoSchema) },
      },
    },
    async (request) => {
      const list = await listCompanyChecklists(db, requireUser(request).companyId);
      return list.map((checklist) => linked(request, checklist));
    },
  );

  app.post(
    '/api/checklists/',
    {
      schema: {
        tags,
        summary: 'Make the active checklist of a warehouse',
        body: CreateChecklistSchema,
        response: { 201: ChecklistDtoSchema },
      },
    },
    async (request, reply) => {
      const checklist = await createChecklist(database, requireUser(request), request.body);
      return reply.status(201).send(linked(request, checklist));
    },
  );

  // public: the fill-in page opens it with the link's key; the company's signed-in staff need none
  app.get(
    '/api/checklists/warehouse/:name',
    {
      config: publicRateLimit,
      schema: {
        tags,
        summary: "The active checklist of a warehouse, for its fill-in link (public with the link's key)",
        params: z.object({ name: pathName(NO_ACTIVE_CHECKLIST) }),
        querystring: ChecklistKeyQuerySchema,
        response: { 200: ChecklistDtoSchema },
      },
    },
    async (request) =>
      activeChecklistByWarehouseName(
        db,
        request.params.name,
        request.user,
        linkKey(request, request.query.key),
      ),
  );

  app.patch(
    '/api/checklists/:id',
    {
      config: publicRateLimit,
      bodyLimit: PUBLIC_BODY_LIMIT,
      schema: {
        tags,
        summary: "Answer a checklist's tasks (public with the link's key), or a Manager's edit of it",
        params,
        querystring: ChecklistKeyQuerySchema,
        // which of the two it is decides who may send it and how it is checked: the handler reads it
        body: formBody(
          z.union([AnswerChecklistSchema, EditChecklistSchema]),
          'an answer (filled_out_by and the tasks) from the fill-in page, or an edit by a signed-in Manager',
        ),
        response: { 200: ChecklistDtoSchema },
      },
    },
    async (request) => {
      const id = request.params.id;
      const body = request.body;
      // an answer from the fill-in page names who fills it out; anyone but signed-in staff can only answer
      const isAnswer =
        !request.user || (typeof body === 'object' && body !== null && 'filled_out_by' in body);
      // the route is public for the link; a signed-in member answers as Floor and edits as a Manager
      if (request.user) requireRole(request.user, isAnswer ? 'floor' : 'manager');
      if (isAnswer)
        return answerChecklist(database, request.user, id, body, linkKey(request, request.query.key));
      return linked(
        request,
        await editChecklist(database, requireUser(request), id, parseInput(EditChecklistSchema, body)),
      );
    },
  );

  // a new secret for the fill-in link: the old link stops working
  app.post(
    '/api/checklists/:id/key',
    {
      schema: {
        tags,
        summary: 'A new secret key for the fill-in link; the old link stops working',
        params,
        response: { 200: ChecklistDtoSchema },
      },
    },
    async (request) => linked(request, await renewChecklistKey(db, requireUser(request), request.params.id)),
  );
};
