import { beforeAll, describe, expect, it } from 'vitest';
import { type SignedIn, signIn, startTestApp, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { CONTACT_RATE_LIMIT, CONTACT_TOO_MANY } from './contact.routes';

const valid = {
  name: 'Dana Lee',
  company: 'Lee Movers',
  email: 'dana@example.test',
  message: 'We run two warehouses.',
};

describe.each(testEngines())('contact routes on %s', (engine) => {
  const { ctx } = useTestApp(engine, { users: 0 });
  let ipCounter = 0;
  // each test sends from its own address so the per-address limit never mixes tests
  const nextIp = () => `10.9.${Math.floor(++ipCounter / 200)}.${ipCounter % 200}`;
  const send = (payload: unknown, ip = nextIp()) =>
    ctx.app.inject({ method: 'POST', url: '/api/contact', remoteAddress: ip, payload: payload as object });
  const count = async () =>
    (await ctx.database.db.selectFrom('contact_messages').select('id').execute()).length;

  let inbox: SignedIn;
  beforeAll(async () => {
    // the first company of an installation reads the inbox
    inbox = await signIn(ctx);
  });

  it('GET /api/contact/settings answers a null form id when none is configured', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/contact/settings' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ formId: null });
  });

  it('stores a valid message, trimmed, with the sender address, and lists it for a signed-in user, newest first', async () => {
    const first = await send({ ...valid, name: '  Dana Lee  ' }, '10.77.0.1');
    expect(first.statusCode).toBe(201);
    const second = await send({ name: 'Sam', email: 'sam@example.test', message: 'Second one', company: '' });
    expect(second.statusCode).toBe(201);

    const stored = await ctx.database.db
      .selectFrom('contact_messages')
      .selectAll()
      .where('id', '=', (first.json() as { id: number }).id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      name: 'Dana Lee',
      company: 'Lee Movers',
      email: 'dana@example.test',
      ip: '10.77.0.1',
    });

    const list = await inbox.request({ method: 'GET', url: '/api/contact/messages' });
    expect(list.statusCode).toBe(200);
    const messages = list.json() as { name: string; company: string | null; ip?: string }[];
    expect(messages[0]).toMatchObject({ name: 'Sam', company: null });
    expect(messages[1]).toMatchObject({ name: 'Dana Lee', company: 'Lee Movers' });
    expect(messages[0]).not.toHaveProperty('ip');
  });

  it('refuses missing or invalid fields with readable messages and stores nothing', async () => {
    const before = await count();
    const empty = await send({});
    expect(empty.statusCode).toBe(400);
    const { errors } = empty.json() as { errors: string[] };
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Name is required.'),
        expect.stringContaining('A valid email is required.'),
        expect.stringContaining('Message is required.'),
      ]),
    );
    const badEmail = await send({ ...valid, email: 'not-an-email' });
    expect(badEmail.statusCode).toBe(400);
    expect((badEmail.json() as { errors: string[] }).errors.join(' ')).toContain(
      'A valid email is required.',
    );
    const blank = await send({ ...valid, name: '   ', message: '  ' });
    expect(blank.statusCode).toBe(400);
    const tooLong = await send({ ...valid, message: 'x'.repeat(5001) });
    expect(tooLong.statusCode).toBe(400);
    expect((tooLong.json() as { errors: string[] }).errors.join(' ')).toContain('at most 5000');
    expect(await count()).toBe(before);
  });

  it(`limits one address to ${CONTACT_RATE_LIMIT.max} messages, answering 429 with errors; other addresses still get through`, async () => {
    const ip = '10.200.0.1';
    for (let i = 0; i < CONTACT_RATE_LIMIT.max; i++) expect((await send(valid, ip)).statusCode).toBe(201);
    const before = await count();
    const limited = await send(valid, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ errors: [CONTACT_TOO_MANY] });
    expect(await count()).toBe(before);
    expect((await send(valid, '10.200.0.2')).statusCode).toBe(201);
  });

  it('no other company reads the inbox', async () => {
    const other = await signIn(ctx);
    const res = await other.request({ method: 'GET', url: '/api/contact/messages' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ errors: ['Not found'] });
  });

  it('GET /api/contact/messages needs sign-in', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/contact/messages' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ errors: ['Unauthorized'] });
  });
});

describe('contact settings with a hosted form id', () => {
  it('answers the configured form id', async () => {
    const ctx = await startTestApp('sqlite', { CONTACT_FORM_ID: 'xyzabcd' });
    try {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/contact/settings' });
      expect(res.json()).toEqual({ formId: 'xyzabcd' });
    } finally {
      await ctx.close();
    }
  });
});
