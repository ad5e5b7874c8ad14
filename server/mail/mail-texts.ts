import type { MailKind } from './mail-outbox.repo';

/** A mail's subject and plain-text body. */
export interface MailText {
  kind: MailKind;
  subject: string;
  body: string;
}

const signature = '\n\n-- \nWarehouse Manager\n';

/** What every mail that carries a one-time link is written from: the company, the link and when it stops working. */
interface LinkMail {
  company: string;
  url: string;
  expiresAt: string;
}

/** When a link stops working, as a mail writes it: '2026-11-28 13:05 UTC'. */
const utcMinute = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

export function invitationMail(p: LinkMail & { inviter: string }): MailText {
  return {
    kind: 'invite',
    subject: `You are invited to join ${p.company} on Warehouse Manager`,
    body:
      `${p.inviter} invited you to join ${p.company} on Warehouse Manager.\n\n` +
      `Open this link to choose your name and password:\n${p.url}\n\n` +
      `The link works once and until ${utcMinute(p.expiresAt)}.` +
      signature,
  };
}

export function passwordResetMail(p: LinkMail & { name: string }): MailText {
  return {
    kind: 'reset',
    subject: `Set a new password for ${p.company} on Warehouse Manager`,
    body:
      `Hello ${p.name},\n\nA Manager of ${p.company} sent you a link to set a new password:\n${p.url}\n\n` +
      `The link works once and until ${utcMinute(p.expiresAt)}. ` +
      'If you did not expect it, you can ignore this mail.' +
      signature,
  };
}

export function portalLinkMail(p: LinkMail & { customer: string }): MailText {
  return {
    kind: 'portal-link',
    subject: `Your storage with ${p.company}`,
    body:
      `Hello ${p.customer},\n\nOpen this link to see your storage with ${p.company}: your units and your invoices.\n` +
      `${p.url}\n\nThe link signs you in once and works until ${utcMinute(p.expiresAt)}. ` +
      'Ask us for a new one any time.' +
      signature,
  };
}
