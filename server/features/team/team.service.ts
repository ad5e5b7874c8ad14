import crypto from 'node:crypto';
import { type Role, isRole } from '@domain/rules/roles';
import type { SessionUser } from '@domain/schemas/auth.schema';
import type { CompanySettingsDto, CompanySettingsInput } from '@domain/schemas/company.schema';
import {
  type AcceptLinkInput,
  INVITE_LINK_HOURS,
  type InviteInput,
  type LinkInfoDto,
  type MemberDto,
  type MemberLinkDto,
  type ProfileInput,
  RESET_LINK_HOURS,
  type TeamDto,
  type UpdateMemberInput,
} from '@domain/schemas/team.schema';
import { hashPassword, verifyPassword } from '../../auth/password';
import { passwordProblems } from '../../auth/password-policy';
import { deleteSessionsOfUser } from '../../auth/sessions.repo';
import { insertUser } from '../../auth/users.repo';
import { type Db, nowIso } from '../../db/database';
import type { Trx } from '../../db/locks';
import { recordEvent } from '../../events/event-log.repo';
import { endUserStreams } from '../../events/live-streams';
import { HttpError, badRequest, conflict, notFound } from '../../http/errors';
import { dropQueuedMails, enqueueMailIf } from '../../mail/mail-outbox.repo';
import { type MailText, invitationMail, passwordResetMail } from '../../mail/mail-texts';
import {
  type MemberRow,
  countActiveManagers,
  findCompanySettings,
  findMember,
  findUsableLink,
  insertMemberLink,
  listMembers,
  findCompanyLink,
  listPendingLinks,
  lockTeam,
  retireInvites,
  retireResetLinks,
  updateCompanyLocale,
  updateMember,
  useLink,
  userWithEmailExists,
  inviteBlock,
} from './team.repo';

export const MEMBER_NOT_FOUND = 'Member not found.';
export const LINK_UNUSABLE =
  'This link has expired or was already used. Ask a Manager of your company for a new one.';
export const LAST_MANAGER =
  'A company always keeps at least one active Manager: make another member a Manager first.';
export const WRONG_PASSWORD = 'Your current password is not right.';
export const EMAIL_TAKEN = 'A user with this email already exists.';
/** Said of an active member's own address. */
export const ALREADY_A_MEMBER = 'This address already belongs to a member of your team.';
/** Said of the address of one of the company's own deactivated members. */
export const DEACTIVATED_MEMBER =
  'This address belongs to a deactivated member of your team: reactivate them in the members list instead.';
/**
 * Said of every other address that cannot be invited (an account or open invitation of another company): the same
 * words and status whatever the reason, so an invitation tells nothing about other companies (issue 34).
 */
export const CANNOT_INVITE = 'This address cannot be invited. Ask the person for another email address.';
const INVITE_REFUSALS = {
  member: ALREADY_A_MEMBER,
  deactivated: DEACTIVATED_MEMBER,
  elsewhere: CANNOT_INVITE,
} as const;
export const LINK_NOT_FOUND = 'Link not found.';
export const LINK_NOT_OPEN =
  'This link was already used, revoked or has expired: there is nothing to revoke.';

/**
 * How a new link reaches its person: `origin` starts the link; with `mail` (SMTP_URL is set) a mail carrying it is
 * queued in the same transaction as the link (decision 042), otherwise the Manager is shown the link to copy.
 */
export interface LinkDelivery {
  origin: string;
  mail: boolean;
}

/** A new link as its creator sees it: `mailId` is the queued mail's id, null when the link is to be copied. */
export type CreatedLink = Omit<MemberLinkDto, 'url'> & { mailId: number | null };

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

export function presentMember(row: MemberRow): MemberDto {
  return {
    id: row.id,
    name: row.username,
    email: row.email,
    role: isRole(row.role) ? row.role : 'viewer',
    active: row.active === 1,
    lastSignInAt: row.last_sign_in_at,
    createdAt: row.created_at,
  };
}

export async function loadTeam(db: Db, companyId: number): Promise<TeamDto> {
  const [members, links] = await Promise.all([listMembers(db, companyId), listPendingLinks(db, companyId)]);
  return {
    members: members.map(presentMember),
    invites: links
      .filter((row) => row.kind === 'invite')
      .map((row) => ({
        id: row.id,
        email: row.email,
        role: isRole(row.role) ? row.role : 'viewer',
        expiresAt: row.expires_at,
      })),
    resets: links
      .filter((row) => row.kind === 'reset' && row.user_id !== null)
      .map((row) => ({ id: row.id, memberId: row.user_id!, expiresAt: row.expires_at })),
  };
}

/**
 * A new one-time link of the Manager's company, made by the Manager, and its mail queued in the same transaction when
 * mail is on (`mailOf` writes it from the link's address and end). A new random token: only its hash is stored, the
 * link is shown once.
 */
