import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CompanyFileJobDto } from '@domain/schemas/company-file.schema';
import { buildAccount, buildVault, buildWarehouse } from '../../factories';
import { insertAttachment } from '../vaults/attachments.repo';
import { type SignedIn, signIn, startTestApp, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { checkCompanyFile, importCompanyFile } from '../../transfer/company-file';
import { exportCompany } from '../../transfer/company-transfer';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wm-company-file-job-'));
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Follows the job as the Backups page does until it is no longer running. */
async function untilDone(user: SignedIn): Promise<CompanyFileJobDto> {
  for (let tries = 0; tries < 300; tries += 1) {
    const res = await user.request({ method: 'GET', url: '/api/company-file/jobs/latest' });
    expect(res.statusCode).toBe(200);
    const { job } = res.json() as { job: CompanyFileJobDto };
    if (job.status !== 'running') return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the company file job did not finish');
}

describe.each(testEngines())('downloading the company file on %s', (engine) => {
  const { ctx, user } = useTestApp(engine, { users: 1 });

  it('runs as a job with progress, and the downloaded file is the whole company', async () => {
    const db = ctx.database.db;
    expect((await user.request({ method: 'GET', url: '/api/company-file/jobs/latest' })).json()).toEqual({
      job: null,
    });
    const warehouse = await buildWarehouse(db, { companyId: user.companyId });
    const vault = await buildVault(db, { companyId: user.companyId, fieldId: warehouse.field('B2').id });
    const content = Buffer.alloc(4 * 1024 * 1024, 7);
    await insertAttachment(db, {
      companyId: user.companyId,
      vaultId: vault.id,
      fileName: 'inventory.pdf',
      contentType: 'application/pdf',
      content,
    });

    const started = await user.request({ method: 'POST', url: '/api/company-file/jobs' });
    expect(started.statusCode).toBe(202);
    const job = started.json() as CompanyFileJobDto;
    expect(job).toMatchObject({ status: 'running', requestedBy: expect.any(String) });
    expect(job.fileName).toMatch(/^test-movers-.*-\d{4}-\d{2}-\d{2}\.tar$/);

    const done = await untilDone(user);
    expect(done).toMatchObject({ id: job.id, status: 'ready', error: null });
    expect(done.done).toBe(done.total);
    expect(done.total).toBeGreaterThan(warehouse.fields.length);

    const download = await user.request({ method: 'GET', url: `/api/company-file/jobs/${job.id}/download` });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toBe(`attachment; filename="${done.fileName}"`);
    expect(download.rawPayload.length).toBe(done.bytes);
    const file = path.join(dir, `${engine}.tar`);
    fs.writeFileSync(file, download.rawPayload);
    expect((await checkCompanyFile(file)).problems).toEqual([]);

    const target = await startTestApp('sqlite');
    try {
      await importCompanyFile(target.database.db, file);
      expect(await exportCompany(target.database.db, user.companyName)).toEqual(
        await exportCompany(db, user.companyName),
      );
    } finally {
      await target.close();
    }
  });

  it('answers the running job instead of starting a second, and a new file replaces the old one', async () => {
    const first = (
      await user.request({ method: 'POST', url: '/api/company-file/jobs' })
    ).json() as CompanyFileJobDto;
    const again = (
      await user.request({ method: 'POST', url: '/api/company-file/jobs' })
    ).json() as CompanyFileJobDto;
    const finished = await untilDone(user);
    // a second start while the first ran got the first; one that came after it finished is a new job
    expect([first.id, first.id + 1]).toContain(again.id);
    expect(finished.status).toBe('ready');
    const rows = await ctx.database.db
      .selectFrom('company_file_jobs')
      .select('id')
      .where('company_id', '=', user.companyId)
      .execute();
    expect(rows.map((r) => r.id)).toEqual([finished.id]);
    const old = await user.request({ method: 'GET', url: `/api/company-file/jobs/${first.id - 1}/download` });
    expect(old.statusCode).toBe(404);
    expect(old.json()).toEqual({
      errors: ['That company file is not there any more. Start a new download.'],
    });
  });

  it('is for Managers only', async () => {
    const floor = await signIn(
      ctx,
      await buildAccount(ctx.database.db, { company: user.companyName, role: 'floor' }),
    );
    const res = await floor.request({ method: 'POST', url: '/api/company-file/jobs' });
    expect(res.statusCode).toBe(403);
    const latest = await floor.request({ method: 'GET', url: '/api/company-file/jobs/latest' });
    expect(latest.statusCode).toBe(403);
  });
});
