import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../db/database';
import { DEMO_LOGIN, seedDemoIfEmpty } from '../demo-seed';
import { multipartBody } from './multipart-body';
import { UNREADABLE_FORM } from '../http/form-reader';
import { type CompanyIds, collectCompanyIds } from './company-ids';
import { changeCounter, snapshotDatabase } from './database-snapshot.repo';
import { type ApiRoute, apiRoutes } from './route-table';
import { type SignedIn, signIn, testEngines } from './test-app';
import { useTestApp } from './use-test-app';

/** Cases per route: PostgreSQL runs a smaller sample of the same properties. */
const CASES_PER_ROUTE: Record<Engine, number> = { sqlite: 150, postgres: 25 };
const SEED = 20_260_714;
// a live stream never ends, so it gets its own check over a real socket below
const STREAM_ROUTE = 'GET /api/events';

// ---- hostile values ------------------------------------------------------------------------------------------------

const nastyStrings = fc.constantFrom(
  '',
  ' ',
  "' OR '1'='1",
  '1; DROP TABLE vaults; --',
  '1 UNION SELECT password_hash FROM users',
  '"; DELETE FROM warehouses WHERE 1=1; --',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%00',
  '\u0000',
  '\r\nSet-Cookie: evil=1',
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '0',
  '1e309',
  '9007199254740993',
  '2147483648',
  '0x1F',
  '1.5',
  ' 7 ',
  'true',
  'null',
  'undefined',
  '{}',
  '[]',
  '__proto__',
  'constructor',
  '😀🏭📦',
  'Ω≈ç√∫˜µ≤≥÷',
  'ＡＢＣ１２３',
  '\u202Eevil',
  '𝓍'.repeat(300),
  'a'.repeat(5_000),
  'Z'.repeat(100_000),
  'A1',
  'ZZ999',
);
const hostileString = fc.oneof(
  nastyStrings,
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);
const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(
    0,
    -1,
    1,
    2_147_483_647,
    2_147_483_648,
    Number.MAX_SAFE_INTEGER,
    -Number.MAX_SAFE_INTEGER,
    1e308,
    -1e308,
    0.5,
    1e-300,
  ),
);
const deepArray = JSON.parse('['.repeat(2_000) + ']'.repeat(2_000)) as unknown;
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      deepArray,
      Array.from({ length: 1_000 }, (_, i) => `task ${i}`),
      { __proto__: { admin: true } },
    ),
  },
);

// ---- the keys the API reads, with values that are plausible for the demo company ----------------------------------

function plausibleValues(ids: CompanyIds, attachmentId: number): Record<string, fc.Arbitrary<unknown>> {
  const realId = fc.constantFrom(
    ids.companyId,
    ids.warehouseId,
    ids.fieldId,
    ids.placedVaultId,
    ids.stagedVaultId,
    ids.rackId,
    ids.shelfId,
    ids.palletId,
    ids.checklist.id,
    attachmentId,
    ...ids.checklist.tasks.map((t) => t.id),
  );
  const smallInt = fc.integer({ min: -2, max: 12 });
  const asText = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, arb.map(String));
  const point = fc.record({
    x: asText(fc.integer({ min: -5, max: 200 })),
    y: asText(fc.integer({ min: -5, max: 200 })),
  });
  const task = fc.record(
    {
      id: realId,
      text: hostileString,
      completed: fc.boolean(),
      completed_by: hostileString,
      reason: hostileString,
    },
    { requiredKeys: [] },
  );
  const word = fc.constantFrom('ACME', 'Annex Two', 'KNOX', 'worker', 'a@b.c', 'someone@example.test');
  return {
    name: word,
    rows: asText(fc.integer({ min: 0, max: 6 })),
    cols: asText(fc.integer({ min: 0, max: 6 })),
    field_capacity: asText(smallInt),
    length: asText(fc.integer({ min: -1, max: 500 })),
    width: asText(fc.integer({ min: -1, max: 500 })),
    fieldgridLocation: point,
    type: fc.constantFrom('vault', 'couchbox', 'liftvan', 't2', 'VAULT', 'box'),
    field2: fc.constantFrom(ids.fieldBelowName, ids.fieldName, 'A1', 'ZZ1'),
    warehouseId: asText(realId),
    full: fc.constantFrom(true, false, 'true', 'false', 1, 'yes'),
    vault_id: fc.oneof(asText(realId), word),
    customer_name: word,
    order_name: word,
    note: word,
    field_id: asText(realId),
    position: fc.oneof(asText(smallInt), point),
    company_id: asText(realId),
    vaultId: asText(realId),
    fieldId: asText(realId),
    version: asText(smallInt),
    attachments: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }),
    warehouse_id: asText(realId),
    direction: fc.constantFrom('left', 'right', 'bottom', 'top', 'LEFT'),
    opperation: fc.constantFrom('plus', 'minus', 'times'),
    operation: fc.constantFrom('plus', 'minus', 'times'),
    count: asText(fc.integer({ min: -1, max: 3 })),
    warehouse_cols: asText(smallInt),
    warehouse_rows: asText(smallInt),
    capacity: asText(smallInt),
    num_shelves: asText(smallInt),
    orientation: fc.constantFrom('horizontal', 'vertical', 'diagonal'),
    shelf_id: asText(realId),
    shelf_spots: asText(smallInt),
    slot_index: asText(smallInt),
    pallet_number: word,
    notes: word,
    weight: asText(fc.integer({ min: -10, max: 2_000 })),
    pallet_spaces: asText(smallInt),
    id: asText(realId),
    description: word,
    tasks: fc.array(fc.oneof(task, hostileString), { maxLength: 4 }),
    is_active: fc.constantFrom(true, false, 'true', 0, 1),
    filled_out_by: word,
    email: fc.constantFrom('someone@example.test', 'not-an-email', 'a@b'),
    password: word,
    message: word,
    company: word,
  };
}

