import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ActivityPageDto } from '@domain/schemas/activity.schema';
import type { CheckDto, CheckSummaryDto } from '@domain/schemas/check.schema';
import type { MemberLinkDto, TeamDto } from '@domain/schemas/team.schema';
import { buildAccount, buildPallet, buildRack, buildVault, buildWarehouse } from '../../factories';
import { signIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { decodeQrIn, pdfInfo, renderPage } from '../labels/pdf-render';
import { ALREADY_A_MEMBER, CANNOT_INVITE } from '../team/team.service';
import { CHECK_CANCELLED, CHECK_WAREHOUSE_DELETED } from './checks.service';
import { pdfText } from '../../test/pdf-text';

// Issue 34: history and check reports that survive a deleted warehouse, honest checks, honest team data.
describe.each(testEngines())('records you can trust on %s', (engine) => {
  const { ctx, user, other } = useTestApp(engine, {
    env: { PUBLIC_URL: 'https://wm.example.test/', REPORT_TIME_ZONE: 'UTC' },
  });
  const db = () => ctx.database.db;
  let counter = 0;

  async function scene() {
    counter += 1;
    const wh = await buildWarehouse(db(), {
      companyId: user.companyId,
      name: `Kept ${engine} ${counter}`,
      rows: 1,
      cols: 2,
      fieldCapacity: 3,
    });
    const a1 = await buildVault(db(), {
      companyId: user.companyId,
      fieldId: wh.field('A1').id,
      name: `42420${counter}1`,
    });
    const b1 = await buildVault(db(), {
      companyId: user.companyId,
      fieldId: wh.field('B1').id,
      name: `42420${counter}2`,
    });
    return { wh, a1, b1 };
  }
  const get = (url: string) => user.request({ method: 'GET', url });
  const post = (url: string, payload?: object) =>
    user.request({ method: 'POST', url, ...(payload && { payload }) });

  it('deleting a warehouse records where each vault and pallet was, and keeps the warehouse in the filter', async () => {
    const { wh, a1 } = await scene();
    const rack = await buildRack(db(), { companyId: user.companyId, warehouseId: wh.id, name: 'R9', x: 30 });
    await buildPallet(db(), {
      companyId: user.companyId,
      shelfId: rack.shelfIds[0]!,
      customer: 'PALLET OWNER',
      slotIndex: 0,
      palletNumber: `P-${counter}`,
    });
    expect((await user.request({ method: 'DELETE', url: `/api/warehouse/${wh.id}` })).statusCode).toBe(200);

    const found = (await get(`/api/activity?q=${a1.name!}`)).json() as ActivityPageDto;
    expect(found.items.map((i) => i.kind)).toEqual(['vault.removed', 'vault.added']);
    expect(found.items[0]!.details).toMatchObject({
      before: { warehouse: wh.name, field: 'A1', position: a1.position },
      after: null,
    });
    expect(found.items[0]!.warehouse).toBe(wh.name);
    const timeline = (await get(`/api/vaults/${a1.id}/history`)).json() as { kind: string }[];
    expect(timeline.map((i) => i.kind)).toEqual(['vault.removed', 'vault.added']);

    const pallet = (await get(`/api/activity?q=P-${counter}`)).json() as ActivityPageDto;
    expect(pallet.items[0]).toMatchObject({
      kind: 'pallet.removed',
      details: { before: { rack: 'R9', shelf: 1 } },
    });

    const deleted = (
      await get(`/api/activity?kind=warehouse.deleted&warehouse=${wh.id}`)
    ).json() as ActivityPageDto;
    expect(deleted.items[0]!.details).toMatchObject({
      name: wh.name,
      fields: 2,
      vaults: [{ number: a1.name, field: 'A1', position: a1.position }, { field: 'B1' }],
      pallets: [{ number: `P-${counter}`, rack: 'R9', shelf: 1 }],
    });
    expect(deleted.warehouses).toContainEqual({ id: wh.id, name: wh.name, deleted: true });
    // another company's list never shows it
    const theirs = (await other.request({ method: 'GET', url: '/api/activity' })).json() as ActivityPageDto;
    expect(theirs.warehouses.map((w) => w.id)).not.toContain(wh.id);
  });

  it('keeps a check report after its warehouse goes, and refuses changes to it', async () => {
    const { wh, a1 } = await scene();
    const check = (await post('/api/checks', { warehouse_id: wh.id })).json() as CheckDto;
    await post(`/api/checks/${check.id}/scans`, { text: 'A1' });
    await post(`/api/checks/${check.id}/scans`, { text: a1.name!, field_id: wh.field('A1').id });
    expect((await post(`/api/checks/${check.id}/finish`)).statusCode).toBe(200);
    await user.request({ method: 'DELETE', url: `/api/warehouse/${wh.id}` });

    const kept = await get(`/api/checks/${check.id}`);
    expect(kept.statusCode).toBe(200);
    const report = kept.json() as CheckDto;
    expect(report.warehouse_name).toBe(wh.name);
    expect(report.warehouse_deleted_at).toBeTruthy();
    expect(report.fields.find((f) => f.name === 'A1')!.found.map((v) => [v.id, v.label_code])).toEqual([
      [a1.id, null],
    ]);
    // a report kept before vaults carried their label code answers the same
    const stored = await db()
      .selectFrom('check_reports')
      .select('report')
      .where('check_id', '=', check.id)
      .executeTakeFirstOrThrow();
    expect(stored.report).toContain('"label_code":');
    await db()
      .updateTable('check_reports')
      .set({ report: stored.report.replace(/"label_code":(null|"[^"]*"),/g, '') })
      .where('check_id', '=', check.id)
      .execute();
    const older = await get(`/api/checks/${check.id}`);
    expect(older.statusCode).toBe(200);
    expect((older.json() as CheckDto).fields.find((f) => f.name === 'A1')!.found[0]!.label_code).toBeNull();
    expect((await get(`/api/checks/${check.id}/report.csv`)).statusCode).toBe(200);
    const pdf = await get(`/api/checks/${check.id}/report.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(await pdfText(pdf.rawPayload)).toContain('The warehouse was deleted');
    const list = (await get('/api/checks')).json() as CheckSummaryDto[];
    expect(list.map((c) => c.id)).toContain(check.id);
    const resolve = await post(`/api/checks/${check.id}/resolve`, { vault_id: a1.id, action: 'searched' });
    expect(resolve.statusCode).toBe(409);
    expect(resolve.json()).toEqual({ errors: [CHECK_WAREHOUSE_DELETED] });
    // still no one else's
    expect((await other.request({ method: 'GET', url: `/api/checks/${check.id}` })).statusCode).toBe(404);
  });

  it('reports a field nobody opened as not checked, never missing, in the answer, the CSV and the PDF', async () => {
    const { wh, b1 } = await scene();
    const check = (await post('/api/checks', { warehouse_id: wh.id })).json() as CheckDto;
    expect(check.fields.every((f) => !f.checked && f.missing.length === 0)).toBe(true);
    await post(`/api/checks/${check.id}/scans`, { text: 'A1' });
    const report = (await post(`/api/checks/${check.id}/finish`)).json() as CheckDto;
    const B1 = report.fields.find((f) => f.name === 'B1')!;
    expect(B1).toMatchObject({ checked: false, missing: [] });
    expect(B1.not_checked.map((v) => v.id)).toEqual([b1.id]);
    // A1's vault is missing (A1 was checked); B1's is not
    expect(report.discrepancies).toBe(1);

    const csv = (await get(`/api/checks/${check.id}/report.csv`)).body.split('\r\n');
    expect(csv.find((l) => l.includes(b1.name!))).toContain(',not checked,B1,');
    expect(csv.filter((l) => l.includes(',missing,')).join()).not.toContain(b1.name!);
    expect(csv.find((l) => l.includes(',B1,') && l.includes('field'))).toContain('field not checked');
    const text = await pdfText((await get(`/api/checks/${check.id}/report.pdf?tz=Europe/Berlin`)).rawPayload);
    expect(text).toContain('B1: not checked');
    expect(text).not.toMatch(new RegExp(`MISSING ${b1.name!}`));
    // times in the browser's zone, named
    expect(text).toContain('(Europe/Berlin)');
    expect((await get(`/api/checks/${check.id}/report.pdf?tz=Nowhere/Atlantis`)).statusCode).toBe(400);
  });

  it('cancels an open check once, and recounts a field', async () => {
    const { wh, a1 } = await scene();
    const check = (await post('/api/checks', { warehouse_id: wh.id })).json() as CheckDto;
    const A1 = wh.field('A1').id;
    await post(`/api/checks/${check.id}/scans`, { text: 'A1' });
    await post(`/api/checks/${check.id}/scans`, { text: a1.name!, field_id: A1 });
    const recounted = await post(`/api/checks/${check.id}/fields/${A1}/recount`);
    expect(recounted.statusCode).toBe(200);
    const a1Field = (recounted.json() as CheckDto).fields.find((f) => f.name === 'A1')!;
    expect(a1Field).toMatchObject({ checked: false, found: [], missing: [] });
    expect(
      (await post(`/api/checks/${check.id}/fields/${other.companyId + 999999}/recount`)).statusCode,
    ).toBe(404);

    const cancelled = await post(`/api/checks/${check.id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect((cancelled.json() as CheckDto).cancelled_by).toBeTruthy();
    expect((await post(`/api/checks/${check.id}/cancel`)).statusCode).toBe(409);
    const late = await post(`/api/checks/${check.id}/scans`, { text: 'A1' });
    expect(late.json()).toEqual({ errors: [CHECK_CANCELLED] });
    expect((await post(`/api/checks/${check.id}/finish`)).statusCode).toBe(409);

    // every event of the check is filed under its warehouse
    const history = (await get(`/api/activity?kind=check&warehouse=${wh.id}`)).json() as ActivityPageDto;
    expect(history.items.map((i) => i.kind).sort()).toEqual([
      'check.cancelled',
      'check.field-opened',
      'check.field-recounted',
      'check.scanned',
      'check.started',
    ]);
  });

  it('an address of another company is refused exactly like any address that cannot be invited', async () => {
    const stranger = await buildAccount(db());
    const invite = (email: string) =>
      user.request({ method: 'POST', url: '/api/team/invites', payload: { email, role: 'floor' } });
    const theirs = await invite(stranger.email);
    // an address another company has invited (no account yet) answers the same
    const pending = `pending-${counter}-${engine}@example.test`;
    expect(
      (
        await other.request({
          method: 'POST',
          url: '/api/team/invites',
          payload: { email: pending, role: 'floor' },
        })
      ).statusCode,
    ).toBe(201);
    const invited = await invite(pending);
    expect([theirs.statusCode, theirs.body]).toEqual([409, JSON.stringify({ errors: [CANNOT_INVITE] })]);
    expect([invited.statusCode, invited.body]).toEqual([theirs.statusCode, theirs.body]);
    expect((await invite(user.email)).json()).toEqual({ errors: [ALREADY_A_MEMBER] });

    // a member who joined by invitation has signed in: the team page says when; links use PUBLIC_URL
    const email = `joined-${engine}-${Date.now()}@example.test`;
    const link = (await invite(email)).json() as MemberLinkDto;
    expect(link.url).toBe(`https://wm.example.test${link.path}`);
    const joined = await ctx.app.inject({
      method: 'POST',
      url: '/api/team/link/accept',
      payload: {
        token: link.path.split('#')[1],
        name: 'Joined Member',
        password: 'Correct-Horse-Battery-42',
      },
    });
    expect(joined.statusCode).toBe(200);
    const team = (await get('/api/team')).json() as TeamDto;
    expect(team.members.find((m) => m.email === email)!.lastSignInAt).toBeTruthy();
  });

  it('prints label QR codes that point at PUBLIC_URL', async () => {
    const { wh } = await scene();
    const res = await post('/api/labels/fields', {
      format: 'thermal-2x1',
      warehouseId: wh.id,
      from: 'A1',
      to: 'A1',
    });
    expect(res.statusCode).toBe(200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'public-url-'));
    const file = path.join(dir, 'field.pdf');
    fs.writeFileSync(file, res.rawPayload);
    const info = await pdfInfo(file);
    const page = await renderPage(file, 1, 300);
    const read = decodeQrIn(page, { x: 0, y: 0, width: info.width, height: info.height });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(read).toMatch(/^https:\/\/wm\.example\.test\//);
  });

  it('a second user of the other company still signs in (the fixture is sound)', async () => {
    expect((await signIn(ctx)).companyId).not.toBe(user.companyId);
  });
});
