import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ReceiveShipmentSchema,
  ReceivedDtoSchema,
  ShipmentProposalDtoSchema,
  ShipmentProposalSchema,
} from '@domain/schemas/receiving.schema';
import { actorOf } from '../../auth/actor';
import { requireUser } from '../../auth/session.plugin';
import type { FeatureOptions } from '../feature-options';
import { proposeShipment, receiveShipment } from './receiving.service';

const tags = ['Receiving'];

// Issue 16. The proposal is a read (it changes nothing); receiving is floor work.
export const receivingRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.post(
    '/api/receiving/proposal',
    {
      schema: {
        tags,
        summary: "Propose slots for a shipment's vaults (changes nothing)",
        body: ShipmentProposalSchema,
        response: { 200: ShipmentProposalDtoSchema },
      },
    },
    async (request) => proposeShipment(db, requireUser(request).companyId, request.body),
  );

  app.post(
    '/api/receiving',
    {
      schema: {
        tags,
        summary: "Store a shipment's vaults in the chosen fields, all or none",
        body: ReceiveShipmentSchema,
        response: { 201: ReceivedDtoSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await receiveShipment(db, actorOf(request), request.body)),
  );
};
