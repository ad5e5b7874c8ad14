import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '@domain/rules/capacity';
import { type SignedIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { buildStagedVault, buildVault, buildWarehouse } from '../../factories';
import { ATTACHMENT_NOT_FOUND } from './attachments.download';
import { multipartBody } from '../../test/multipart-body';
import { MISSING_FILE, MISSING_VAULT_ID } from './vaults.routes';

describe.each(testEngines())('attachment routes on %s', (engine) => {
  const { ctx, user, other } = useTestApp(engine);

  const db = () => ctx.database.db;
  const filesOf = (vaultId: number) =>
    db().selectFrom('attachments').select('id').where('vault_id', '=', vaultId).execute();
  const upload = (
    as: SignedIn,
    vaultId: number | string,
    fileName: string,
    contentType: string,
    content: Buffer,
  ) =>
    as.request({
      method: 'POST',
      url: '/api/vaults/upload',
      ...multipartBody({ vault_id: vaultId }, { attachment: { fileName, contentType, content } }),
    });

  it('uploads a file to a vault and downloads the same bytes with safe headers', async () => {
    const vault = await buildStagedVault(db(), { companyId: user.companyId });
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x10]);
    const res = await upload(user, vault.id, 'Floor plan (v2) é.png', 'image/png', bytes);
    expect(res.statusCode).toBe(201);
    const { attachment } = res.json() as { attachment: { id: number; file_name: string; file_url: string } };
    expect(attachment).toEqual({
      id: attachment.id,
      file_name: 'Floor plan (v2) é.png',
      file_url: `/api/attachments/${attachment.id}`,
    });

    const download = await user.request({ method: 'GET', url: attachment.file_url });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(bytes)).toBe(true);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="Floor plan (v2) _.png"; filename*=UTF-8''Floor%20plan%20%28v2%29%20%C3%A9.png`,
    );
    const dto = (
      await user.request({
        method: 'PUT',
        url: `/api/vaults/${vault.id}`,
        payload: { customer_name: vault.customer_name, order_name: 'X-1' },
      })
    ).json();
    expect(dto.attachments).toEqual([attachment]);
  });

  it('serves active content as opaque bytes and keeps header-breaking names harmless', async () => {
    const vault = await buildStagedVault(db(), { companyId: user.companyId });
    for (const contentType of ['text/html', 'image/svg+xml', 'application/javascript']) {
      const { attachment } = (
        await upload(user, vault.id, 'page.html', contentType, Buffer.from('<script>alert(1)</script>'))
      ).json();
      const download = await user.request({ method: 'GET', url: attachment.file_url });
      expect(download.headers['content-type']).toBe('application/octet-stream');
      expect(download.headers['content-disposition']).toMatch(/^attachment;/);
    }
    const row = await db()
      .insertInto('attachments')
      .values({
        company_id: user.companyId,
        vault_id: vault.id,
        file_name: 'x"; evil=1\\.html\r\nSet-Cookie: a=b',
        content_type: 'text/plain',
        size: 1,
        content: Buffer.from('a'),
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const download = await user.request({ method: 'GET', url: `/api/attachments/${row.id}` });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(download.headers['set-cookie']).toBeUndefined();
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="x__ evil=1_.html__Set-Cookie: a=b"; filename*=UTF-8''x%22%3B%20evil%3D1%5C.html%0D%0ASet-Cookie%3A%20a%3Db`,
    );
  });

  it('answers 413 for a file over 5 MB and stores nothing', async () => {
    const vault = await buildStagedVault(db(), { companyId: user.companyId });
    const res = await upload(
      user,
      vault.id,
      'big.bin',
      'application/octet-stream',
      Buffer.alloc(MAX_UPLOAD_BYTES + 10, 7),
    );
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ errors: ['File size should not exceed 5MB'] });
    expect(await filesOf(vault.id)).toHaveLength(0);
  });

  it('accepts a file of exactly 5 MB', async () => {
    const vault = await buildStagedVault(db(), { companyId: user.companyId });
    const res = await upload(
      user,
      vault.id,
      'limit.bin',
      'application/octet-stream',
      Buffer.alloc(MAX_UPLOAD_BYTES, 7),
    );
    expect(res.statusCode).toBe(201);
  });

  it('answers 400 without a file or a vault id', async () => {
    const vault = await buildStagedVault(db(), { companyId: user.companyId });
    const noFile = await user.request({
      method: 'POST',
      url: '/api/vaults/upload',
      ...multipartBody({ vault_id: vault.id }),
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json()).toEqual({ errors: [MISSING_FILE] });
    const noId = await user.request({
      method: 'POST',
      url: '/api/vaults/upload',
      ...multipartBody(
        {},
        { attachment: { fileName: 'a.txt', contentType: 'text/plain', content: Buffer.from('a') } },
      ),
    });
    expect(noId.json()).toEqual({ errors: [MISSING_VAULT_ID] });
    expect(await filesOf(vault.id)).toHaveLength(0);
  });

  it('answers 404 for another company vault or attachment, and 401 signed out', async () => {
    const theirs = await buildStagedVault(db(), { companyId: other.companyId });
    const mine = await buildStagedVault(db(), { companyId: user.companyId });
    expect((await upload(user, theirs.id, 'a.txt', 'text/plain', Buffer.from('a'))).statusCode).toBe(404);
    expect(await filesOf(theirs.id)).toHaveLength(0);

    const { attachment } = (
      await upload(other, theirs.id, 'secret.txt', 'text/plain', Buffer.from('secret'))
    ).json();
    const peek = await user.request({ method: 'GET', url: attachment.file_url });
    expect(peek.statusCode).toBe(404);
    expect(peek.body).not.toContain('secret');
    expect((await ctx.app.inject({ method: 'GET', url: attachment.file_url })).statusCode).toBe(401);
    expect((await user.request({ method: 'GET', url: '/api/attachments/nope' })).statusCode).toBe(404);

    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/api/vaults/upload',
      ...multipartBody(
        { vault_id: mine.id },
        { attachment: { fileName: 'a.txt', contentType: 'text/plain', content: Buffer.from('a') } },
      ),
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await filesOf(mine.id)).toHaveLength(0);
  });

  describe('DELETE /api/attachments/{id}', () => {
    it('removes one attachment of a placed vault, keeps the others and records an event', async () => {
      const warehouse = await buildWarehouse(db(), { companyId: user.companyId, rows: 1, cols: 1 });
      const vault = await buildVault(db(), { companyId: user.companyId, fieldId: warehouse.field('A1').id });
      const first = (await upload(user, vault.id, 'keep.txt', 'text/plain', Buffer.from('keep'))).json();
      const second = (await upload(user, vault.id, 'drop.txt', 'text/plain', Buffer.from('drop'))).json();

      const res = await user.request({ method: 'DELETE', url: `/api/attachments/${second.attachment.id}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ attachmentId: second.attachment.id, vaultId: vault.id });
      expect(await filesOf(vault.id)).toEqual([{ id: first.attachment.id }]);
      const download = await user.request({ method: 'GET', url: second.attachment.file_url });
      expect(download.statusCode).toBe(404);

      const event = await db()
        .selectFrom('events')
        .select(['kind', 'entity_type', 'warehouse_id'])
        .where('entity_id', '=', vault.id)
        .where('kind', '=', 'vault.attachment-deleted')
        .executeTakeFirst();
      expect(event).toEqual({
        kind: 'vault.attachment-deleted',
        entity_type: 'vault',
        warehouse_id: warehouse.id,
      });

      const again = await user.request({ method: 'DELETE', url: `/api/attachments/${second.attachment.id}` });
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({ errors: [ATTACHMENT_NOT_FOUND] });
    });

    it('removes an attachment of a staged vault', async () => {
      const vault = await buildStagedVault(db(), { companyId: user.companyId });
      const { attachment } = (await upload(user, vault.id, 'a.txt', 'text/plain', Buffer.from('a'))).json();
      const res = await user.request({ method: 'DELETE', url: `/api/attachments/${attachment.id}` });
      expect(res.statusCode).toBe(200);
      expect(await filesOf(vault.id)).toHaveLength(0);
    });

    it("answers 404 for another company's attachment, 404 for a bad id and 401 signed out, removing nothing", async () => {
      const theirs = await buildStagedVault(db(), { companyId: other.companyId });
      const { attachment } = (
        await upload(other, theirs.id, 'theirs.txt', 'text/plain', Buffer.from('theirs'))
      ).json();
      const refused = await user.request({ method: 'DELETE', url: `/api/attachments/${attachment.id}` });
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ errors: [ATTACHMENT_NOT_FOUND] });
      expect((await user.request({ method: 'DELETE', url: '/api/attachments/nope' })).statusCode).toBe(404);
      expect((await user.request({ method: 'DELETE', url: '/api/attachments/-1' })).statusCode).toBe(404);
      const anonymous = await ctx.app.inject({ method: 'DELETE', url: `/api/attachments/${attachment.id}` });
      expect(anonymous.statusCode).toBe(401);
      expect(await filesOf(theirs.id)).toEqual([{ id: attachment.id }]);
    });

    it('lets two simultaneous deletes of one attachment end with one success and one 404', async () => {
      const vault = await buildStagedVault(db(), { companyId: user.companyId });
      const { attachment } = (await upload(user, vault.id, 'a.txt', 'text/plain', Buffer.from('a'))).json();
      const answers = await Promise.all([
        user.request({ method: 'DELETE', url: `/api/attachments/${attachment.id}` }),
        user.request({ method: 'DELETE', url: `/api/attachments/${attachment.id}` }),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 404]);
      expect(await filesOf(vault.id)).toHaveLength(0);
    });
  });
});
