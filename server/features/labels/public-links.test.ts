import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckDto } from '@domain/schemas/check.schema';
import type { ChecklistDto } from '@domain/schemas/checklist.schema';
import type { MemberLinkDto } from '@domain/schemas/team.schema';
import { buildAccount, buildVault, buildWarehouse } from '../../factories';
import { signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { decodeQrIn, pdfInfo, renderPage } from './pdf-render';
import { pdfText } from '../../test/pdf-text';

const PUBLIC = 'https://wm.example.test';

// Issue 34: every link the product prints or hands out points at PUBLIC_URL, whatever address the request came to;
// Viewers print the checklist poster; check PDFs write times the company's way.
describe.each(testEngines())('public links and printing on %s', (engine) => {
  const { ctx, user } = useTestApp(engine, { env: { PUBLIC_URL: `${PUBLIC}/` }, users: 1 });
  const db = () => ctx.database.db;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'public-links-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** The first QR code on the PDF's first page. */
  async function qrOf(pdf: Buffer, name: string): Promise<string | null> {
    const file = path.join(dir, `${engine}-${name}.pdf`);
    fs.writeFileSync(file, pdf);
    const info = await pdfInfo(file);
    const page = await renderPage(file, 1, 150);
    return decodeQrIn(page, { x: 0, y: 0, width: info.width, height: info.height });
  }

  let counter = 0;
  const place = async () => {
    counter += 1;
    const wh = await buildWarehouse(db(), {
      companyId: user.companyId,
      name: `Links ${engine} ${counter}`,
      rows: 1,
      cols: 1,
    });
    const vault = await buildVault(db(), {
      companyId: user.companyId,
      fieldId: wh.field('A1').id,
      name: `77${counter}001`,
    });
    return { wh, vault };
  };

  it("prints a vault's label with a link at PUBLIC_URL, asked from any host", async () => {
    const { vault } = await place();
    const res = await user.request({
      method: 'POST',
      url: '/api/labels/vaults',
      headers: { host: 'internal.lan:8080' },
      payload: { format: 'thermal-2x1', vaultIds: [vault.id] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    expect(await qrOf(res.rawPayload, 'vault')).toMatch(new RegExp(`^${PUBLIC}/v/`));
  });

  it('lets a Viewer print the checklist poster, whose QR code and fill-in link are at PUBLIC_URL', async () => {
    const { wh } = await place();
    const created = await user.request({
      method: 'POST',
      url: '/api/checklists/',
      headers: { host: 'internal.lan:8080' },
      payload: { warehouse_id: wh.id, description: 'Daily', tasks: ['Sweep'] },
    });
    expect(created.statusCode).toBe(201);
    const checklist = created.json() as ChecklistDto;
    expect(checklist.fill_in_link).toBe(`${PUBLIC}${checklist.fill_in_url!}`);
    const listed = (await user.request({ method: 'GET', url: '/api/checklists/' })).json() as ChecklistDto[];
    expect(listed.find((c) => c.id === checklist.id)!.fill_in_link).toBe(checklist.fill_in_link);

    const viewer = await signIn(ctx, await buildAccount(db(), { company: user.companyName, role: 'viewer' }));
    const seen = (await viewer.request({ method: 'GET', url: '/api/checklists/' })).json() as ChecklistDto[];
    expect(seen.find((c) => c.id === checklist.id)!.fill_in_link).toBe(checklist.fill_in_link);
    const poster = await viewer.request({
      method: 'GET',
      url: `/api/labels/checklist-poster/${checklist.id}?format=a4`,
      headers: { host: 'internal.lan:8080' },
    });
    expect(poster.statusCode).toBe(200);
    expect(await qrOf(poster.rawPayload, 'poster')).toBe(checklist.fill_in_link);
  });

  it('hands out password reset links at PUBLIC_URL', async () => {
    const member = await buildAccount(db(), { company: user.companyName, role: 'floor' });
    const res = await user.request({
      method: 'POST',
      url: `/api/team/members/${member.userId}/reset-link`,
      headers: { host: 'internal.lan:8080' },
    });
    expect(res.statusCode).toBe(201);
    const link = res.json() as MemberLinkDto;
    expect(link.url).toBe(`${PUBLIC}${link.path}`);
  });

  it("writes a check PDF's times in the company's locale and the asked time zone", async () => {
    const { wh } = await place();
    const check = (
      await user.request({ method: 'POST', url: '/api/checks', payload: { warehouse_id: wh.id } })
    ).json() as CheckDto;
    const started = new Date(check.started_at);
    const pdfOf = async () =>
      pdfText(
        (await user.request({ method: 'GET', url: `/api/checks/${check.id}/report.pdf?tz=Asia/Tokyo` }))
          .rawPayload,
      );
    const inTokyo = (locale: string) =>
      new Intl.DateTimeFormat(locale, {
        timeZone: 'Asia/Tokyo',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      }).format(started);

    expect(await pdfOf()).toContain(`${inTokyo('en-US')}`);
    const changed = await user.request({
      method: 'PATCH',
      url: '/api/company',
      payload: { locale: 'de-DE' },
    });
    expect(changed.statusCode).toBe(200);
    const german = await pdfOf();
    // 28.11.2026, not 11/28/2026
    expect(german).toContain(inTokyo('de-DE'));
    expect(german).toMatch(/\d{2}\.\d{2}\.\d{4}/);
    expect(german).toContain('(Asia/Tokyo)');
  });
});
