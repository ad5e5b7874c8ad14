import { z } from 'zod';
import { ROLES, type Role } from '../rules/roles';
import { emailAddress, safeName } from './form-values';

/** How long a one-time link works: an invitation a week, a password reset a day. */
export const INVITE_LINK_HOURS = 7 * 24;
export const RESET_LINK_HOURS = 24;

const role = z.enum(ROLES, { error: 'Role must be Manager, Office, Floor or Viewer.' });
const memberName = safeName('Name', z.string().trim().min(1, 'Name is required.').max(100));
// the full rule (length and strength) is the server's: server/auth/password-policy.ts
const newPassword = z
  .string({ error: 'Password is required.' })
  .min(1, 'Password is required.')
  .max(1024, 'Password is too long.');

export const InviteSchema = z.object({
  email: emailAddress,
  role,
});
export type InviteInput = z.infer<typeof InviteSchema>;

export const UpdateMemberSchema = z
  .object({ role: role.optional(), active: z.boolean({ error: 'Active must be true or false.' }).optional() })
  .refine((v) => v.role !== undefined || v.active !== undefined, 'Say what to change: a role or active.');
export type UpdateMemberInput = z.infer<typeof UpdateMemberSchema>;

const token = z.string({ error: 'The link is incomplete.' }).min(1, 'The link is incomplete.').max(200);
export const LinkTokenSchema = z.object({ token });
export const AcceptLinkSchema = z.object({ token, name: memberName.optional(), password: newPassword });
export type AcceptLinkInput = z.infer<typeof AcceptLinkSchema>;

export const ProfileSchema = z
  .object({
    name: memberName.optional(),
    currentPassword: z.string().max(1024).optional(),
    newPassword: newPassword.optional(),
  })
  .refine(
    (v) => v.name !== undefined || v.newPassword !== undefined,
    'Say what to change: a name or a password.',
  )
  .refine(
    (v) => v.newPassword === undefined || (v.currentPassword ?? '') !== '',
    'Enter your current password to set a new one.',
  );
export type ProfileInput = z.infer<typeof ProfileSchema>;

export interface MemberDto {
  id: number;
  name: string;
  email: string;
  role: Role;
  active: boolean;
  lastSignInAt: string | null;
  createdAt: string;
}

export interface PendingInviteDto {
  id: number;
  email: string;
  role: Role;
  expiresAt: string;
}

/** A password link of a member that still works. */
export interface PendingResetDto {
  id: number;
  memberId: number;
  expiresAt: string;
}

export interface TeamDto {
  members: MemberDto[];
  invites: PendingInviteDto[];
  resets: PendingResetDto[];
}

/** A one-time link as its creator sees it, once: the token is in the fragment, so it never reaches a server log. */
export interface MemberLinkDto {
  /** the link's id, to revoke it by */
  id: number;
  path: string;
  /** the whole link to hand out: PUBLIC_URL (or the address the request came to) and the path */
  url: string;
  expiresAt: string;
  /** the mail that carries the link (SMTP_URL set), or null when the link is shown to copy */
  mailId?: number | null;
}

/** What a link's page shows before it is used. */
export interface LinkInfoDto {
  kind: 'invite' | 'reset';
  email: string;
  company: string;
  name: string | null;
}

/** What a mail is about: the one list the outbox, its answer and the Team page share. */
export const MAIL_KINDS = ['invite', 'reset', 'portal-link', 'request', 'invoice', 'sit-notice'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** A mail the product sent or is sending (issue 29, decision 042), as the Team page lists it. */
export interface MailDto {
  id: number;
  kind: MailKind;
  to: string;
  subject: string;
  /** 'sending' while a worker holds it; 'failed' after the last attempt */
  status: 'queued' | 'sending' | 'sent' | 'failed';
  attempts: number;
  lastError: string | null;
  /** when a queued mail is tried next */
  nextAttemptAt: string | null;
  sentAt: string | null;
  createdAt: string;
}

/** The company's latest mails; `enabled` is false without SMTP_URL, when links are copied instead. */
export interface MailListDto {
  enabled: boolean;
  mails: MailDto[];
}

// Answer schemas (decision 045), typed to the DTOs.
const memberRole = z.enum(ROLES);

export const MemberDtoSchema: z.ZodType<MemberDto> = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: memberRole,
  active: z.boolean(),
  lastSignInAt: z.string().nullable(),
  createdAt: z.string(),
});

export const TeamDtoSchema: z.ZodType<TeamDto> = z.object({
  members: z.array(MemberDtoSchema),
  invites: z.array(
    z.object({ id: z.number().int(), email: z.string(), role: memberRole, expiresAt: z.string() }),
  ),
  resets: z.array(z.object({ id: z.number().int(), memberId: z.number().int(), expiresAt: z.string() })),
});

export const MemberLinkDtoSchema: z.ZodType<MemberLinkDto> = z.object({
  id: z.number().int(),
  path: z.string().describe('the link without its origin; the token is in the fragment'),
  url: z.string(),
  expiresAt: z.string(),
  mailId: z.number().int().nullable().optional(),
});

export const LinkInfoDtoSchema: z.ZodType<LinkInfoDto> = z.object({
  kind: z.enum(['invite', 'reset']),
  email: z.string(),
  company: z.string(),
  name: z.string().nullable(),
});

export const MailListDtoSchema: z.ZodType<MailListDto> = z.object({
  enabled: z.boolean(),
  mails: z.array(
    z.object({
      id: z.number().int(),
      kind: z.enum(MAIL_KINDS),
      to: z.string(),
      subject: z.string(),
      status: z.enum(['queued', 'sending', 'sent', 'failed']),
      attempts: z.number().int(),
      lastError: z.string().nullable(),
      nextAttemptAt: z.string().nullable(),
      sentAt: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
});
