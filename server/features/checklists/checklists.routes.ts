import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  type ChecklistDto,
  CreateChecklistSchema,
  EditChecklistSchema,
} from '@domain/schemas/checklist.schema';
import { requireRole } from '../../auth/route-roles';
import { requireUser } from '../../auth/session.plugin';
import { notFound, parseId, parseInput } from '../../http/errors';
import { publicOrigin } from '../../http/public-url';
import type { FeatureOptions } from '../feature-options';
import {
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

/** The fill-in link's secret: `?key=` (as in the page's address) or an `X-Checklist-Key` header. */
function linkKey(request: FastifyRequest): string | undefined {
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.key;
  const fromHeader = request.headers['x-checklist-key'];
  const key = typeof fromQuery === 'string' ? fromQuery : fromHeader;
  return typeof key === 'string' && key !== '' ? key : undefined;
}

export const checklistsRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database, config }) => {
  const { db } = database;
  /** the whole fill-in link, at PUBLIC_URL when set, for the checklists that carry their key (issue 34) */
  const linked = (request: FastifyRequest, checklist: ChecklistDto): ChecklistDto =>
    checklist.fill_in_url
      ? { ...checklist, fill_in_link: publicOrigin(config, request) + checklist.fill_in_url }
      : checklist;

  app.get('/api/checklists/', async (request) => {
    const user = requireUser(request);
    const list = await listCompanyChecklists(db, user.companyId);
    return list.map((checklist) => linked(request, checklist));
  });

  app.post('/api/checklists/', async (request, reply) => {
    const user = requireUser(request);
    const input = parseInput(CreateChecklistSchema, request.body);
    const checklist = await createChecklist(database, user, input);
    return reply.status(201).send(linked(request, checklist));
  });

  app.get<{ Params: { name: string } }>(
    '/api/checklists/warehouse/:name',
    { config: publicRateLimit },
    async (request) => {
      const name = request.params.name;
      if (name.length > 200) throw notFound('No active checklist found for this warehouse.');
      return activeChecklistByWarehouseName(db, name, request.user, linkKey(request));
    },
  );

  app.patch<{ Params: { id: string } }>(
    '/api/checklists/:id',
    { config: publicRateLimit, bodyLimit: PUBLIC_BODY_LIMIT },
    async (request) => {
      const id = parseId(request.params.id, 'Checklist not found.');
      const body = request.body;
      // an answer from the fill-in page names who fills it out; anyone but signed-in staff can only answer
      const isAnswer =
        !request.user || (typeof body === 'object' && body !== null && 'filled_out_by' in body);
      // the route is public for the link; a signed-in member answers as Floor and edits as a Manager
      if (request.user) requireRole(request.user, isAnswer ? 'floor' : 'manager');
      if (isAnswer) return answerChecklist(database, request.user, id, body, linkKey(request));
      return linked(
        request,
        await editChecklist(database, requireUser(request), id, parseInput(EditChecklistSchema, body)),
      );
    },
  );

  // a new secret for the fill-in link: the old link stops working
  app.post<{ Params: { id: string } }>('/api/checklists/:id/key', async (request) => {
    const user = requireUser(request);
    return linked(
      request,
      await renewChecklistKey(db, user, parseId(request.params.id, 'Checklist not found.')),
    );
  });
};
