import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailListDto, MemberLinkDto } from '@domain/schemas/team.schema';
import { signIn, testEngines } from '../test/test-app';
import { useTestApp } from '../test/use-test-app';
import { TestSmtpServer } from '../test/test-smtp-server';
import { MAIL_DEFAULTS, MailOutboxWorker, backoffMs, messageIdOf } from './mail-worker';
import { smtpTransport } from './mail-transport';

const FROM = 'Warehouse Manager <mail@wm.example.test>';
const STRONG = 'orbit-lantern-pebble-42';

describe('backoff', () => {
  it('doubles from the first wait and stops at the ceiling', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, 30_000, 3_600_000))).toEqual([
      30_000, 60_000, 120_000, 240_000,
    ]);
    expect(backoffMs(20, 30_000, 3_600_000)).toBe(3_600_000);
  });
  it('names a mail by its outbox row, in the sender’s domain', () => {
    expect(messageIdOf(42, FROM)).toBe('<outbox-42@wm.example.test>');
  });
});

describe.each(testEngines())('the mail outbox on %s', (engine) => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await TestSmtpServer.create();
  });
  const { ctx, user: boss } = useTestApp(engine, {
    env: () => ({
      SMTP_URL: smtp.url,
      MAIL_FROM: FROM,
      MAIL_POLL_SECONDS: '0',
      PUBLIC_URL: 'https://wm.example.test',
    }),
    users: 1,
  });
  /** the clock of the workers a test makes itself */
  let clock = Date.now();
  const workers: MailOutboxWorker[] = [];

  const workerFor = (url: string, options: { maxAttempts?: number } = {}) => {
    const worker = new MailOutboxWorker({
      db: ctx.database.db,
      transport: smtpTransport(url),
      from: FROM,
      now: () => new Date(clock),
      ...options,
    });
    workers.push(worker);
    return worker;
  };
  const invite = async (email: string) => {
    const res = await boss.request({
      method: 'POST',
      url: '/api/team/invites',
      payload: { email, role: 'floor' },
    });
    expect(res.statusCode).toBe(201);
    return res.json() as MemberLinkDto;
  };
  const mails = async () =>
    (await boss.request({ method: 'GET', url: '/api/team/mails' })).json() as MailListDto;
  const mailTo = async (email: string) => (await mails()).mails.find((m) => m.to === email)!;
  const arrivedFor = (email: string) => smtp.received.filter((m) => m.to.includes(email));

  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    await smtp?.stop();
  });

  it('sends an invitation: queued with the link, then in the SMTP server once, with its link working', async () => {
    const email = 'new-floor@example.test';
    const link = await invite(email);
    expect(link.mailId).toEqual(expect.any(Number));
    expect(await mailTo(email)).toMatchObject({ status: 'queued', attempts: 0, kind: 'invite' });
    expect(arrivedFor(email)).toEqual([]);

    const result = await ctx.app.mailOutbox!.tick();
    expect(result).toMatchObject({ sent: 1 });
    const [mail, ...more] = arrivedFor(email);
    expect(more).toEqual([]);
    expect(mail!.subject).toContain(boss.companyName);
    expect(mail!.text).toContain(`https://wm.example.test${link.path}`);
    expect(mail!.messageId).toBe(`<outbox-${link.mailId}@wm.example.test>`);
    expect(await mailTo(email)).toMatchObject({ status: 'sent', attempts: 1, lastError: null });

    // the mail's own link signs the new member up
    const token = /\/join#(\S+)/.exec(mail!.text)![1]!;
    const joined = await ctx.app.inject({
      method: 'POST',
      url: '/api/team/link/accept',
      payload: { token, name: 'New Floor', password: STRONG },
    });
    expect(joined.statusCode).toBe(200);
    expect(await ctx.app.mailOutbox!.tick()).toMatchObject({ claimed: 0 });
  });

  it('mails a renewed invitation again, with its new link, and drops the earlier mail still waiting', async () => {
    const email = 'invited-twice@example.test';
    const first = await invite(email);
    const renewed = await invite(email);
    expect(renewed.mailId).toEqual(expect.any(Number));
    expect(renewed.mailId).not.toBe(first.mailId);
    expect(renewed.path).not.toBe(first.path);
    await ctx.app.mailOutbox!.tick();
    // one mail, with the link that works: the first one's link was retired before it went out
    expect(
      arrivedFor(email).map((mail) => mail.text.includes(`https://wm.example.test${renewed.path}`)),
    ).toEqual([true]);
  });

  it('sends a password link to the member', async () => {
    const member = await invite('reset-me@example.test');
    const token = member.path.split('#')[1]!;
    const joined = await ctx.app.inject({
      method: 'POST',
      url: '/api/team/link/accept',
      payload: { token, name: 'Reset Me', password: STRONG },
    });
    const memberId = (joined.json() as { id: number }).id;
    await ctx.app.mailOutbox!.tick();
    const res = await boss.request({ method: 'POST', url: `/api/team/members/${memberId}/reset-link` });
    expect(res.statusCode).toBe(201);
    await ctx.app.mailOutbox!.tick();
    const resets = arrivedFor('reset-me@example.test').filter((m) => /new password/.test(m.subject));
    expect(resets).toHaveLength(1);
    expect(resets[0]!.text).toContain(`https://wm.example.test${(res.json() as MemberLinkDto).path}`);
  });

  it('keeps the mail while SMTP is down and sends it once when it is back, after the backoff', async () => {
    const outage = await TestSmtpServer.create({ listening: false });
    const worker = workerFor(outage.url);
    const email = 'during-outage@example.test';
    await invite(email);
    clock = Date.now() + 1000;

    expect(await worker.tick()).toMatchObject({ claimed: 1, sent: 0, retried: 1 });
    const waiting = await mailTo(email);
    expect(waiting).toMatchObject({ status: 'queued', attempts: 1 });
    expect(waiting.lastError).toBeTruthy();
    expect(Date.parse(waiting.nextAttemptAt!)).toBe(clock + MAIL_DEFAULTS.firstBackoffMs);
    expect(await worker.tick()).toMatchObject({ claimed: 0 });

    await outage.start();
    try {
      clock += MAIL_DEFAULTS.firstBackoffMs - 1000;
      expect(await worker.tick()).toMatchObject({ claimed: 0 });
      clock += 1000;
      expect(await worker.tick()).toMatchObject({ claimed: 1, sent: 1 });
      expect(await worker.tick()).toMatchObject({ claimed: 0 });
      expect(outage.received.filter((m) => m.to.includes(email))).toHaveLength(1);
      expect(await mailTo(email)).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    } finally {
      await outage.stop();
    }
  });

  it('marks a mail failed, with the last error, after its last attempt', async () => {
    const outage = await TestSmtpServer.create({ listening: false });
    const worker = workerFor(outage.url, { maxAttempts: 2 });
    const email = 'never-arrives@example.test';
    await invite(email);
    clock = Date.now() + 1000;
    expect(await worker.tick()).toMatchObject({ retried: 1 });
    clock += MAIL_DEFAULTS.firstBackoffMs;
    expect(await worker.tick()).toMatchObject({ failed: 1 });
    const failed = await mailTo(email);
    expect(failed).toMatchObject({ status: 'failed', attempts: 2, nextAttemptAt: null });
    expect(failed.lastError).toMatch(/ECONNREFUSED|connect/i);
    clock += 24 * 3_600_000;
    expect(await worker.tick()).toMatchObject({ claimed: 0 });
  });

  it('sends no duplicate when a sender dies mid-batch: the rest go out once its lease has run out', async () => {
    const emails = ['crash-1@example.test', 'crash-2@example.test', 'crash-3@example.test'];
    for (const email of emails) await invite(email);
    clock = Date.now() + 1000;
    const dying = workerFor(smtp.url);
    const survivor = workerFor(smtp.url);

    const claim = await dying.claim();
    expect(claim.mails.map((m) => m.recipient)).toEqual(emails);
    // it sends the first mail and is killed before the second
    expect(await dying.send(claim, 1)).toMatchObject({ sent: 1 });
    expect((await mailTo(emails[1]!)).status).toBe('sending');

    // while the lease holds, nobody else touches the claimed mail
    expect(await survivor.tick()).toMatchObject({ claimed: 0 });
    clock += MAIL_DEFAULTS.leaseMs + 1000;
    expect(await survivor.tick()).toMatchObject({ claimed: 2, sent: 2 });

    for (const email of emails) {
      expect(arrivedFor(email)).toHaveLength(1);
      expect(await mailTo(email)).toMatchObject({ status: 'sent' });
    }
    const ids = emails.map((email) => arrivedFor(email)[0]!.messageId);
    expect(new Set(ids).size).toBe(3);
  });

  it('lets two workers claim at once without sharing a mail', async () => {
    const emails = Array.from({ length: 6 }, (_, i) => `together-${i}@example.test`);
    for (const email of emails) await invite(email);
    clock = Date.now() + 1000;
    const one = new MailOutboxWorker({
      db: ctx.database.db,
      transport: smtpTransport(smtp.url),
      from: FROM,
      now: () => new Date(clock),
      batchSize: 4,
    });
    const two = new MailOutboxWorker({
      db: ctx.database.db,
      transport: smtpTransport(smtp.url),
      from: FROM,
      now: () => new Date(clock),
      batchSize: 4,
    });
    workers.push(one, two);
    const [a, b] = await Promise.all([one.claim(), two.claim()]);
    const claimed = [...a.mails, ...b.mails].map((m) => m.recipient).sort();
    expect(claimed).toEqual([...emails].sort());
    await Promise.all([one.send(a), two.send(b)]);
    for (const email of emails) expect(arrivedFor(email)).toHaveLength(1);
  });

  it("lists only the company's own mails", async () => {
    const other = await signIn(ctx);
    const list = (await other.request({ method: 'GET', url: '/api/team/mails' })).json() as MailListDto;
    expect(list).toEqual({ enabled: true, mails: [] });
  });
});

describe.each(testEngines())('without SMTP_URL on %s', (engine) => {
  const { ctx } = useTestApp(engine, { users: 0 });

  it('queues nothing and hands the Manager the link to copy', async () => {
    const boss = await signIn(ctx);
    const res = await boss.request({
      method: 'POST',
      url: '/api/team/invites',
      payload: { email: 'copy-me@example.test', role: 'viewer' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ mailId: null, url: expect.stringContaining('/join#') });
    expect(ctx.app.mailOutbox).toBeNull();
    const list = (await boss.request({ method: 'GET', url: '/api/team/mails' })).json() as MailListDto;
    expect(list).toEqual({ enabled: false, mails: [] });
  });
});