async function newLink(
  trx: Trx,
  manager: SessionUser,
  delivery: LinkDelivery,
  link: { kind: 'invite' | 'reset'; email: string; role: Role | null; userId: number | null },
  mailOf: (url: string, expiresAt: string) => MailText,
): Promise<CreatedLink> {
  const token = crypto.randomBytes(32).toString('base64url');
  const expiresAt = hoursFromNow(link.kind === 'invite' ? INVITE_LINK_HOURS : RESET_LINK_HOURS);
  const { id } = await insertMemberLink(trx, {
    ...link,
    companyId: manager.companyId,
    tokenHash: hashToken(token),
    createdBy: manager.id,
    expiresAt,
  });
  const path = `/join#${token}`;
  // the link it renews no longer works, so neither may a mail of it still waiting to go out
  await dropQueuedMails(trx, manager.companyId, link.kind, link.email);
  const mailId = await enqueueMailIf(delivery.mail, trx, {
    companyId: manager.companyId,
    ...mailOf(delivery.origin + path, expiresAt),
    recipient: link.email,
    createdBy: manager.username,
  });
  return { id: Number(id), path, expiresAt, mailId };
}

export async function inviteMember(
  db: Db,
  manager: SessionUser,
  input: InviteInput,
  delivery: LinkDelivery,
): Promise<CreatedLink> {
  const block = await inviteBlock(db, manager.companyId, input.email);
  if (block) throw conflict(INVITE_REFUSALS[block]);
  return db.transaction().execute(async (trx) => {
    // an address invited again has its invitation renewed: the team is locked so that two invitations at once leave
    // one, and the earlier link stops working, as a newer password link retires the older one
    await lockTeam(trx, manager.companyId);
    await retireInvites(trx, manager.companyId, input.email);
    const link = await newLink(
      trx,
      manager,
      delivery,
      { kind: 'invite', email: input.email, role: input.role, userId: null },
      (url, expiresAt) =>
        invitationMail({ company: manager.company.name, inviter: manager.username, url, expiresAt }),
    );
    await recordEvent(trx, {
      companyId: manager.companyId,
      userId: manager.id,
      actor: manager.username,
      kind: 'member.invited',
      entityType: 'member',
      entityId: null,
      payload: { email: input.email, role: input.role },
    });
    return link;
  });
}

export async function resetLinkFor(
  db: Db,
  manager: SessionUser,
  memberId: number,
  delivery: LinkDelivery,
): Promise<CreatedLink> {
  const member = await findMember(db, manager.companyId, memberId);
  if (!member) throw notFound(MEMBER_NOT_FOUND);
  if (member.active !== 1) throw conflict('Reactivate the member before resetting their password.');
  return db.transaction().execute(async (trx) => {
    await retireResetLinks(trx, manager.companyId, member.id);
    return newLink(
      trx,
      manager,
      delivery,
      { kind: 'reset', email: member.email, role: null, userId: member.id },
      (url, expiresAt) =>
        passwordResetMail({ company: manager.company.name, name: member.username, url, expiresAt }),
    );
  });
}

/**
 * Revokes an invitation or password link before it is used: from the commit on it answers as an unusable link. Racing
 * the member who opens it, exactly one of the two wins (the same one-time mark), and the loser is told.
 */
export async function revokeLink(db: Db, manager: SessionUser, linkId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const link = await findCompanyLink(trx, manager.companyId, linkId);
    if (!link) throw notFound(LINK_NOT_FOUND);
    if (link.used_at !== null || link.expires_at <= nowIso()) throw conflict(LINK_NOT_OPEN);
    if (!(await useLink(trx, manager.companyId, link.id))) throw conflict(LINK_NOT_OPEN);
    const member = link.user_id === null ? undefined : await findMember(trx, manager.companyId, link.user_id);
    await recordEvent(trx, {
      companyId: manager.companyId,
      userId: manager.id,
      actor: manager.username,
      kind: link.kind === 'invite' ? 'member.invite-revoked' : 'member.reset-revoked',
      entityType: 'member',
      entityId: link.user_id,
      payload: {
        email: link.email,
        ...(link.role !== null && { role: link.role }),
        ...(member && { name: member.username }),
      },
    });
  });
}

export async function linkInfo(db: Db, token: string): Promise<LinkInfoDto> {
  const link = await findUsableLink(db, hashToken(token));
  if (!link || (link.kind === 'reset' && link.active !== 1)) throw notFound(LINK_UNUSABLE);
  return {
    kind: link.kind,
    email: link.email,
    company: link.company_name,
    name: link.kind === 'reset' ? (link.username ?? null) : null,
  };
}

function refuseWeakPassword(password: string, context: string[]) {
  const problems = passwordProblems(password, context);
  if (problems.length > 0) throw badRequest(...problems);
}

/**
 * Uses a one-time link: an invitation creates the member with its role, a reset sets the member's password and ends
 * every session they had. Answers who to sign in. A link works once, even when two requests race for it.
 */
