import type { FastifyInstance } from 'fastify';
import type { MailConfig } from '../config';
import type { Db } from '../db/database';
import { renderBillingAttachment } from '../features/billing/billing-mail-attachments';
import { setMailSettings } from './mail-settings';
import { MailOutboxWorker } from './mail-worker';
import { smtpTransport } from './mail-transport';

declare module 'fastify' {
  interface FastifyInstance {
    /** this process's mail worker; null without SMTP_URL (the app shows links to copy) */
    mailOutbox: MailOutboxWorker | null;
  }
}

/**
 * With SMTP_URL, one mail worker for this process, started when the app is ready and stopped with it. Also records
 * whether mail is on (and the portal's address) for the services that queue mail by themselves (billing).
 */
export function startMailOutbox(
  app: FastifyInstance,
  db: Db,
  mail: MailConfig | null,
  publicUrl?: string,
): void {
  setMailSettings(db, { on: mail !== null, portalUrl: publicUrl ? `${publicUrl}/portal` : null });
  const worker = mail
    ? new MailOutboxWorker({
        db,
        transport: smtpTransport(mail.smtpUrl),
        from: mail.from,
        attachments: (companyId, reference) => renderBillingAttachment(db, companyId, reference),
      })
    : null;
  app.decorate('mailOutbox', worker);
  if (!worker || !mail) return;
  app.addHook('onReady', async () =>
    worker.start(mail.pollMs, (error) =>
      app.log.warn({ err: error }, 'mail outbox: a round failed; trying again'),
    ),
  );
  app.addHook('onClose', async () => worker.stop());
}
