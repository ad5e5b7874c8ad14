import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityPageDto } from '@domain/schemas/activity.schema';
import {
  type CreatedWebhookDto,
  type WebhookDeliveryDto,
  type WebhookEndpointDto,
  INTERNAL_RECEIVER,
  webhookUrlProblem,
} from '@domain/schemas/api-access.schema';
import { useTestApp } from '../../test/use-test-app';
import { testEngines } from '../../test/test-app';
import { type BuiltWarehouse, buildWarehouse } from '../../factories';
import { LEASE_MS, RETRY_FOR_MS, WebhookWorker, retryDelayMs } from './webhook-worker';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, verifyWebhook } from './webhook-signature';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on 127.0.0.1: answers each request with the next planned status (200 once the plan is used up); 'hang' never answers. */
async function startReceiver() {
  const received: Received[] = [];
  const plan: (number | 'hang')[] = [];
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      const next = plan.shift() ?? 200;
      if (next === 'hang') hanging.push(res);
      else res.writeHead(next).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    plan,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.each(testEngines())('webhooks on %s', (engine) => {
  const { ctx, user: boss, other } = useTestApp(engine, { env: { WEBHOOK_LOOPBACK_HTTP: 'true' } });
  let warehouse: BuiltWarehouse;
  let otherWarehouse: BuiltWarehouse;
  let fieldIndex = 0;
  let clock = 0;
  const cleanups: (() => Promise<void>)[] = [];

  // this suite's installation allows receivers on this machine (WEBHOOK_LOOPBACK_HTTP), as the app's worker does
  const worker = (allowInternal = true) =>
    new WebhookWorker({
      db: ctx.database.db,
      engine: ctx.engine,
      log: ctx.app.log,
      now: () => clock,
      allowInternal,
    });
  const receiver = async () => {
    const started = await startReceiver();
    cleanups.push(started.close);
    return started;
  };
  const addEndpoint = async (url: string, kinds: string[] = ['vault.added']) => {
    const res = await boss.request({ method: 'POST', url: '/api/webhooks', payload: { url, kinds } });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as CreatedWebhookDto;
    cleanups.push(async () => {
      await boss.request({ method: 'DELETE', url: `/api/webhooks/${created.endpoint.id}` });
    });
    return created;
  };
  /** A vault added through the API into the next empty field of the warehouse. */
  const addVault = async (name: string, who = boss, into = warehouse) => {
    const field = into.fields[fieldIndex++]!;
    const res = await who.request({
      method: 'POST',
      url: '/api/vaults/',
      payload: {
        vault_id: name,
        customer_name: 'Wanda Webb',
        order_name: 'W-1',
        field_id: field.id,
        position: 3,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return field;
  };
  const deliveries = async (endpointId: number) => {
    const res = await boss.request({ method: 'GET', url: `/api/webhooks/${endpointId}/deliveries` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as WebhookDeliveryDto[];
  };
  const idsOf = (received: Received[]) => received.map((r) => r.headers[EVENT_ID_HEADER]);

  beforeAll(async () => {
    warehouse = await buildWarehouse(ctx.database.db, { companyId: boss.companyId, rows: 10, cols: 4 });
    otherWarehouse = await buildWarehouse(ctx.database.db, { companyId: other.companyId, rows: 10, cols: 4 });
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('writes the delivery with the change and sends it signed with the timestamp and the event id', async () => {
    const hook = await receiver();
    const { endpoint, secret } = await addEndpoint(hook.url);
    expect(secret).toMatch(/^whsec_/);
    const listed = await boss.request({ method: 'GET', url: '/api/webhooks' });
    expect(listed.body).not.toContain(secret);

    const field = await addVault('WH-1');
    // in the outbox as soon as the change is answered; nothing sent before the worker runs
    expect((await deliveries(endpoint.id)).map((d) => d.status)).toEqual(['pending']);
    expect(hook.received).toHaveLength(0);
    // a refused change (a slot that is not the next free one) leaves nothing in the outbox
    const refused = await boss.request({
      method: 'POST',
      url: '/api/vaults/',
      payload: { vault_id: 'WH-X', customer_name: 'X', order_name: 'X', field_id: field.id, position: 1 },
    });
    expect(refused.statusCode).toBe(400);
    // an event kind the endpoint did not choose is not sent (staging is not vault.added)
    const vaults = (
      await boss.request({ method: 'GET', url: `/api/warehouse/${warehouse.id}/${field.id}` })
    ).json() as {
      vaults: Record<string, { id: number }>;
    };
    const vaultId = Object.values(vaults.vaults)[0]!.id;
    expect((await boss.request({ method: 'POST', url: `/api/stage/vaults/${vaultId}` })).statusCode).toBe(
      200,
    );
    expect(await deliveries(endpoint.id)).toHaveLength(1);

    clock = Date.now();
    expect(await worker().tick()).toBe(1);
    expect(hook.received).toHaveLength(1);
    const [request] = hook.received as [Received];
    const timestamp = String(request.headers[TIMESTAMP_HEADER]);
    expect(Number(timestamp)).toBe(Math.floor(clock / 1000));
    expect(verifyWebhook(secret, timestamp, request.body, String(request.headers[SIGNATURE_HEADER]))).toBe(
      true,
    );
    expect(
      verifyWebhook('whsec_wrong', timestamp, request.body, String(request.headers[SIGNATURE_HEADER])),
    ).toBe(false);
    const body = JSON.parse(request.body) as {
      id: string;
      kind: string;
      subject: string;
      warehouse: { id: number };
    };
    expect(body).toMatchObject({ kind: 'vault.added', subject: 'WH-1', warehouse: { id: warehouse.id } });
    expect(request.headers[EVENT_ID_HEADER]).toBe(body.id);
    expect(body.id).toMatch(/^evt_/);
    expect(await deliveries(endpoint.id)).toMatchObject([
      { status: 'sent', attempts: 1, last_status_code: 200 },
    ]);
    // nothing is due any more
    expect(await worker().tick()).toBe(0);
  });

  it("sends an endpoint its own company's events only", async () => {
    const hook = await receiver();
    const { endpoint } = await addEndpoint(hook.url);
    await addVault('OTHER-1', other, otherWarehouse);
    expect(await deliveries(endpoint.id)).toHaveLength(0);
    expect(
      (await other.request({ method: 'GET', url: `/api/webhooks/${endpoint.id}/deliveries` })).statusCode,
    ).toBe(404);
  });

  it('retries after a 500 with backoff, and sends the same event id again', async () => {
    const hook = await receiver();
    hook.plan.push(500);
    const { endpoint } = await addEndpoint(hook.url);
    await addVault('WH-2');
    clock = Date.now();
    const w = worker();
    await w.tick();
    expect(await deliveries(endpoint.id)).toMatchObject([
      { status: 'pending', attempts: 1, last_status_code: 500 },
    ]);
    // not due yet
    await w.tick();
    expect(hook.received).toHaveLength(1);
    clock += retryDelayMs(1);
    await w.tick();
    expect(hook.received).toHaveLength(2);
    expect(new Set(idsOf(hook.received)).size).toBe(1);
    expect(await deliveries(endpoint.id)).toMatchObject([
      { status: 'sent', attempts: 2, last_status_code: 200 },
    ]);
    const [endpointNow] = (
      (await boss.request({ method: 'GET', url: '/api/webhooks' })).json() as WebhookEndpointDto[]
    ).filter((e) => e.id === endpoint.id);
    expect(endpointNow!.failing_since).toBeNull();
  });

  it('keeps the outbox across a restart mid-retry: the event is sent once more at most, never lost', async () => {
    const hook = await receiver();
    // the first attempt fails; the second reaches the receiver but the process stops before it hears the answer
    hook.plan.push(500, 'hang');
    const { endpoint } = await addEndpoint(hook.url);
    await addVault('WH-3');
    clock = Date.now();
    const first = worker();
    await first.tick();
    clock += retryDelayMs(1);
    const inFlight = first.tick();
    await expect.poll(() => hook.received.length).toBe(2);
    await first.stop();
    await inFlight;
    // a new process: the claim of the stopped one still holds, so the delivery is not sent twice at once
    const second = worker();
    expect(await second.tick()).toBe(0);
    expect(await deliveries(endpoint.id)).toMatchObject([{ status: 'pending' }]);
    // once the claim has run out, the new process sends it, once
    clock += LEASE_MS;
    expect(await second.tick()).toBe(1);
    expect(await second.tick()).toBe(0);
    expect(hook.received).toHaveLength(3);
    expect(new Set(idsOf(hook.received)).size).toBe(1);
    expect(await deliveries(endpoint.id)).toMatchObject([{ status: 'sent', last_status_code: 200 }]);
  });

  it('never lets two workers send one delivery twice', async () => {
    const hook = await receiver();
    const { endpoint } = await addEndpoint(hook.url);
    for (let i = 0; i < 6; i += 1) await addVault(`WH-P${i}`);
    clock = Date.now();
    const [a, b] = await Promise.all([worker().tick(), worker().tick()]);
    expect(a + b).toBe(6);
    expect(hook.received).toHaveLength(6);
    expect(new Set(idsOf(hook.received)).size).toBe(6);
    expect((await deliveries(endpoint.id)).every((d) => d.status === 'sent')).toBe(true);
  });

  it('switches off an endpoint that failed for a day, and tells the Managers', async () => {
    const hook = await receiver();
    hook.plan.push(...Array<number>(20).fill(500));
    const { endpoint } = await addEndpoint(hook.url);
    await addVault('WH-4');
    clock = Date.now();
    const w = worker();
    await w.tick();
    clock += RETRY_FOR_MS + 60_000;
    await w.tick();
    expect(await deliveries(endpoint.id)).toMatchObject([{ status: 'failed', last_status_code: 500 }]);
    const listed = (
      await boss.request({ method: 'GET', url: '/api/webhooks' })
    ).json() as WebhookEndpointDto[];
    const off = listed.find((e) => e.id === endpoint.id)!;
    expect(off.enabled).toBe(false);
    expect(off.disabled_reason).toMatch(/failing for 24 hours/);
    const history = (await boss.request({ method: 'GET', url: '/api/activity' })).json() as ActivityPageDto;
    expect(history.items.some((item) => item.kind === 'webhook.disabled' && item.actor === 'Webhooks')).toBe(
      true,
    );
    // switched off, it is sent nothing more
    await addVault('WH-5');
    expect(await deliveries(endpoint.id)).toHaveLength(1);
    // a Manager switches it on again
    const on = await boss.request({
      method: 'PATCH',
      url: `/api/webhooks/${endpoint.id}`,
      payload: { enabled: true },
    });
    expect(on.json()).toMatchObject({ enabled: true, failing_since: null, disabled_reason: null });
  });

  it('sends a test event on request', async () => {
    const hook = await receiver();
    const { endpoint, secret } = await addEndpoint(hook.url, ['check.finished']);
    const queued = await boss.request({ method: 'POST', url: `/api/webhooks/${endpoint.id}/test` });
    expect(queued.statusCode).toBe(202);
    clock = Date.now();
    await worker().tick();
    const [request] = hook.received as [Received];
    expect(JSON.parse(request.body)).toMatchObject({ kind: 'webhook.test' });
    expect(
      verifyWebhook(
        secret,
        String(request.headers[TIMESTAMP_HEADER]),
        request.body,
        String(request.headers[SIGNATURE_HEADER]),
      ),
    ).toBe(true);
    expect(await deliveries(endpoint.id)).toMatchObject([{ kind: 'webhook.test', status: 'sent' }]);
  });

  it('never sends to this machine, a private network or a metadata address where the installation does not allow it', async () => {
    for (const url of [
      'https://localhost/hook',
      'https://127.0.0.1:3213/api/health',
      'https://2130706433/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://10.0.0.1/x',
      'https://172.20.1.1/x',
      'https://192.168.1.10/x',
      'https://[::1]/x',
      'https://[fd00::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://metadata.google.internal/computeMetadata',
    ])
      expect(webhookUrlProblem(url, false), url).toBe(INTERNAL_RECEIVER);
    expect(webhookUrlProblem('https://receiver.example.com/hook', false)).toBeNull();
    expect(webhookUrlProblem('https://8.8.8.8/hook', false)).toBeNull();
    expect(webhookUrlProblem('https://172.32.0.1/hook', false)).toBeNull();

    // an endpoint whose address leads inside (here added while allowed; a name can also be pointed inside later): a
    // worker that does not allow it contacts nothing and says why
    const hook = await receiver();
    const { endpoint } = await addEndpoint(hook.url, ['check.finished']);
    await boss.request({ method: 'POST', url: `/api/webhooks/${endpoint.id}/test` });
    clock = Date.now();
    await worker(false).tick();
    expect(hook.received).toHaveLength(0);
    expect(await deliveries(endpoint.id)).toMatchObject([
      { status: 'pending', attempts: 1, last_error: INTERNAL_RECEIVER },
    ]);
  });

  it('refuses bad endpoints with readable messages; changes, switches off and deletes one', async () => {
    for (const [payload, message] of [
      [{ url: 'http://example.com/hook', kinds: ['vault.added'] }, /https:\/\//],
      [{ url: 'ftp://example.com/hook', kinds: ['vault.added'] }, /https:\/\//],
      [{ url: 'https://example.com/hook', kinds: [] }, /at least one event kind/],
      [{ url: 'https://example.com/hook', kinds: ['request.changed'] }, /Unknown event kind/],
      [{ url: 'https://user:pw@example.com/hook', kinds: ['vault.added'] }, /user name or password/],
    ] as const) {
      const res = await boss.request({ method: 'POST', url: '/api/webhooks', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect((res.json() as { errors: string[] }).errors.join(' ')).toMatch(message);
    }
    // plain http to this machine only where the installation allows it
    expect(webhookUrlProblem('http://127.0.0.1:8080/hook', false)).toBe(INTERNAL_RECEIVER);
    expect(webhookUrlProblem('http://127.0.0.1:8080/hook', true)).toBeNull();
    expect(webhookUrlProblem('https://receiver.example.com/hook', false)).toBeNull();

    const { endpoint } = await addEndpoint('https://receiver.example.com/hook');
    const changed = await boss.request({
      method: 'PATCH',
      url: `/api/webhooks/${endpoint.id}`,
      payload: { kinds: ['vault.moved', 'check.finished'], enabled: false },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ enabled: false, kinds: ['check.finished', 'vault.moved'] });
    expect(
      (await boss.request({ method: 'POST', url: `/api/webhooks/${endpoint.id}/test` })).statusCode,
    ).toBe(400);
    expect(
      (await boss.request({ method: 'PATCH', url: `/api/webhooks/${endpoint.id}`, payload: {} })).statusCode,
    ).toBe(400);
    expect((await boss.request({ method: 'DELETE', url: `/api/webhooks/${endpoint.id}` })).statusCode).toBe(
      204,
    );
    expect(
      (await boss.request({ method: 'GET', url: `/api/webhooks/${endpoint.id}/deliveries` })).statusCode,
    ).toBe(404);
  });
});
