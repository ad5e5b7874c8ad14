import type { FastifyPluginAsync } from 'fastify';
import { ContactMessageSchema, type ContactSettingsDto } from '@domain/schemas/contact.schema';
import { requireUser } from '../../auth/session.plugin';
import { nowIso } from '../../db/database';
import { notFound, parseInput } from '../../http/errors';
import type { FeatureOptions } from '../feature-options';
import { findInboxCompanyId, insertContactMessage, listContactMessages } from './contact.repo';
import { presentContactMessage } from './contact.presenter';

export const CONTACT_RATE_LIMIT = { max: 5, timeWindow: '10 minutes' };
export const CONTACT_TOO_MANY =
  'You have sent several messages in a short time. Please try again in a few minutes.';
const MESSAGES_SHOWN = 500;

export const contactRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { config, database }) => {
  const { db } = database;

  app.get('/api/contact/settings', async (): Promise<ContactSettingsDto> => ({
    formId: config.contactFormId ?? null,
  }));

  app.post(
    '/api/contact',
    {
      config: {
        rateLimit: {
          ...CONTACT_RATE_LIMIT,
          errorResponseBuilder: () => ({ statusCode: 429, errors: [CONTACT_TOO_MANY] }),
        },
      },
    },
    async (request, reply) => {
      const input = parseInput(ContactMessageSchema, request.body);
      const id = await insertContactMessage(db, {
        name: input.name,
        company: input.company ?? null,
        email: input.email,
        message: input.message,
        ip: request.ip,
        createdAt: nowIso(),
      });
      return reply.status(201).send({ id, message: 'Thank you for your message.' });
    },
  );

  // messages from the landing page belong to the operator of this installation, not to every tenant
  app.get('/api/contact/messages', async (request) => {
    const user = requireUser(request);
    if (user.companyId !== (await findInboxCompanyId(db, config.contactInboxCompany))) throw notFound();
    return (await listContactMessages(db, MESSAGES_SHOWN)).map(presentContactMessage);
  });
};