export async function acceptLink(
  db: Db,
  input: AcceptLinkInput,
): Promise<{ userId: number; companyId: number }> {
  const link = await findUsableLink(db, hashToken(input.token));
  if (!link || (link.kind === 'reset' && link.active !== 1)) throw notFound(LINK_UNUSABLE);
  if (link.kind === 'invite' && !input.name) throw badRequest('Name is required.');
  refuseWeakPassword(input.password, [link.email, link.company_name, input.name ?? '']);
  const passwordHash = await hashPassword(input.password);
  const done = await db.transaction().execute(async (trx) => {
    if (!(await useLink(trx, link.company_id, link.id))) throw notFound(LINK_UNUSABLE);
    if (link.kind === 'invite') {
      if (await userWithEmailExists(trx, link.email)) throw conflict(EMAIL_TAKEN);
      const user = await insertUser(trx, {
        companyId: link.company_id,
        email: link.email,
        username: input.name!,
        passwordHash,
        role: isRole(link.role) ? link.role : 'viewer',
      });
      await recordEvent(trx, {
        companyId: link.company_id,
        userId: user.id,
        actor: user.username,
        kind: 'member.joined',
        entityType: 'member',
        entityId: user.id,
        payload: { name: user.username, email: user.email, role: user.role },
      });
      return { userId: user.id, companyId: link.company_id };
    }
    const userId = link.user_id!;
    await updateMember(trx, link.company_id, userId, { password_hash: passwordHash });
    await deleteSessionsOfUser(trx, userId);
    return { userId, companyId: link.company_id };
  });
  if (link.kind === 'reset') endUserStreams(done.userId);
  return done;
}

/**
 * Changes a member's role or active state. The team is locked for the check, so the company always keeps an active
 * Manager however many changes run at once. Deactivating ends the member's sessions and live streams at once.
 */
export async function changeMember(
  db: Db,
  manager: SessionUser,
  memberId: number,
  input: UpdateMemberInput,
): Promise<MemberDto> {
  const updated = await db.transaction().execute(async (trx) => {
    await lockTeam(trx, manager.companyId);
    const member = await findMember(trx, manager.companyId, memberId);
    if (!member) throw notFound(MEMBER_NOT_FOUND);
    const role = input.role ?? member.role;
    const active = input.active === undefined ? member.active : input.active ? 1 : 0;
    const wasManager = member.role === 'manager' && member.active === 1;
    const staysManager = role === 'manager' && active === 1;
    if (wasManager && !staysManager && (await countActiveManagers(trx, manager.companyId, member.id)) === 0)
      throw conflict(LAST_MANAGER);
    await updateMember(trx, manager.companyId, member.id, { role, active });
    if (active === 0) {
      await deleteSessionsOfUser(trx, member.id);
      await retireResetLinks(trx, manager.companyId, member.id);
    }
    const changes: Record<string, { before: unknown; after: unknown }> = {};
    if (role !== member.role) changes.role = { before: member.role, after: role };
    if (active !== member.active) changes.active = { before: member.active === 1, after: active === 1 };
    if (Object.keys(changes).length > 0)
      await recordEvent(trx, {
        companyId: manager.companyId,
        userId: manager.id,
        actor: manager.username,
        kind: active === 0 && member.active === 1 ? 'member.deactivated' : 'member.changed',
        entityType: 'member',
        entityId: member.id,
        payload: { name: member.username, email: member.email, changes },
      });
    return { ...member, role, active };
  });
  if (updated.active === 0) endUserStreams(updated.id);
  return presentMember(updated);
}

/** A member's own name and password; a new password ends the member's other sessions. */
export async function changeProfile(
  db: Db,
  user: SessionUser,
  sessionId: string | null,
  input: ProfileInput,
): Promise<MemberDto> {
  const member = await findMember(db, user.companyId, user.id);
  if (!member) throw notFound(MEMBER_NOT_FOUND);
  let passwordHash: string | undefined;
  if (input.newPassword !== undefined) {
    if (!(await verifyPassword(member.password_hash, input.currentPassword ?? '')))
      throw new HttpError(400, [WRONG_PASSWORD]);
    refuseWeakPassword(input.newPassword, [member.email, user.company.name, input.name ?? member.username]);
    passwordHash = await hashPassword(input.newPassword);
  }
  await db.transaction().execute(async (trx) => {
    await updateMember(trx, user.companyId, user.id, {
      ...(input.name !== undefined && { username: input.name }),
      ...(passwordHash !== undefined && { password_hash: passwordHash }),
    });
    if (passwordHash !== undefined) await deleteSessionsOfUser(trx, user.id, sessionId ?? undefined);
  });
  return presentMember({ ...member, username: input.name ?? member.username });
}

/** The company's locale, which every member's dates and numbers are shown in (a Manager's change). */
export async function changeCompanySettings(
  db: Db,
  manager: SessionUser,
  input: CompanySettingsInput,
): Promise<CompanySettingsDto> {
  await updateCompanyLocale(db, manager.companyId, input.locale);
  const company = await findCompanySettings(db, manager.companyId);
  if (!company) throw notFound('Company not found.');
  return { id: company.id, name: company.name, locale: company.locale };
}
