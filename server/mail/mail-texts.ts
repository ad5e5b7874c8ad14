import type { MailKind } from './mail-outbox.repo';

/** A mail's subject and plain-text body. */
export interface MailText {
  kind: MailKind;
  subject: string;
  body: string;
}

const signature = '\n\n-- \nWarehouse Manager\n';

export function invitationMail(p: {
  company: string;
  inviter: string;
  url: string;
  expiresAt: string;
}): MailText {
  return {
    kind: 'invite',
    subject: `You are invited to join ${p.company} on Warehouse Manager`,
    body:
      `${p.inviter} invited you to join ${p.company} on Warehouse Manager.\n\n` +
      `Open this link to choose your name and password:\n${p.url}\n\n` +
      `The link works once and until ${p.expiresAt.slice(0, 16).replace('T', ' ')} UTC.` +
      signature,
  };
}

export function passwordResetMail(p: {
  company: string;
  name: string;
  url: string;
  expiresAt: string;
}): MailText {
  return {
    kind: 'reset',
    subject: `Set a new password for ${p.company} on Warehouse Manager`,
    body:
      `Hello ${p.name},\n\nA Manager of ${p.company} sent you a link to set a new password:\n${p.url}\n\n` +
      `The link works once and until ${p.expiresAt.slice(0, 16).replace('T', ' ')} UTC. ` +
      'If you did not expect it, you can ignore this mail.' +
      signature,
  };
}

export function portalLinkMail(p: {
  company: string;
  customer: string;
  url: string;
  expiresAt: string;
}): MailText {
  return {
    kind: 'portal-link',
    subject: `Your storage with ${p.company}`,
    body:
      `Hello ${p.customer},\n\nOpen this link to see your storage with ${p.company}: your units and your invoices.\n` +
      `${p.url}\n\nThe link signs you in once and works until ${p.expiresAt.slice(0, 16).replace('T', ' ')} UTC. ` +
      'Ask us for a new one any time.' +
      signature,
  };
}
