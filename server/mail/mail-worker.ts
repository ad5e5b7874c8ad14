import crypto from 'node:crypto';
import type { Db } from '../db/database';
import { type ClaimedMail, claimDueMails, markMailAttemptFailed, markMailSent } from './mail-outbox.repo';
import type { MailAttachment, MailTransport } from './mail-transport';

/** Renders a mail's attachment from its reference ('invoice:12') when the mail is sent; throws when it cannot. */
export type AttachmentRenderer = (companyId: number, reference: string) => Promise<MailAttachment>;

export interface MailWorkerOptions {
  db: Db;
  transport: MailTransport;
  /** the From header */
  from: string;
  /** renders the PDF a mail names (`attachment`); without it such a mail fails its attempt */
  attachments?: AttachmentRenderer;
  /** the clock (tests move it on instead of sleeping) */
  now?: () => Date;
  /** mails claimed at once */
  batchSize?: number;
  /** how long a claim holds: a worker that dies mid-batch leaves its mails to others after this */
  leaseMs?: number;
  /** attempts before a mail is marked failed */
  maxAttempts?: number;
  /** the wait after the first failed attempt, doubled after each further one, up to `maxBackoffMs` */
  firstBackoffMs?: number;
  maxBackoffMs?: number;
}

export interface TickResult {
  claimed: number;
  sent: number;
  retried: number;
  failed: number;
}

export const MAIL_DEFAULTS = {
  batchSize: 10,
  // ten mails at up to three SMTP time-outs of 15 s each, and a margin
  leaseMs: 10 * 60_000,
  maxAttempts: 8,
  firstBackoffMs: 30_000,
  maxBackoffMs: 60 * 60_000,
};

/** The wait before attempt `attempts + 1`, after `attempts` failed ones: 30 s, 1 min, 2 min, ... at most an hour. */
export function backoffMs(attempts: number, firstMs: number, maxMs: number): number {
  return Math.min(maxMs, firstMs * 2 ** Math.max(0, attempts - 1));
}

/** The Message-ID of an outbox row: the same for every attempt, so a repeat is recognisable as one. */
export function messageIdOf(mailId: number, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'warehouse-manager.invalid';
  return `<outbox-${mailId}@${domain}>`;
}

/**
 * Sends the mail outbox (decision 042). Each `tick` claims a batch of due mails with a lease, sends them one by one
 * and marks each sent, or queues it again with exponential backoff (failed for good after `maxAttempts`). One worker
 * per process; any number of processes share the table safely. `start` runs the tick on a timer; tests call `tick`.
 */
export class MailOutboxWorker {
  private readonly options: Required<Omit<MailWorkerOptions, 'attachments'>> &
    Pick<MailWorkerOptions, 'attachments'>;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private busy = false;

  constructor(options: MailWorkerOptions) {
    this.options = { now: () => new Date(), ...MAIL_DEFAULTS, ...options };
  }

  /** Claims due mails (leased to this call) without sending them: a worker that dies right after, for tests. */
  async claim(): Promise<{ token: string; mails: ClaimedMail[] }> {
    const { db, now, leaseMs, batchSize } = this.options;
    const at = now();
    const token = crypto.randomUUID();
    const mails = await claimDueMails(db, {
      now: at.toISOString(),
      leaseUntil: new Date(at.getTime() + leaseMs).toISOString(),
      token,
      limit: batchSize,
    });
    return { token, mails };
  }

  /** Sends what one claim took; `stopAfter` sends only that many (a worker killed mid-batch, for tests). */
  async send(claim: { token: string; mails: ClaimedMail[] }, stopAfter?: number): Promise<TickResult> {
    const { db, transport, from, now, maxAttempts, firstBackoffMs, maxBackoffMs } = this.options;
    const result: TickResult = { claimed: claim.mails.length, sent: 0, retried: 0, failed: 0 };
    for (const [index, mail] of claim.mails.entries()) {
      if (stopAfter !== undefined && index >= stopAfter) break;
      try {
        await transport.send({
          messageId: messageIdOf(mail.id, from),
          from,
          to: mail.recipient,
          subject: mail.subject,
          text: mail.body,
          ...(mail.attachment && { attachments: [await this.render(mail.company_id, mail.attachment)] }),
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const giveUp = mail.attempts >= maxAttempts;
        const next = giveUp
          ? null
          : new Date(now().getTime() + backoffMs(mail.attempts, firstBackoffMs, maxBackoffMs)).toISOString();
        await markMailAttemptFailed(db, mail.id, claim.token, message, next);
        if (giveUp) result.failed += 1;
        else result.retried += 1;
        continue;
      }
      if (await markMailSent(db, mail.id, claim.token, now().toISOString())) result.sent += 1;
    }
    return result;
  }

  /** The PDF a mail names, rendered now (a failure is the attempt's failure: the mail waits and is tried again). */
  private async render(companyId: number, reference: string): Promise<MailAttachment> {
    if (!this.options.attachments) throw new Error(`No renderer for the attachment ${reference}.`);
    return this.options.attachments(companyId, reference);
  }

  /** One round: claim a batch of due mail and send it. */
  async tick(): Promise<TickResult> {
    return this.send(await this.claim());
  }

  /**
   * Ticks every `intervalMs` (a timer that keeps no process alive), one round at a time; a round goes on while full
   * batches come back, so a backlog drains without waiting for the timer.
   */
  start(intervalMs: number, onError: (error: unknown) => void): void {
    if (this.timer || intervalMs <= 0) return;
    const round = async () => {
      for (;;) {
        const result = await this.tick();
        if (result.claimed < this.options.batchSize || !this.timer) return;
      }
    };
    this.timer = setInterval(() => {
      if (this.busy) return;
      this.busy = true;
      this.running = round()
        .catch(onError)
        .finally(() => {
          this.busy = false;
        });
    }, intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a tick under way. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    this.options.transport.close();
  }
}
