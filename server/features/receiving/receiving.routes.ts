import type { FastifyPluginAsync } from 'fastify';
import { ReceiveShipmentSchema, ShipmentProposalSchema } from '../../../domain/schemas/receiving.schema';
import { actorOf } from '../../auth/actor';
import { requireUser } from '../../auth/session.plugin';
import { parseInput } from '../../http/errors';
import type { FeatureOptions } from '../feature-options';
import { proposeShipment, receiveShipment } from './receiving.service';

// Issue 16. The proposal is a read (it changes nothing); receiving is floor work.
export const receivingRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database }) => {
  const { db } = database;

  app.post('/api/receiving/proposal', async (request) => {
    const user = requireUser(request);
    return proposeShipment(db, user.companyId, parseInput(ShipmentProposalSchema, request.body));
  });

  app.post('/api/receiving', async (request, reply) => {
    const actor = actorOf(request);
    return reply
      .status(201)
      .send(await receiveShipment(db, actor, parseInput(ReceiveShipmentSchema, request.body)));
  });
};
