import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ContactMessageDtoSchema,
  ContactMessageSchema,
  ContactSentAnswerSchema,
  ContactSettingsDtoSchema,
} from '@domain/schemas/contact.schema';
import { requireUser } from '../../auth/session.plugin';
import { nowIso } from '../../db/database';
import { notFound } from '../../http/errors';
import type { FeatureOptions } from '../feature-options';
import { findInboxCompanyId, insertContactMessage, listContactMessages } from './contact.repo';
import { presentContactMessage } from './contact.presenter';

export const CONTACT_RATE_LIMIT = { max: 5, timeWindow: '10 minutes' };
export const CONTACT_TOO_MANY =
  'You have sent several messages in a short time. Please try again in a few minutes.';
const MESSAGES_SHOWN = 500;

const tags = ['Contact'];

export const contactRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { config, database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get(
    '/api/contact/settings',
    {
      schema: {
        tags,
        summary: "Where the landing page's contact form sends to (a hosted form, or this server)",
        response: { 200: ContactSettingsDtoSchema },
      },
    },
    async () => ({ formId: config.contactFormId ?? null }),
  );

  app.post(
    '/api/contact',
    {
      config: {
        rateLimit: {
          ...CONTACT_RATE_LIMIT,
          errorResponseBuilder: () => ({ statusCode: 429, errors: [CONTACT_TOO_MANY] }),
        },
      },
      schema: {
        tags,
        summary: "A visitor's message from the landing page (a few per address in ten minutes)",
        body: ContactMessageSchema,
        response: { 201: ContactSentAnswerSchema },
      },
    },
    async (request, reply) => {
      const input = request.body;
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
  app.get(
    '/api/contact/messages',
    {
      schema: {
        tags,
        summary: "The landing page's messages, newest first (the operator's company only)",
        response: { 200: z.array(ContactMessageDtoSchema) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      if (user.companyId !== (await findInboxCompanyId(db, config.contactInboxCompany))) throw notFound();
      return (await listContactMessages(db, MESSAGES_SHOWN)).map(presentContactMessage);
    },
  );
};
