import { REQUEST_STATE_LABELS, type RequestState } from '@domain/schemas/request.schema';
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

const REQUEST_KIND_WORDS: Record<string, string> = {
  delivery: 'delivery',
  access: 'access visit',
  pickup: 'partial pickup',
};

/** What each step of a request says to the customer (issue 29, point 3). */
const REQUEST_STEP_WORDS: Record<string, (p: RequestMailParts) => string> = {
  requested: () => 'We received your request and will schedule it soon.',
  scheduled: (p) =>
    `It is scheduled for ${p.scheduledDate ?? 'a day we will confirm'}${p.truck ? ` (truck ${p.truck})` : ''}.`,
  pulling: () => 'Our crew is getting your units out of storage now.',
  loaded: () => 'Your units are loaded on the truck.',
  delivered: (p) => (p.kind === 'access' ? 'Your visit is done.' : 'Your units are delivered.'),
  cancelled: () => 'Your request is cancelled.',
};

export interface RequestMailParts {
  company: string;
  customer: string;
  requestId: number;
  kind: string;
  state: string;
  units: string[];
  scheduledDate?: string | null;
  truck?: string | null;
  /** the portal's address, when this server knows it */
  portalUrl: string | null;
}

/** A request's step, told to the customer: what happened, which units, and where to follow it. */
export function requestUpdateMail(p: RequestMailParts): MailText {
  const what = REQUEST_KIND_WORDS[p.kind] ?? p.kind;
  const step = REQUEST_STEP_WORDS[p.state]?.(p) ?? `It is now ${p.state}.`;
  return {
    kind: 'request',
    // the step as the portal and the office's screens name it (Scheduled), not as stored
    subject: `Your ${what} request #${p.requestId} with ${p.company}: ${REQUEST_STATE_LABELS[p.state as RequestState] ?? p.state}`,
    body:
      `Hello ${p.customer},\n\nYour ${what} request #${p.requestId}: ${step}\n\n` +
      `Units: ${p.units.join(', ')}\n\n` +
      (p.portalUrl ? `Follow it on your storage page: ${p.portalUrl}` : 'Follow it on your storage page.') +
      signature,
  };
}

/** The sentence that points a customer to the portal: its address when this server knows it. */
const portalPhrase = (portalUrl: string | null, what: string) =>
  portalUrl
    ? `You can see ${what} on your storage page: ${portalUrl}`
    : `You can see ${what} on your storage page; ask us for a link any time.`;

export interface InvoiceMailParts {
  company: string;
  customer: string;
  number: number;
  /** the total, written in the company's currency and locale */
  total: string;
  dueDate: string;
  periodStart: string | null;
  periodEnd: string | null;
  portalUrl: string | null;
}

/** An issued invoice, told to the customer (issue 29 point 1, issue 28): its number, total and due date; the PDF is attached. */
export function invoiceMail(p: InvoiceMailParts): MailText {
  const period = p.periodStart ? ` for storage from ${p.periodStart} to ${p.periodEnd}` : '';
  return {
    kind: 'invoice',
    subject: `Invoice ${p.number} from ${p.company}: ${p.total} due ${p.dueDate}`,
    body:
      `Hello ${p.customer},\n\nHere is invoice ${p.number}${period}.\n\n` +
      `Total: ${p.total}\nDue: ${p.dueDate}\n\n` +
      'The invoice is attached as a PDF. ' +
      portalPhrase(p.portalUrl, 'your invoices and your balance') +
      signature,
  };
}

export interface SitMailParts {
  company: string;
  customer: string;
  accountId: number;
  orders: string[];
  /** the day the account becomes permanent storage */
  conversionDate: string;
  /** the last day of storage in transit, the day before `conversionDate` */
  sitLastDate: string;
  portalUrl: string | null;
}

/** The SIT conversion notice: storage in transit ends on a date and permanent storage, billed to the customer, begins. */
export function sitNoticeMail(p: SitMailParts): MailText {
  return {
    kind: 'sit-notice',
    subject: `Your storage in transit with ${p.company} ends on ${p.sitLastDate}`,
    body:
      `Hello ${p.customer},\n\nThe storage in transit of your goods (${p.orders.join(', ')}) ends on ` +
      `${p.sitLastDate}. From ${p.conversionDate} your goods are in permanent storage, billed to you each month ` +
      'at our storage rates.\n\nThe written notice is attached as a PDF. Please contact us with any questions. ' +
      portalPhrase(p.portalUrl, 'your storage') +
      signature,
  };
}

/** The day a SIT account converted: the customer's goods are in permanent storage from now on. */
export function sitConvertedMail(p: SitMailParts): MailText {
  return {
    kind: 'sit-notice',
    subject: `Your goods with ${p.company} are in permanent storage from ${p.conversionDate}`,
    body:
      `Hello ${p.customer},\n\nStorage in transit of your goods (${p.orders.join(', ')}) ended: from ` +
      `${p.conversionDate} they are in permanent storage, billed to you each month at our storage rates.\n\n` +
      'The notice is attached as a PDF. ' +
      portalPhrase(p.portalUrl, 'your storage and your invoices') +
      signature,
  };
}
