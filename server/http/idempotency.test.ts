// Not useTestApp: several app instances share one scratch database (migrated once), which useTestApp does not set up.
import crypto from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { sweepAuthTables } from '../auth/housekeeping';
import { environmentWith, loadConfig } from '../config';
import { type DatabaseHandle, openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { type BuiltAccount, buildAccount, buildStagedVault, buildVault, buildWarehouse } from '../factories';
import { countRows } from '../test/row-count.repo';
import { scratchDatabase } from '../test/scratch-database';
import { testEngines } from '../test/test-app';
import { multipartBody } from '../test/multipart-body';
import { MAX_UPLOAD_BYTES } from '@domain/rules/capacity';
import { KEY_INVALID, KEY_MISUSED, REPLAYED_HEADER } from './idempotency';
import { claimKey, findKey } from './idempotency-keys.repo';

/**
 * Idempotency-Key (issue 30, decision 043) with two app instances on one database, as two server processes behind a
 * load balancer share it: the table of keys is the only thing they share, so it must be the arbiter.
 */

describe.each(testEngines())('Idempotency-Key on %s', (engine) => {
  let drop: () => Promise<void>;
  const databases: DatabaseHandle[] = [];
  const apps: FastifyInstance[] = [];
  let db: DatabaseHandle['db'];

  beforeAll(async () => {
    const scratch = await scratchDatabase(engine, 'idem');
    drop = scratch.drop;
    const config = loadConfig(environmentWith({ LOGIN_RATE_LIMIT: '1000' }));
    for (let i = 0; i < 2; i++) {
      const database = openDatabase(scratch.target);
      if (i === 0) await migrateToLatest(database.db);
      databases.push(database);
      const app = await buildApp({ config, database, logger: false });
      await app.ready();
      apps.push(app);
    }
    db = databases[0]!.db;
  }, 60_000);

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const database of databases) await database.close();
    await drop?.();
  });

  /** A signed-in user of a new company, whose requests go to the two apps in turn. */
  async function member(account?: BuiltAccount) {
    const acc = account ?? (await buildAccount(db));
    const res = await apps[0]!.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: acc.email, password: acc.password },
    });
    const cookie = `wm_session=${res.cookies.find((c) => c.name === 'wm_session')!.value}`;
    let turn = 0;
    const request = (options: InjectOptions): Promise<LightMyRequestResponse> =>
      apps[turn++ % apps.length]!.inject({ ...options, headers: { ...options.headers, cookie } });
    return { ...acc, request };
  }

  const addVault = (fieldId: number, name: string, key: string): InjectOptions => ({
    method: 'POST',
    url: '/api/vaults/',
    headers: { 'idempotency-key': key },
    payload: { vault_id: name, customer_name: 'ONCE', order_name: 'O1', field_id: fieldId, position: 3 },
  });

  /** The one field (three slots) of a new warehouse of the company. */
  const oneField = async (companyId: number) =>
    (await buildWarehouse(db, { companyId, rows: 1, cols: 1, fieldCapacity: 3 })).fields[0]!;
  /** A member of a new company, and the one field of its warehouse. */
  const memberWithField = async () => {
    const user = await member();
    return { user, field: await oneField(user.companyId) };
  };

  it('the same key sent 20 times at once through two apps makes one write and 20 identical answers', async () => {
    const { user, field } = await memberWithField();
    const eventsBefore = await countRows(db, 'events', user.companyId);
    const key = crypto.randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => user.request(addVault(field.id, 'ONE-1', key))),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(JSON.parse(answers[0]!.body)).toMatchObject({ name: 'ONE-1', position: 3 });
    // one of them ran, the others were given its answer
    expect(answers.filter((a) => a.headers[REPLAYED_HEADER] === 'true')).toHaveLength(19);
    expect(await countRows(db, 'vaults', user.companyId)).toBe(1);
    expect(await countRows(db, 'events', user.companyId)).toBe(eventsBefore + 1);
    expect(await countRows(db, 'idempotency_keys', user.companyId)).toBe(1);

    // and again later, from either app: the same answer, still one vault
    const later = await user.request(addVault(field.id, 'ONE-1', key));
    expect(later.statusCode).toBe(201);
    expect(later.body).toBe(answers[0]!.body);
    expect(await countRows(db, 'vaults', user.companyId)).toBe(1);
  });

  it('refuses the same key with a different body (422) and saves nothing', async () => {
    const { user, field } = await memberWithField();
    const key = crypto.randomUUID();
    expect((await user.request(addVault(field.id, 'TWO-1', key))).statusCode).toBe(201);
    const reused = await user.request({
      ...addVault(field.id, 'TWO-2', key),
      payload: {
        vault_id: 'TWO-2',
        customer_name: 'ONCE',
        order_name: 'O1',
        field_id: field.id,
        position: 2,
      },
    });
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toEqual({ errors: [KEY_MISUSED] });
    // another address with the same key is another change too
    const elsewhere = await user.request({
      method: 'PATCH',
      url: `/api/fields/${field.id}/full`,
      headers: { 'idempotency-key': key },
      payload: { full: true },
    });
    expect(elsewhere.statusCode).toBe(422);
    expect(await countRows(db, 'vaults', user.companyId)).toBe(1);
  });

  it('keeps each company to its own keys', async () => {
    const first = await member();
    const second = await member();
    const key = crypto.randomUUID();
    for (const user of [first, second]) {
      const answer = await user.request(addVault((await oneField(user.companyId)).id, 'SAME-1', key));
      expect(answer.statusCode).toBe(201);
      expect(answer.headers[REPLAYED_HEADER]).toBeUndefined();
      expect(await countRows(db, 'vaults', user.companyId)).toBe(1);
    }
  });

  it('keeps no refusal: a refused change sent again runs again', async () => {
    const { user, field } = await memberWithField();
    const staged = await buildStagedVault(db, { companyId: user.companyId });
    // the field is full of someone else's vaults: the move is refused
    const blockers = [];
    for (let i = 0; i < 3; i++)
      blockers.push(await buildVault(db, { companyId: user.companyId, fieldId: field.id }));
    const key = crypto.randomUUID();
    const move: InjectOptions = {
      method: 'PUT',
      url: '/api/vaults/move',
      headers: { 'idempotency-key': key },
      payload: {
        vaultId: staged.id,
        fieldId: field.id,
        position: 1,
        basis: { fieldId: null, position: null },
      },
    };
    const refused = await user.request(move);
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(refused.statusCode).toBeLessThan(500);
    expect(await findKey(db, `company:${user.companyId}`, key)).toBeUndefined();
    // the topmost one is staged: slot 1 is free now, and the same change with the same key goes through
    expect(
      (await user.request({ method: 'POST', url: `/api/stage/vaults/${blockers[2]!.id}` })).statusCode,
    ).toBe(200);
    const applied = await user.request(move);
    expect(applied.statusCode).toBe(200);
    expect(applied.json()).toMatchObject({ id: staged.id, field_id: field.id, position: 1 });
  });

  it('answers 400 for a malformed key', async () => {
    const { user, field } = await memberWithField();
    const bad = await user.request({ ...addVault(field.id, 'BAD-1', 'has spaces in it') });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ errors: [KEY_INVALID] });
    expect(await countRows(db, 'vaults', user.companyId)).toBe(0);
  });

  it('applies an add with its file (a multipart form) once per key, and refuses the key with another file', async () => {
    const { user, field } = await memberWithField();
    const fieldId = field.id;
    const fields = {
      vault_id: 'UP-1',
      customer_name: 'ONCE',
      order_name: 'O1',
      field_id: fieldId,
      position: 3,
    };
    const png = (content: Buffer) => ({ fileName: 'photo.png', contentType: 'image/png', content });
    const photo = crypto.randomBytes(2048);
    const key = crypto.randomUUID();
    // each try is a new form (a new boundary), as a tablet's replay builds it again from what it kept
    const send = (content: Buffer) => {
      const form = multipartBody(fields, { attachment: png(content) });
      return user.request({
        method: 'POST',
        url: '/api/vaults/',
        headers: { ...form.headers, 'idempotency-key': key },
        payload: form.payload,
      });
    };
    const answers = await Promise.all([send(photo), send(photo), send(photo)]);
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers.filter((a) => a.headers[REPLAYED_HEADER] === 'true')).toHaveLength(2);
    const vault = answers[0]!.json<{ id: number; attachments: { file_name: string; file_url: string }[] }>();
    expect(vault.attachments.map((a) => a.file_name)).toEqual(['photo.png']);
    expect(await countRows(db, 'vaults', user.companyId)).toBe(1);
    expect(await countRows(db, 'attachments', user.companyId)).toBe(1);
    const stored = await user.request({ method: 'GET', url: vault.attachments[0]!.file_url });
    expect(stored.statusCode).toBe(200);
    expect(stored.rawPayload.equals(photo)).toBe(true);

    // the same key with other bytes is another change: refused, nothing saved
    const other = await send(crypto.randomBytes(2048));
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ errors: [KEY_MISUSED] });
    expect(await countRows(db, 'attachments', user.companyId)).toBe(1);

    // a file over the upload limit is refused with the spec's words while the form is read for the key, and the
    // refused key is not kept: the same key with a file that fits runs
    const bigKey = crypto.randomUUID();
    const sendBig = (content: Buffer) => {
      const form = multipartBody({ ...fields, vault_id: 'UP-2', position: 2 }, { attachment: png(content) });
      return user.request({
        method: 'POST',
        url: '/api/vaults/',
        headers: { ...form.headers, 'idempotency-key': bigKey },
        payload: form.payload,
      });
    };
    const tooBig = await sendBig(Buffer.alloc(MAX_UPLOAD_BYTES + 10, 7));
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toEqual({ errors: ['File size should not exceed 5MB'] });
    expect(await countRows(db, 'vaults', user.companyId)).toBe(1);
    expect((await sendBig(crypto.randomBytes(1024))).statusCode).toBe(201);
    expect(await countRows(db, 'attachments', user.companyId)).toBe(2);
  });

  it('takes over a claim whose request never finished', async () => {
    const { user, field } = await memberWithField();
    const key = crypto.randomUUID();
    const request = addVault(field.id, 'LOST-1', key);
    // a claim by a process that stopped half an hour ago, with another fingerprint than any real request
    const longAgo = new Date(Date.now() - 30 * 60_000).toISOString();
    const stale = { companyId: user.companyId, scope: `company:${user.companyId}`, key, token: 'gone' };
    await claimKey(db, { ...stale, fingerprint: 'x', now: longAgo });
    expect((await user.request(request)).statusCode).toBe(422);
    // the same claim with the request's own fingerprint: taken over and run
    const other = crypto.randomUUID();
    const first = await user.request({ ...request, headers: { 'idempotency-key': other } });
    expect(first.statusCode).toBe(201);
    expect(await countRows(db, 'vaults', user.companyId)).toBe(1);
    const kept = await findKey(db, stale.scope, other);
    const lostKey = crypto.randomUUID();
    await claimKey(db, { ...stale, key: lostKey, fingerprint: kept!.fingerprint, now: longAgo });
    const takenOver = await user.request({ ...request, headers: { 'idempotency-key': lostKey } });
    // it ran (and was refused: the slot is taken by LOST-1 now), rather than waiting for the lost request
    expect(takenOver.statusCode).toBeGreaterThanOrEqual(400);
    expect(takenOver.statusCode).toBeLessThan(500);
    expect(takenOver.headers[REPLAYED_HEADER]).toBeUndefined();
  });

  it('keeps keys a day and the housekeeping deletes older ones', async () => {
    const user = await member();
    const scope = `company:${user.companyId}`;
    const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3600_000).toISOString();
    const claim = { companyId: user.companyId, scope, fingerprint: 'f', token: 't' };
    await claimKey(db, { ...claim, key: 'old', now: at(25) });
    await claimKey(db, { ...claim, key: 'recent', now: at(23) });
    const removed = await sweepAuthTables(db, 3600_000);
    expect(removed.idempotencyKeys).toBeGreaterThanOrEqual(1);
    expect(await findKey(db, scope, 'old')).toBeUndefined();
    expect(await findKey(db, scope, 'recent')).toBeDefined();
  });

  it('refuses a move or a stage whose vault was moved meanwhile (409, with where it is now)', async () => {
    const user = await member();
    const warehouse = await buildWarehouse(db, {
      companyId: user.companyId,
      rows: 1,
      cols: 2,
      fieldCapacity: 3,
    });
    const [a, b] = warehouse.fields;
    const vault = await buildVault(db, { companyId: user.companyId, fieldId: a!.id, name: 'BASIS-1' });
    // a tablet saw it in A1 slot 3 and queued a stage; meanwhile another moved it to the other field
    const moved = await user.request({
      method: 'PUT',
      url: '/api/vaults/move',
      payload: { vaultId: vault.id, fieldId: b!.id, position: 3, basis: { fieldId: a!.id, position: 3 } },
    });
    expect(moved.statusCode).toBe(200);
    const stage = await user.request({
      method: 'POST',
      url: `/api/stage/vaults/${vault.id}`,
      payload: { basis: { fieldId: a!.id, position: 3 } },
    });
    expect(stage.statusCode).toBe(409);
    expect(stage.json()).toEqual({
      errors: [
        `Vault BASIS-1 was moved by someone else meanwhile: it is now in ${warehouse.name} ${b!.name}, slot 3. Nothing was changed.`,
      ],
    });
    const again = await user.request({
      method: 'PUT',
      url: '/api/vaults/move',
      payload: { vaultId: vault.id, fieldId: a!.id, position: 3, basis: { fieldId: a!.id, position: 3 } },
    });
    expect(again.statusCode).toBe(409);
    expect(await countRows(db, 'events', user.companyId)).toBeGreaterThan(0);
    // with the basis as it is now, the stage goes through
    const current = await user.request({
      method: 'POST',
      url: `/api/stage/vaults/${vault.id}`,
      payload: { basis: { fieldId: b!.id, position: 3 } },
    });
    expect(current.statusCode).toBe(200);
  });
});
