import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SessionUserSchema } from '@domain/schemas/auth.schema';
import { CompanySettingsDtoSchema, CompanySettingsSchema } from '@domain/schemas/company.schema';
import { idParams } from '@domain/schemas/route-params';
import {
  AcceptLinkSchema,
  InviteSchema,
  LinkInfoDtoSchema,
  LinkTokenSchema,
  MailListDtoSchema,
  MemberDtoSchema,
  MemberLinkDtoSchema,
  ProfileSchema,
  TeamDtoSchema,
  UpdateMemberSchema,
} from '@domain/schemas/team.schema';
import { requireUser } from '../../auth/session.plugin';
import { findSessionUser, noteSignIn } from '../../auth/users.repo';
import { publicOrigin } from '../../http/public-url';
import type { FeatureOptions } from '../feature-options';
import { loadCompanyMails } from '../../mail/mail-presenter';
import {
  MEMBER_NOT_FOUND,
  acceptLink,
  changeCompanySettings,
  changeMember,
  changeProfile,
  inviteMember,
  linkInfo,
  loadTeam,
  LINK_NOT_FOUND,
  resetLinkFor,
  revokeLink,
} from './team.service';
import { presentSessionUser } from '../../auth/session.plugin';

const tags = ['Team'];

// one-time links are guessed at no faster than this per address (their tokens are 256 bits; this keeps the noise down)
const linkRateLimit = { rateLimit: { max: 30, timeWindow: '1 minute' } };

/** The team page (Managers), one-time invitation and reset links, and every member's own profile. */
export const teamRoutes: FastifyPluginAsync<FeatureOptions> = async (plain, { database, config }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get(
    '/api/team',
    {
      schema: {
        tags,
        summary: "The company's members, open invitations and open password links",
        response: { 200: TeamDtoSchema },
      },
    },
    async (request) => loadTeam(db, requireUser(request).companyId),
  );

  const delivery = (request: FastifyRequest) => ({
    origin: publicOrigin(config, request),
    mail: config.mail !== null,
  });

  app.post(
    '/api/team/invites',
    {
      schema: {
        tags,
        summary: 'Invite a new member with a role: a one-time link, mailed or shown to copy',
        body: InviteSchema,
        response: { 201: MemberLinkDtoSchema },
      },
    },
    async (request, reply) => {
      const link = await inviteMember(db, requireUser(request), request.body, delivery(request));
      return reply.status(201).send({ ...link, url: publicOrigin(config, request) + link.path });
    },
  );

  app.patch(
    '/api/team/members/:id',
    {
      schema: {
        tags,
        summary: "Change a member's role, or deactivate or reactivate them",
        params: idParams(MEMBER_NOT_FOUND),
        body: UpdateMemberSchema,
        response: { 200: MemberDtoSchema },
      },
    },
    async (request) => changeMember(db, requireUser(request), request.params.id, request.body),
  );

  app.post(
    '/api/team/members/:id/reset-link',
    {
      schema: {
        tags,
        summary: "A one-time link to set a member's password (the member's earlier ones stop working)",
        params: idParams(MEMBER_NOT_FOUND),
        response: { 201: MemberLinkDtoSchema },
      },
    },
    async (request, reply) => {
      const link = await resetLinkFor(db, requireUser(request), request.params.id, delivery(request));
      return reply.status(201).send({ ...link, url: publicOrigin(config, request) + link.path });
    },
  );

  // the Team page's list of the company's mails and their delivery state (decision 042)
  app.get(
    '/api/team/mails',
    {
      schema: {
        tags,
        summary: "The company's latest mails and their delivery state",
        response: { 200: MailListDtoSchema },
      },
    },
    async (request) => loadCompanyMails(db, requireUser(request).companyId, config.mail !== null),
  );

  app.delete(
    '/api/team/links/:id',
    {
      schema: {
        tags,
        summary: 'Revoke an invitation or password link before it is used',
        params: idParams(LINK_NOT_FOUND),
        response: { 204: z.undefined().describe('Revoked: no content') },
      },
    },
    async (request, reply) => {
      await revokeLink(db, requireUser(request), request.params.id);
      return reply.status(204).send();
    },
  );

  // the token travels in the body, never in an address a log could keep
  app.post(
    '/api/team/link',
    {
      config: linkRateLimit,
      schema: {
        tags,
        summary: 'What a one-time link is for, before it is used',
        body: LinkTokenSchema,
        response: { 200: LinkInfoDtoSchema },
      },
    },
    async (request) => linkInfo(db, request.body.token),
  );

  app.post(
    '/api/team/link/accept',
    {
      config: linkRateLimit,
      schema: {
        tags,
        summary: 'Use a one-time link: join the company, or set a new password; signs the member in',
        body: AcceptLinkSchema,
        response: { 200: SessionUserSchema.nullable() },
      },
    },
    async (request, reply) => {
      const { userId, companyId } = await acceptLink(db, request.body);
      // whoever the browser was signed in as, it is now the member the link was for
      await app.sessions.end(request, reply);
      await app.sessions.start(reply, { id: userId, companyId });
      // the link signs the member in: the team page shows it as their last sign-in
      await noteSignIn(db, userId);
      const row = await findSessionUser(db, userId);
      return row ? presentSessionUser(row) : null;
    },
  );

  // the company's settings (its locale); the session carries them, so every page sees the change on its next read
  app.patch(
    '/api/company',
    {
      schema: {
        tags: ['Company'],
        summary: "Change the company's locale (how its dates and amounts are shown)",
        body: CompanySettingsSchema,
        response: { 200: CompanySettingsDtoSchema },
      },
    },
    async (request) => changeCompanySettings(db, requireUser(request), request.body),
  );

  app.patch(
    '/api/profile',
    {
      schema: {
        tags: ['Profile'],
        summary: 'Change your own name or password (a new password ends your other sessions)',
        body: ProfileSchema,
        response: { 200: MemberDtoSchema },
      },
    },
    async (request) => changeProfile(db, requireUser(request), request.sessionId, request.body),
  );
};
