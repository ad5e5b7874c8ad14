import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as it arrived at the test SMTP server. */
export interface ReceivedMail {
  from: string;
  to: string[];
  /** the raw message: headers and body as sent */
  raw: string;
  subject: string;
  messageId: string;
  /** the body (of a multipart mail: its text part), unfolded from quoted-printable */
  text: string;
  /** the files a multipart mail carries, decoded from base64 */
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

function header(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const match = new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(unfolded);
  return match?.[1]?.trim() ?? '';
}

function bodyText(raw: string): string {
  const body = raw
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n\n');
  if (!/quoted-printable/i.test(header(raw, 'Content-Transfer-Encoding'))) return body;
  return body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A multipart mail's parts (each a raw part: its headers and body), or null for a single-part mail. */
function partsOf(raw: string): string[] | null {
  const boundary = /boundary="?([^";]+)"?/i.exec(header(raw, 'Content-Type'))?.[1];
  if (!/^multipart\//i.test(header(raw, 'Content-Type')) || !boundary) return null;
  return raw
    .split(`--${boundary}`)
    .slice(1)
    .filter((part) => !part.startsWith('--'))
    .map((part) => part.replace(/^\r?\n/, ''));
}

/** The text and the attachments of a mail as it arrived. */
function contentOf(raw: string): Pick<ReceivedMail, 'text' | 'attachments'> {
  const parts = partsOf(raw);
  if (!parts) return { text: bodyText(raw), attachments: [] };
  const text = parts.find((part) => /^text\/plain/i.test(header(part, 'Content-Type')));
  const attachments = parts
    .filter((part) => /^attachment/i.test(header(part, 'Content-Disposition')))
    .map((part) => ({
      filename: /filename="?([^";]+)"?/i.exec(header(part, 'Content-Disposition'))?.[1] ?? '',
      contentType: header(part, 'Content-Type').split(';')[0]!.trim(),
      content: Buffer.from(
        part
          .split(/\r?\n\r?\n/)
          .slice(1)
          .join('')
          .replace(/\s+/g, ''),
        'base64',
      ),
    }));
  return { text: text ? bodyText(text) : '', attachments };
}

/**
 * A real SMTP server in the test process (smtp-server, no TLS, no sign-in): what arrives is kept in `received`. It
 * can be stopped and started again on the same port, so a test sees the product through an SMTP outage.
 */
export class TestSmtpServer {
  readonly received: ReceivedMail[] = [];
  private server: SMTPServer | undefined;

  private constructor(readonly port: number) {}

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** A server on a free port; with `listening: false` nothing answers there yet (SMTP is down). */
  static async create({ listening = true } = {}): Promise<TestSmtpServer> {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const smtp = new TestSmtpServer(port);
    if (listening) await smtp.start();
    return smtp;
  }

  async start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          this.received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            subject: header(raw, 'Subject'),
            messageId: header(raw, 'Message-ID'),
            ...contentOf(raw),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
