import nodemailer from 'nodemailer';

/** A file a mail carries (a PDF the worker rendered when it sent the mail). */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/** One mail as the worker hands it to SMTP. */
export interface MailMessage {
  /** derived from the outbox row, so a mail sent twice (a crash between sending and marking it) is recognisable */
  messageId: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  attachments?: MailAttachment[];
}

export interface MailTransport {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

// a dead SMTP server must not hold a claim past its lease (the worker's lease covers a batch of these)
const SMTP_TIMEOUT_MS = 15_000;

/** Mail over SMTP with nodemailer, from SMTP_URL (smtp:// or smtps://, user and password in the address). */
export function smtpTransport(smtpUrl: string): MailTransport {
  const url = new URL(smtpUrl);
  const transporter = nodemailer.createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    ...(url.username && {
      auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) },
    }),
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  return {
    async send(message) {
      await transporter.sendMail({
        messageId: message.messageId,
        from: message.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.attachments?.length && { attachments: message.attachments }),
      });
    },
    close: () => transporter.close(),
  };
}
