import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '@domain/schemas/route-params';
import {
  LoadOutDtoSchema,
  LoadRequestSchema,
  LoadScanAnswerSchema,
  LoadScanSchema,
  OfficeRequestSchema,
  RequestDtoSchema,
  RequestListQuerySchema,
  RequestSummaryDtoSchema,
  ScheduleRequestSchema,
} from '@domain/schemas/request.schema';
import { requireUser } from '../../auth/session.plugin';
import { publicOrigin } from '../../http/public-url';
import type { FeatureOptions } from '../feature-options';
import { onPullStep } from '../pull-lists/pull-lists.service';
import {
  REQUEST_NOT_FOUND,
  type RequestActor,
  type RequestMail,
  cancelRequest,
  completeLoad,
  createRequest,
  listRequests,
  loadLoadOut,
  loadRequest,
  markDelivered,
  pullStepMovesRequest,
  scanOntoTruck,
  scheduleRequest,
} from './requests.service';

const tags = ['Requests'];
const params = idParams(REQUEST_NOT_FOUND);

/**
 * The office's side of customers' requests and the dock's load-out check (issue 29, points 3 and 4; decision 048).
 * The customer's side is under /api/portal/requests.
 */
export const requestsRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database, config }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;
  const mailFor = (request: FastifyRequest): RequestMail => ({
    on: config.mail !== null,
    portalUrl: `${publicOrigin(config, request)}/portal`,
  });
  // a pull step on a request's list moves the request to Pulling (no request at hand: the configured address only)
  onPullStep(
    db,
    pullStepMovesRequest({
      on: config.mail !== null,
      portalUrl: config.publicUrl ? `${config.publicUrl}/portal` : null,
    }),
  );
  const staff = (request: FastifyRequest): RequestActor & { kind: 'staff' } => {
    const user = requireUser(request);
    return { kind: 'staff', companyId: user.companyId, userId: user.id, role: user.role };
  };

  app.get(
    '/api/requests',
    {
      schema: {
        tags,
        summary: "The company's customer requests, newest first, all or in one state",
        querystring: RequestListQuerySchema,
        response: { 200: z.array(RequestSummaryDtoSchema) },
      },
    },
    async (request) => listRequests(db, requireUser(request).companyId, request.query),
  );

  app.post(
    '/api/requests',
    {
      schema: {
        tags,
        summary: 'Enter a request for a customer (on the phone)',
        body: OfficeRequestSchema,
        response: { 201: RequestDtoSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await createRequest(db, staff(request), request.body.customer_id, request.body, mailFor(request)),
        ),
  );

  app.get(
    '/api/requests/:id',
    {
      schema: {
        tags,
        summary: 'One request with its units and steps',
        params,
        response: { 200: RequestDtoSchema },
      },
    },
    async (request) => loadRequest(db, requireUser(request).companyId, request.params.id),
  );

  app.post(
    '/api/requests/:id/schedule',
    {
      schema: {
        tags,
        summary: 'Schedule a request (date, crew, truck); makes the pull list of exactly its units',
        params,
        body: ScheduleRequestSchema,
        response: { 200: RequestDtoSchema },
      },
    },
    async (request) => scheduleRequest(db, staff(request), request.params.id, request.body, mailFor(request)),
  );

  app.post(
    '/api/requests/:id/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel a request before it is loaded',
        params,
        response: { 200: RequestDtoSchema },
      },
    },
    async (request) => cancelRequest(db, staff(request), request.params.id, mailFor(request)),
  );

  app.post(
    '/api/requests/:id/delivered',
    {
      schema: {
        tags,
        summary: 'Mark a loaded request delivered (an access visit: done); Floor, Office or Manager',
        params,
        response: { 200: RequestDtoSchema },
      },
    },
    async (request) => markDelivered(db, staff(request), request.params.id, mailFor(request)),
  );

  app.get(
    '/api/requests/:id/load-out',
    {
      schema: {
        tags,
        summary: 'The load-out check: requested, loaded and missing units',
        params,
        response: { 200: LoadOutDtoSchema },
      },
    },
    async (request) => loadLoadOut(db, requireUser(request).companyId, request.params.id),
  );

  app.post(
    '/api/requests/:id/load-scans',
    {
      schema: {
        tags,
        summary: 'Scan one unit onto the truck; a unit not on the request is refused',
        params,
        body: LoadScanSchema,
        response: { 200: LoadScanAnswerSchema },
      },
    },
    async (request) =>
      scanOntoTruck(db, staff(request), request.params.id, request.body.text, mailFor(request)),
  );

  app.post(
    '/api/requests/:id/load',
    {
      schema: {
        tags,
        summary: "Mark the load complete and release its units (units missing: a Manager's reason)",
        params,
        body: LoadRequestSchema,
        response: { 200: RequestDtoSchema },
      },
    },
    async (request) => completeLoad(db, staff(request), request.params.id, request.body, mailFor(request)),
  );
};