// ---- requests ------------------------------------------------------------------------------------------------------

interface HostileRequest {
  path: Record<string, string>;
  query: string;
  body: { kind: string; headers: Record<string, string>; payload?: string | Buffer | object };
  ip: string;
}

function bodyArbitrary(plausible: Record<string, fc.Arbitrary<unknown>>) {
  const keys = Object.keys(plausible);
  const fieldValue = (key: string) =>
    fc.oneof({ weight: 3, arbitrary: plausible[key]! }, { weight: 2, arbitrary: hostileValue });
  // a few of the API's keys (plausible or hostile values) and sometimes a stranger key
  const keyedObject = fc
    .tuple(
      fc
        .subarray(keys, { maxLength: 8 })
        .chain((chosen) => fc.tuple(...chosen.map((k) => fieldValue(k).map((v) => [k, v] as const)))),
      fc.dictionary(
        hostileString.filter((k) => k.length < 50),
        hostileValue,
        { maxKeys: 2 },
      ),
    )
    .map(([pairs, extra]) => ({ ...extra, ...Object.fromEntries(pairs) }));
  const asFormText = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

  return fc.oneof(
    {
      weight: 6,
      arbitrary: keyedObject.map((o) => ({
        kind: 'json object',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(o),
      })),
    },
    {
      weight: 2,
      arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => ({
        kind: 'json value',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(v) ?? 'null',
      })),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(keyedObject, fc.boolean(), fc.uint8Array({ maxLength: 64 }), hostileString)
        .map(([o, withFile, bytes, fileName]) => {
          const fields = Object.fromEntries(Object.entries(o).map(([k, v]) => [k, asFormText(v)]));
          const files: Parameters<typeof multipartBody>[1] = withFile
            ? {
                attachment: {
                  fileName,
                  contentType: 'application/octet-stream',
                  content: Buffer.from(bytes),
                },
              }
            : {};
          const { payload, headers } = multipartBody(fields, files);
          return { kind: 'multipart', headers, payload };
        }),
    },
    {
      weight: 1,
      arbitrary: keyedObject.map((o) => ({
        kind: 'urlencoded',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(Object.entries(o).map(([k, v]) => [k, asFormText(v)])).toString(),
      })),
    },
    {
      weight: 1,
      arbitrary: hostileString.map((s) => ({
        kind: 'text',
        headers: { 'content-type': 'text/plain' },
        payload: s,
      })),
    },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(
          '{"vault_id":',
          '{"a":1,}',
          "{'name':'x'}",
          '\u0000',
          '',
          'null',
          '{"__proto__":{"admin":true}}',
          '{"constructor":{"prototype":{"admin":true}}}',
          '['.repeat(20_000),
          `{"name":"${'x'.repeat(200_000)}"}`,
          '{"position":1e999}',
          '\uFEFF{"name":"bom"}',
        )
        .map((payload) => ({
          kind: 'broken json',
          headers: { 'content-type': 'application/json' },
          payload,
        })),
    },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(
          {
            headers: { 'content-type': 'multipart/form-data' },
            payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
          },
          {
            headers: { 'content-type': 'multipart/form-data; boundary=abc' },
            payload: '--abc\r\nContent-Disposition: form-data; name="vault_id"\r\n\r\n1',
          },
          { headers: { 'content-type': 'multipart/form-data; boundary=abc' }, payload: 'no parts at all' },
          {
            headers: { 'content-type': 'multipart/form-data; boundary=abc' },
            payload:
              '--abc\r\nContent-Disposition: form-data; name="attachment"; filename="../../x.sh"\r\n\r\n#!/bin/sh\r\n',
          },
          {
            headers: { 'content-type': 'multipart/form-data; boundary=' + 'b'.repeat(500) },
            payload: '--b\r\n\r\n',
          },
          { headers: { 'content-type': 'application/xml' }, payload: '<vault><id>1</id></vault>' },
          { headers: { 'content-type': 'application/json; charset=utf-16' }, payload: '{"name":"x"}' },
          { headers: { 'content-type': 'image/png' }, payload: '\x89PNG' },
          { headers: { 'content-type': ';;;' }, payload: 'x' },
        )
        .map((b) => ({ kind: 'broken content type', ...b })),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'no body', headers: {} }) },
  );
}

