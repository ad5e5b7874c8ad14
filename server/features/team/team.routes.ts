import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  AcceptLinkSchema,
  InviteSchema,
  LinkTokenSchema,
  ProfileSchema,
  UpdateMemberSchema,
} from '@domain/schemas/team.schema';
import { CompanySettingsSchema } from '@domain/schemas/company.schema';
import { requireUser } from '../../auth/session.plugin';
import { findSessionUser, noteSignIn } from '../../auth/users.repo';
import { parseId, parseInput } from '../../http/errors';
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

// one-time links are guessed at no faster than this per address (their tokens are 256 bits; this keeps the noise down)
const linkRateLimit = { rateLimit: { max: 30, timeWindow: '1 minute' } };

/** The team page (Managers), one-time invitation and reset links, and every member's own profile. */
export const teamRoutes: FastifyPluginAsync<FeatureOptions> = async (app, { database, config }) => {
  const { db } = database;

  app.get('/api/team', async (request) => loadTeam(db, requireUser(request).companyId));

  const delivery = (request: FastifyRequest) => ({
    origin: publicOrigin(config, request),
    mail: config.mail !== null,
  });

  app.post('/api/team/invites', async (request, reply) => {
    const link = await inviteMember(
      db,
      requireUser(request),
      parseInput(InviteSchema, request.body),
      delivery(request),
    );
    return reply.status(201).send({ ...link, url: publicOrigin(config, request) + link.path });
  });

  app.patch<{ Params: { id: string } }>('/api/team/members/:id', async (request) =>
    changeMember(
      db,
      requireUser(request),
      parseId(request.params.id, MEMBER_NOT_FOUND),
      parseInput(UpdateMemberSchema, request.body),
    ),
  );

  app.post<{ Params: { id: string } }>('/api/team/members/:id/reset-link', async (request, reply) => {
    const link = await resetLinkFor(
      db,
      requireUser(request),
      parseId(request.params.id, MEMBER_NOT_FOUND),
      delivery(request),
    );
    return reply.status(201).send({ ...link, url: publicOrigin(config, request) + link.path });
  });

  // the Team page's list of the company's mails and their delivery state (decision 042)
  app.get('/api/team/mails', async (request) =>
    loadCompanyMails(db, requireUser(request).companyId, config.mail !== null),
  );

  app.delete<{ Params: { id: string } }>('/api/team/links/:id', async (request, reply) => {
    await revokeLink(db, requireUser(request), parseId(request.params.id, LINK_NOT_FOUND));
    return reply.status(204).send();
  });

  // the token travels in the body, never in an address a log could keep
  app.post('/api/team/link', { config: linkRateLimit }, async (request) =>
    linkInfo(db, parseInput(LinkTokenSchema, request.body).token),
  );

  app.post('/api/team/link/accept', { config: linkRateLimit }, async (request, reply) => {
    const { userId, companyId } = await acceptLink(db, parseInput(AcceptLinkSchema, request.body));
    // whoever the browser was signed in as, it is now the member the link was for
    await app.sessions.end(request, reply);
    await app.sessions.start(reply, { id: userId, companyId });
    // the link signs the member in: the team page shows it as their last sign-in
    await noteSignIn(db, userId);
    const row = await findSessionUser(db, userId);
    return row ? presentSessionUser(row) : null;
  });

  // the company's settings (its locale); the session carries them, so every page sees the change on its next read
  app.patch('/api/company', async (request) =>
    changeCompanySettings(db, requireUser(request), parseInput(CompanySettingsSchema, request.body)),
  );

  app.patch('/api/profile', async (request) =>
    changeProfile(db, requireUser(request), request.sessionId, parseInput(ProfileSchema, request.body)),
  );
};