function requestArbitrary(
  route: ApiRoute,
  plausible: Record<string, fc.Arbitrary<unknown>>,
): fc.Arbitrary<HostileRequest> {
  const segment = fc.oneof(
    { weight: 3, arbitrary: plausible.id!.map(String) },
    { weight: 2, arbitrary: hostileString.map((s) => encodeURIComponent(s.slice(0, 300))) },
    { weight: 1, arbitrary: hostileNumber.map(String) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '%',
        '%zz',
        '..',
        '%2e%2e',
        '%00',
        '1%20OR%201%3D1',
        '-0',
        '+1',
        '0x10',
        '1e3',
        'main-warehouse',
        'Main%20Warehouse',
      ),
    },
  );
  const query = fc.oneof(
    { weight: 3, arbitrary: fc.constant('') },
    {
      weight: 2,
      arbitrary: fc
        .dictionary(
          fc.constantFrom('id', 'warehouseId', 'name', 'limit', '__proto__', 'a[b]', 'q'),
          hostileString.map((s) => s.slice(0, 200)),
          { maxKeys: 3 },
        )
        .map((d) => `?${new URLSearchParams(d).toString()}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom('?%zz', '?a=1&a=2&a=3', '?a[b][c]=1', '?=&=&', `?x=${'y'.repeat(5_000)}`),
    },
  );
  const ip = fc.oneof(fc.ipV4(), fc.constantFrom('not-an-ip', '::1', '', '1.1.1.1, 2.2.2.2'));
  return fc.record({
    path: fc
      .tuple(...route.params.map(() => segment))
      .map((values) => Object.fromEntries(route.params.map((p, i) => [p, values[i]!]))),
    query,
    body: bodyArbitrary(plausible),
    ip,
  });
}

function urlOf(route: ApiRoute, request: HostileRequest): string {
  return route.url.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => request.path[name]!) + request.query;
}

function describeRequest(route: ApiRoute, request: HostileRequest): string {
  const payload =
    typeof request.body.payload === 'string' ? request.body.payload : String(request.body.payload ?? '');
  return `${route.method} ${urlOf(route, request).slice(0, 300)} (${request.body.kind}) ${payload.slice(0, 300)}`;
}

// ---- what no answer may contain ------------------------------------------------------------------------------------

const LEAK_PATTERNS: [string, RegExp][] = [
  ['a stack trace', /\n\s+at\s|at [^\s]+ \([^)]*:\d+:\d+\)/],
  ['a file path', /\/(home|work|tmp|usr|root)\/|node_modules|\.ts:\d|\.js:\d/],
  [
    'a database error',
    /SQLITE_|better-sqlite|sqlite3|kysely|syntax error at|violates|no such (table|column)|relation "|duplicate key|constraint failed/i,
  ],
  ['a secret column', /password_hash|argon2/],
];

function problemsWith(res: LightMyRequestResponse): string[] {
  const problems: string[] = [];
  if (res.statusCode >= 500) problems.push(`answered ${res.statusCode}`);
  const isBinary = !String(res.headers['content-type'] ?? '').includes('json') && res.statusCode < 400;
  if (!isBinary)
    for (const [what, pattern] of LEAK_PATTERNS) if (pattern.test(res.body)) problems.push(`shows ${what}`);
  if (res.statusCode >= 400) {
    let errors: unknown;
    try {
      errors = (res.json() as { errors?: unknown }).errors;
    } catch {
      errors = undefined;
    }
    const readable =
      Array.isArray(errors) &&
      errors.length > 0 &&
      errors.every((e) => typeof e === 'string' && e.trim() !== '');
    if (!readable) problems.push(`refusal without { errors: [string, ...] }: ${res.body.slice(0, 200)}`);
  }
  return problems;
}

describe.each(testEngines())('hostile input on %s', (engine) => {
  const { ctx } = useTestApp(engine, { users: 0 });
  let session: SignedIn;
  let plausible: Record<string, fc.Arbitrary<unknown>>;
  let routes: ApiRoute[];
  let fingerprint: string;
  let changes: number;

  const signInDemo = () =>
    signIn(ctx, {
      email: DEMO_LOGIN.email,
      password: DEMO_LOGIN.password,
      companyName: DEMO_LOGIN.company,
      companyId: 0,
      userId: 0,
    });
  const takeFingerprint = async () =>
    JSON.stringify(await snapshotDatabase(ctx.database.db, DEMO_LOGIN.company));

  beforeAll(async () => {
    await seedDemoIfEmpty(ctx.database.db);
    session = await signInDemo();
    const ids = await collectCompanyIds(async (method, url) => {
      const res = await session.request({ method: method as InjectOptions['method'], url });
      return { status: res.statusCode, body: res.json() };
    });
    const { payload, headers } = multipartBody(
      { vault_id: ids.placedVaultId },
      {
        attachment: {
          fileName: 'inventory.txt',
          contentType: 'text/plain',
          content: Buffer.from('inventory'),
        },
      },
    );
    const upload = await session.request({ method: 'POST', url: '/api/vaults/upload', payload, headers });
    expect(upload.statusCode).toBe(201);
    plausible = plausibleValues(ids, (upload.json() as { attachment: { id: number } }).attachment.id);
    routes = apiRoutes(ctx.app);
    fingerprint = await takeFingerprint();
    changes = await changeCounter(ctx.database.db, engine);
  });

  it('answers every route no 5xx, no internals, readable refusals, and changes nothing when it refuses', async () => {
    const runs = CASES_PER_ROUTE[engine];
    let cases = 0;
    const statuses = new Map<number, number>();
    for (const [index, route] of routes.entries()) {
      if (route.key === STREAM_ROUTE) continue;
      await fc.assert(
        fc.asyncProperty(requestArbitrary(route, plausible), async (request) => {
          cases += 1;
          const res = await session.request({
            method: route.method as InjectOptions['method'],
            url: urlOf(route, request),
            headers: { ...request.body.headers, 'x-forwarded-for': request.ip },
            ...(request.body.payload === undefined ? {} : { payload: request.body.payload }),
          });
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          const problems = problemsWith(res);
          const counter = await changeCounter(ctx.database.db, engine);
          // only when the counter moved can the database have changed: then the full comparison proves it
          if (counter !== changes) {
            changes = counter;
            const before = fingerprint;
            fingerprint = await takeFingerprint();
            if (res.statusCode >= 400 && fingerprint !== before)
              problems.push(`changed the database although it answered ${res.statusCode}`);
          }
          // a sign-out or sign-in ends this session: start another for the next case
          if (String(res.headers['set-cookie'] ?? '').includes('wm_session=')) {
            session = await signInDemo();
            // the new sign-in is the test's own change (it notes the member's last sign-in), not the probe's
            fingerprint = await takeFingerprint();
            changes = await changeCounter(ctx.database.db, engine);
          }
          if (problems.length > 0)
            throw new Error(
              `${describeRequest(route, request)} -> ${res.statusCode}: ${problems.join('; ')}`,
            );
        }),
        { numRuns: runs, seed: SEED + index, endOnFailure: true },
      );
    }
    const tally = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
    console.info(
      `hostile input on ${engine}: ${cases} cases over ${routes.length} routes (${tally.join(', ')})`,
    );
    expect(cases).toBeGreaterThanOrEqual(runs * (routes.length - 1));
  }, 240_000);

  it('refuses bodies over the size limits with 413 and a readable message, changing nothing', async () => {
    const before = await takeFingerprint();
    const bigJson = await session.request({
      method: 'PUT',
      url: '/api/vaults/move',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ vaultId: 1, filler: 'x'.repeat(8 * 1024 * 1024) }),
    });
    expect(bigJson.statusCode).toBe(413);
    expect(problemsWith(bigJson)).toEqual([]);
    const { payload, headers } = multipartBody(
      { vault_id: 1 },
      {
        attachment: {
          fileName: 'big.bin',
          contentType: 'application/octet-stream',
          content: Buffer.alloc(5 * 1024 * 1024 + 1),
        },
      },
    );
    const bigFile = await session.request({ method: 'POST', url: '/api/vaults/upload', payload, headers });
    expect(bigFile.statusCode).toBe(413);
    expect(bigFile.json()).toEqual({ errors: ['File size should not exceed 5MB'] });
    expect(await takeFingerprint()).toBe(before);
    fingerprint = before;
    changes = await changeCounter(ctx.database.db, engine);
  });

  it('answers broken forms and odd paths in the API shape', async () => {
    const noBoundary = await session.request({
      method: 'POST',
      url: '/api/vaults/',
      headers: { 'content-type': 'multipart/form-data' },
      payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
    });
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json()).toEqual({ errors: [UNREADABLE_FORM] });
    const cutOff = await session.request({
      method: 'POST',
      url: '/api/fields/',
      headers: { 'content-type': 'multipart/form-data; boundary=abc' },
      payload: '--abc\r\nContent-Disposition: form-data; name="warehouse_id"\r\n\r\n1',
    });
    expect(cutOff.statusCode).toBe(400);
    expect(cutOff.json()).toEqual({ errors: [UNREADABLE_FORM] });

    const badEncoding = await session.request({ method: 'GET', url: '/api/vaults/%zz' });
    expect(badEncoding.statusCode).toBe(400);
    expect(problemsWith(badEncoding)).toEqual([]);
    const tooLong = await session.request({ method: 'GET', url: `/api/vaults/${'9'.repeat(1_500)}` });
    expect(tooLong.statusCode).toBe(414);
    expect(problemsWith(tooLong)).toEqual([]);
    const longId = await session.request({ method: 'GET', url: `/api/vaults/${'9'.repeat(500)}` });
    expect(longId.statusCode).toBe(404);
  });

  it('opens a checklist link whose warehouse name is long once percent-encoded', async () => {
    const name = '東京倉庫第二号館北棟冷蔵エリア';
    const created = await session.request({
      method: 'POST',
      url: '/api/warehouse/add-warehouse',
      payload: { name, rows: 1, cols: 1, field_capacity: 1, length: 10, width: 10 },
    });
    expect(created.statusCode).toBe(201);
    const checklist = await session.request({
      method: 'POST',
      url: '/api/checklists/',
      payload: {
        warehouse_id: (created.json() as { id: number }).id,
        description: 'Night round',
        tasks: ['Lights off'],
      },
    });
    expect(checklist.statusCode).toBe(201);
    expect(encodeURIComponent(name).length).toBeGreaterThan(100);
    // signed out, through the link the admin page shows (its key included)
    const fillIn = (checklist.json() as { fill_in_url: string }).fill_in_url;
    const key = new URL(fillIn, 'http://site.test').searchParams.get('key')!;
    const link = await ctx.app.inject({
      method: 'GET',
      url: `/api/checklists/warehouse/${encodeURIComponent(name)}?key=${key}`,
    });
    expect(link.statusCode).toBe(200);
    expect(link.json()).toMatchObject({ warehouseName: name, description: 'Night round' });
    fingerprint = await takeFingerprint();
    changes = await changeCounter(ctx.database.db, engine);
  });

  it('keeps the live stream sound for odd Last-Event-ID headers and query strings', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const lastEventId = fc.oneof(
      hostileString.map((s) => s.replace(/[^\x20-\x7e]/g, '').slice(0, 200)),
      hostileNumber.map(String),
    );
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(lastEventId, fc.string({ maxLength: 30 }), async (header, query) => {
        cases += 1;
        const first = await new Promise<{ status: number; chunk: string }>((resolve, reject) => {
          const req = http.get(
            {
              host: '127.0.0.1',
              port,
              path: `/api/events?${encodeURIComponent(query)}`,
              headers: { cookie: session.cookie, 'last-event-id': header },
            },
            (res) => {
              res.setEncoding('utf8');
              res.once('data', (chunk: string) => {
                resolve({ status: res.statusCode ?? 0, chunk });
                req.destroy();
              });
            },
          );
          req.on('error', reject);
        });
        expect(first.status).toBe(200);
        for (const [what, pattern] of LEAK_PATTERNS) expect(pattern.test(first.chunk), what).toBe(false);
      }),
      { numRuns: engine === 'sqlite' ? 40 : 10, seed: SEED },
    );
    console.info(`hostile input on ${engine}: ${cases} live-stream cases`);
  });
});
