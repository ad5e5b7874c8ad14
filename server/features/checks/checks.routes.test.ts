import { describe, expect, it } from 'vitest';
import type { CheckDto, CheckScanAnswer } from '@domain/schemas/check.schema';
import type { VaultDto } from '@domain/schemas/warehouse.schema';
import { buildAccount, buildStagedVault, buildVault, buildWarehouse } from '../../factories';
import { type SignedIn, signIn, startTestApp, testEngines } from '../../test/test-app';
import { exportCompany, importCompany } from '../../transfer/company-transfer';
import { useTestApp } from '../../test/use-test-app';
import {
  ALREADY_RESOLVED,
  CHECK_FINISHED,
  CHECK_NOT_FINISHED,
  FIELDS_NOT_IN_WAREHOUSE,
  NOT_MISSING,
  NOT_ON_CHECK,
  SCAN_FIELD_FIRST,
  alreadyFoundIn,
  fieldNotInCheck,
} from './checks.service';
import { pdfText } from '../../test/pdf-text';

describe.each(testEngines())('warehouse checks on %s', (engine) => {
  const { ctx, user, other } = useTestApp(engine);
  const db = () => ctx.database.db;
  let counter = 0;

  const start = (as: SignedIn, payload: object) =>
    as.request({ method: 'POST', url: '/api/checks', payload });
  const scan = (as: SignedIn, checkId: number, text: string, fieldId?: number) =>
    as.request({
      method: 'POST',
      url: `/api/checks/${checkId}/scans`,
      payload: fieldId === undefined ? { text } : { text, field_id: fieldId },
    });
  const resolve = (as: SignedIn, checkId: number, vaultId: number, action: string) =>
    as.request({
      method: 'POST',
      url: `/api/checks/${checkId}/resolve`,
      payload: { vault_id: vaultId, action },
    });
  const labelLink = async (vaultId: number) => {
    const row = await db()
      .selectFrom('vaults')
      .select('label_code')
      .where('id', '=', vaultId)
      .executeTakeFirstOrThrow();
    return `https://wm.example.test/v/${row.label_code!}`;
  };
  const vaultOf = async (id: number) =>
    (await user.request({ method: 'GET', url: `/api/vaults/${id}` })).json() as VaultDto;

  /** A1: two vaults; B1: one; A2 (not checked): one; and a staged vault. */
  async function scene() {
    counter += 1;
    const wh = await buildWarehouse(db(), {
      companyId: user.companyId,
      name: `Check ${engine} ${counter}`,
      rows: 2,
      cols: 2,
      fieldCapacity: 3,
    });
    const put = (field: string, name: string) =>
      buildVault(db(), {
        companyId: user.companyId,
        fieldId: wh.field(field).id,
        name: `${name}-${counter}`,
      });
    const a1 = [await put('A1', 'LOW'), await put('A1', 'TOP')];
    const b1 = await put('B1', 'BEE');
    const a2 = await put('A2', 'STRAY');
    const staged = await buildStagedVault(db(), { companyId: user.companyId, name: `STAGED-${counter}` });
    return { wh, a1, b1, a2, staged };
  }

  it('starts a check of some fields with what stands in them as expected', async () => {
    const { wh, a1, b1 } = await scene();
    const res = await start(user, { warehouse_id: wh.id, field_ids: [wh.field('A1').id, wh.field('B1').id] });
    expect(res.statusCode).toBe(201);
    const check = res.json() as CheckDto;
    // nothing is missing before anything was scanned: the fields are not checked yet
    expect(
      check.fields.map((f) => [
        f.name,
        f.expected,
        f.checked,
        f.missing.length,
        f.not_checked.map((v) => v.id),
      ]),
    ).toEqual([
      ['A1', 2, false, 0, a1.map((v) => v.id)],
      ['B1', 1, false, 0, [b1.id]],
    ]);
    expect(check.checked_count).toBe(0);
    expect(check.finished_at).toBeNull();
    const list = (await user.request({ method: 'GET', url: '/api/checks' })).json() as { id: number }[];
    expect(list[0]!.id).toBe(check.id);
    // the whole warehouse when no fields are named
    const whole = (await start(user, { warehouse_id: wh.id })).json() as CheckDto;
    expect(whole.fields.map((f) => f.name)).toEqual(['A1', 'A2', 'B1', 'B2']);
  });

  it('refuses a check of fields of another warehouse, of nothing, or of a warehouse it cannot see', async () => {
    const { wh } = await scene();
    const elsewhere = await buildWarehouse(db(), { companyId: user.companyId, rows: 1, cols: 1 });
    const mixed = await start(user, { warehouse_id: wh.id, field_ids: [elsewhere.field('A1').id] });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json()).toEqual({ errors: [FIELDS_NOT_IN_WAREHOUSE] });
    expect((await start(user, { warehouse_id: wh.id, field_ids: [] })).statusCode).toBe(400);
    expect((await start(user, { warehouse_id: 'x' })).statusCode).toBe(400);
    expect((await start(other, { warehouse_id: wh.id })).statusCode).toBe(404);
  });

  it('counts scans per field: found, unexpected, the same vault once, and refuses what does not fit', async () => {
    const { wh, a1, a2, staged } = await scene();
    const check = (
      await start(user, { warehouse_id: wh.id, field_ids: [wh.field('A1').id, wh.field('B1').id] })
    ).json() as CheckDto;
    const A1 = wh.field('A1').id;

    const noField = await scan(user, check.id, a1[0]!.name!);
    expect(noField.statusCode).toBe(400);
    expect(noField.json()).toEqual({ errors: [SCAN_FIELD_FIRST] });

    const opened = await scan(user, check.id, 'A1');
    expect(opened.statusCode).toBe(200);
    const openedAnswer = opened.json() as CheckScanAnswer;
    expect(openedAnswer).toMatchObject({ kind: 'field', field_id: A1, field_name: 'A1' });
    expect(openedAnswer.check.fields.find((f) => f.name === 'A1')!.opened_by).toBeTruthy();

    const notCovered = await scan(user, check.id, 'A2');
    expect(notCovered.statusCode).toBe(400);
    expect(notCovered.json()).toEqual({ errors: [fieldNotInCheck('A2')] });

    // by its label's QR link, then by its number again: counted once
    const first = (await scan(user, check.id, await labelLink(a1[0]!.id), A1)).json() as CheckScanAnswer;
    expect(first).toMatchObject({ kind: 'vault', result: 'found', vault: { id: a1[0]!.id } });
    const again = (await scan(user, check.id, a1[0]!.name!, A1)).json() as CheckScanAnswer;
    expect(again).toMatchObject({ kind: 'vault', result: 'again' });
    const stray = (await scan(user, check.id, a2.name!, A1)).json() as CheckScanAnswer;
    expect(stray).toMatchObject({ result: 'unexpected', vault: { id: a2.id, expected_field_id: null } });
    const fromStage = (await scan(user, check.id, staged.name!, A1)).json() as Extract<
      CheckScanAnswer,
      { kind: 'vault' }
    >;
    expect(fromStage.result).toBe('unexpected');

    const fieldA1 = fromStage.check.fields.find((f) => f.name === 'A1')!;
    expect(fieldA1.found.map((v) => v.id)).toEqual([a1[0]!.id]);
    expect(fieldA1.missing.map((v) => v.id)).toEqual([a1[1]!.id]);
    expect(fieldA1.unexpected.map((v) => v.id).sort()).toEqual([a2.id, staged.id].sort());

    // found in A1 already: not counted again in B1
    const twice = await scan(user, check.id, a2.name!, wh.field('B1').id);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ errors: [alreadyFoundIn(a2.name!, 'A1')] });
    expect((await scan(user, check.id, 'NO-SUCH-VAULT-ANYWHERE', A1)).statusCode).toBe(404);
    expect((await scan(user, check.id, '', A1)).statusCode).toBe(400);
    expect((await scan(other, check.id, 'A1')).statusCode).toBe(404);
  });

  it('counts a vault with no number by hand, and reads a number used twice as the one expected in the field', async () => {
    const { wh, a1, b1, a2 } = await scene();
    const [A1, B1] = [wh.field('A1').id, wh.field('B1').id];
    const placeholder = await buildVault(db(), {
      companyId: user.companyId,
      fieldId: B1,
      customerName: 'EMPTY LIFTVAN',
      type: 'liftvan',
    });
    expect(placeholder.name).toBeNull();
    // B1 also holds a vault numbered like A1's lower one
    const twin = await buildVault(db(), { companyId: user.companyId, fieldId: B1, name: a1[0]!.name! });
    const check = (await start(user, { warehouse_id: wh.id, field_ids: [A1, B1] })).json() as CheckDto;
    const byHand = (as: SignedIn, payload: object) =>
      as.request({ method: 'POST', url: `/api/checks/${check.id}/scans`, payload });

    expect((await scan(user, check.id, a1[0]!.name!, B1)).json()).toMatchObject({
      result: 'found',
      vault: { id: twin.id },
    });
    expect((await scan(user, check.id, a1[0]!.name!, A1)).json()).toMatchObject({
      result: 'found',
      vault: { id: a1[0]!.id },
    });

    const found = await byHand(user, { vault_id: placeholder.id, field_id: B1 });
    expect(found.statusCode).toBe(200);
    const answer = found.json() as Extract<CheckScanAnswer, { kind: 'vault' }>;
    expect(answer).toMatchObject({ kind: 'vault', result: 'found', vault: { id: placeholder.id } });
    // B1's own vault is all that is left to find there
    expect(answer.check.fields.find((f) => f.id === B1)!.missing.map((v) => v.id)).toEqual([b1.id]);
    // only a vault the check holds, of this company; a text or a vault, not both or neither
    const notOnCheck = await byHand(user, { vault_id: a2.id, field_id: B1 });
    expect(notOnCheck.statusCode).toBe(404);
    expect(notOnCheck.json()).toEqual({ errors: [NOT_ON_CHECK] });
    expect((await byHand(other, { vault_id: placeholder.id, field_id: B1 })).statusCode).toBe(404);
    const both = await byHand(user, { vault_id: placeholder.id, text: 'X', field_id: B1 });
    expect(both.statusCode).toBe(400);
    expect((await byHand(user, { field_id: B1 })).json()).toEqual({
      errors: ['text: Scan a label or type what it says.'],
    });
  });

  it("carries each vault's label code, so a tablet can count a label scanned offline; null for a vault without one", async () => {
    const { wh, a1, b1, staged } = await scene();
    // a vault imported from an older file has no label code until its label is first printed
    await db().updateTable('vaults').set({ label_code: null }).where('id', '=', b1.id).execute();
    const codes = new Map(
      (
        await db()
          .selectFrom('vaults')
          .select(['id', 'label_code'])
          .where('id', 'in', [...a1.map((v) => v.id), b1.id, staged.id])
          .execute()
      ).map((v) => [v.id, v.label_code]),
    );
    const check = (
      await start(user, { warehouse_id: wh.id, field_ids: [wh.field('A1').id, wh.field('B1').id] })
    ).json() as CheckDto;
    const read = (await user.request({ method: 'GET', url: `/api/checks/${check.id}` })).json() as CheckDto;
    const shown = read.fields.flatMap((f) => f.not_checked.map((v) => [v.id, v.label_code]));
    expect(shown).toEqual([...a1.map((v) => [v.id, codes.get(v.id)]), [b1.id, null]]);
    for (const v of a1) expect(codes.get(v.id)).toMatch(/^[A-Za-z0-9_-]{16}$/);
    // a vault met during the check (here one from the stage) carries its code too, in the scan's answer
    await scan(user, check.id, 'A1');
    const met = (await scan(user, check.id, staged.name!, wh.field('A1').id)).json() as Extract<
      CheckScanAnswer,
      { kind: 'vault' }
    >;
    expect(met.vault.label_code).toBe(codes.get(staged.id));
    expect(met.check.fields.find((f) => f.name === 'A1')!.unexpected.map((v) => v.label_code)).toEqual([
      codes.get(staged.id),
    ]);
  });

  it('counts a vault once when two people scan it at the same moment, and both see the same check', async () => {
    const { wh, a1, b1 } = await scene();
    const colleague = await signIn(
      ctx,
      await buildAccount(db(), { company: user.companyName, role: 'floor' }),
    );
    const check = (await start(user, { warehouse_id: wh.id })).json() as CheckDto;
    const A1 = wh.field('A1').id;
    const B1 = wh.field('B1').id;
    const answers = await Promise.all([
      scan(user, check.id, a1[0]!.name!, A1),
      scan(colleague, check.id, a1[0]!.name!, A1),
      scan(colleague, check.id, b1.name!, B1),
      scan(user, check.id, a1[1]!.name!, A1),
      scan(user, check.id, b1.name!, B1),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const results = answers.map((r) => (r.json() as { result?: string }).result);
    expect([results[0], results[1]].sort()).toEqual(['again', 'found']);
    expect([results[2], results[4]].sort()).toEqual(['again', 'found']);
    const seen = (
      await colleague.request({ method: 'GET', url: `/api/checks/${check.id}` })
    ).json() as CheckDto;
    expect(seen.fields.find((f) => f.name === 'A1')!.found).toHaveLength(2);
    expect(seen.fields.find((f) => f.name === 'B1')!.found).toHaveLength(1);
    const rows = await db()
      .selectFrom('warehouse_check_vaults')
      .select('vault_id')
      .where('check_id', '=', check.id)
      .where('found_field_id', 'is not', null)
      .execute();
    expect(rows).toHaveLength(3);
    const events = await db()
      .selectFrom('events')
      .select('id')
      .where('kind', '=', 'check.scanned')
      .where('entity_id', '=', check.id)
      .execute();
    expect(events).toHaveLength(3);
  });

  it('keeps every scan answered before a concurrent finish, refuses the rest, and resolves a vault once', async () => {
    const { wh, a1, b1 } = await scene();
    const check = (await start(user, { warehouse_id: wh.id })).json() as CheckDto;
    const A1 = wh.field('A1').id;
    await scan(user, check.id, 'A1');
    const answers = await Promise.all([
      scan(user, check.id, a1[0]!.name!, A1),
      user.request({ method: 'POST', url: `/api/checks/${check.id}/finish` }),
      scan(user, check.id, a1[1]!.name!, A1),
      scan(user, check.id, b1.name!, A1),
    ]);
    expect(answers[1]!.statusCode).toBe(200);
    const report = (await user.request({ method: 'GET', url: `/api/checks/${check.id}` })).json() as CheckDto;
    const foundInA1 = report.fields
      .find((f) => f.name === 'A1')!
      .found.concat(report.fields.find((f) => f.name === 'A1')!.unexpected)
      .map((v) => v.id);
    const scanned = [a1[0]!.id, a1[1]!.id, b1.id];
    for (const [index, res] of [answers[0]!, answers[2]!, answers[3]!].entries()) {
      if (res.statusCode === 200) expect(foundInA1).toContain(scanned[index]);
      else {
        expect([400, 409]).toContain(res.statusCode);
        expect(res.json()).toEqual({ errors: [CHECK_FINISHED] });
        expect(foundInA1).not.toContain(scanned[index]);
      }
    }
    // b1 (from B1, found in A1) or a vault of A1 not scanned is a discrepancy: two people resolve the same one at once
    const a1Field = report.fields.find((f) => f.name === 'A1')!;
    const missing = a1Field.missing.find((v) => v.found_field_id === null);
    const open = missing ?? a1Field.unexpected[0]!;
    const action = missing ? 'searched' : 'moved';
    const both = await Promise.all([
      resolve(user, check.id, open.id, action),
      resolve(user, check.id, open.id, action),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it('finishes once into a report with every discrepancy, as CSV and PDF, kept in the history', async () => {
    const { wh, a1, a2 } = await scene();
    const check = (
      await start(user, { warehouse_id: wh.id, field_ids: [wh.field('A1').id] })
    ).json() as CheckDto;
    const A1 = wh.field('A1').id;
    await scan(user, check.id, 'A1');
    await scan(user, check.id, a1[1]!.name!, A1);
    await scan(user, check.id, a2.name!, A1);
    expect((await resolve(user, check.id, a1[0]!.id, 'searched')).json()).toEqual({
      errors: [CHECK_NOT_FINISHED],
    });

    const finished = await user.request({ method: 'POST', url: `/api/checks/${check.id}/finish` });
    expect(finished.statusCode).toBe(200);
    const report = finished.json() as CheckDto;
    expect(report.finished_by).toBeTruthy();
    expect(report.finished_at).toBeTruthy();
    expect(report.discrepancies).toBe(2);
    expect(report.unresolved).toBe(2);
    const again = await user.request({ method: 'POST', url: `/api/checks/${check.id}/finish` });
    expect(again.statusCode).toBe(409);
    const late = await scan(user, check.id, a1[0]!.name!, A1);
    expect(late.statusCode).toBe(400);
    expect(late.json()).toEqual({ errors: [CHECK_FINISHED] });

    const csv = await user.request({ method: 'GET', url: `/api/checks/${check.id}/report.csv` });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toContain('Resolution');
    expect(lines).toHaveLength(1 + 1 + 2);
    const missingLine = lines.find((l) => l.includes(',missing,'))!;
    expect(missingLine).toContain(a1[0]!.name!);
    expect(missingLine).toContain(',open,');
    expect(lines.find((l) => l.includes(',unexpected,'))).toContain(a2.name!);
    expect(lines.find((l) => l.includes(',field,'))).toContain(',A1,2,1,1,1,');

    const pdf = await user.request({ method: 'GET', url: `/api/checks/${check.id}/report.pdf` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain(`Warehouse check ${check.id}: ${wh.name}`);
    expect(text).toContain('A1: expected 2, found 1, missing 1, unexpected 1');
    expect(text).toMatch(new RegExp(`MISSING ${a1[0]!.name!}.*expected in A1, not found`));
    expect(text).toMatch(new RegExp(`UNEXPECTED ${a2.name!}.*found in A1`));

    const history = await db()
      .selectFrom('events')
      .select(['kind', 'payload', 'warehouse_name'])
      .where('entity_type', '=', 'check')
      .where('entity_id', '=', check.id)
      .where('kind', '=', 'check.finished')
      .executeTakeFirstOrThrow();
    expect(history.warehouse_name).toBe(wh.name);
    expect(JSON.parse(history.payload!)).toEqual({
      fields: ['A1'],
      notChecked: [],
      found: 1,
      missing: 1,
      unexpected: 1,
    });
    const activity = await user.request({ method: 'GET', url: '/api/activity?kind=check' });
    expect(activity.body).toContain('check.finished');
  });

  it('resolves each discrepancy in one step: moves the unexpected vault in, marks the missing one searched', async () => {
    const { wh, a1, a2 } = await scene();
    const check = (
      await start(user, { warehouse_id: wh.id, field_ids: [wh.field('A1').id] })
    ).json() as CheckDto;
    const A1 = wh.field('A1').id;
    await scan(user, check.id, a1[1]!.name!, A1);
    await scan(user, check.id, a2.name!, A1);
    await user.request({ method: 'POST', url: `/api/checks/${check.id}/finish` });

    const moved = await resolve(user, check.id, a2.id, 'moved');
    expect(moved.statusCode).toBe(200);
    expect((await vaultOf(a2.id)).field_id).toBe(A1);
    expect((await resolve(user, check.id, a2.id, 'moved')).json()).toEqual({ errors: [ALREADY_RESOLVED] });
    expect((await resolve(user, check.id, a1[1]!.id, 'searched')).statusCode).toBe(400);
    expect((await resolve(user, check.id, a2.id, 'searched')).json()).toEqual({ errors: [NOT_MISSING] });

    const searched = await resolve(user, check.id, a1[0]!.id, 'searched');
    expect(searched.statusCode).toBe(200);
    const report = searched.json() as CheckDto;
    expect(report.unresolved).toBe(0);
    const field = report.fields[0]!;
    expect(field.missing[0]).toMatchObject({ id: a1[0]!.id, resolution: 'searched' });
    expect(field.unexpected[0]).toMatchObject({ id: a2.id, resolution: 'moved' });
    const csv = (await user.request({ method: 'GET', url: `/api/checks/${check.id}/report.csv` })).body;
    expect(csv).toContain('searched for');
    expect(csv).toContain('moved into A1');
    expect((await resolve(other, check.id, a2.id, 'moved')).statusCode).toBe(404);
  });

  it('refuses a move into a full field clearly and leaves the discrepancy open', async () => {
    counter += 1;
    const wh = await buildWarehouse(db(), { companyId: user.companyId, rows: 1, cols: 2, fieldCapacity: 1 });
    await buildVault(db(), {
      companyId: user.companyId,
      fieldId: wh.field('A1').id,
      name: `FULL-${counter}`,
    });
    const stray = await buildVault(db(), {
      companyId: user.companyId,
      fieldId: wh.field('B1').id,
      name: `OUT-${counter}`,
    });
    const check = (
      await start(user, { warehouse_id: wh.id, field_ids: [wh.field('A1').id] })
    ).json() as CheckDto;
    await scan(user, check.id, stray.name!, wh.field('A1').id);
    await user.request({ method: 'POST', url: `/api/checks/${check.id}/finish` });
    const refused = await resolve(user, check.id, stray.id, 'moved');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ errors: ['Field A1 is full.'] });
    expect((await vaultOf(stray.id)).field_id).toBe(wh.field('B1').id);
    const report = (await user.request({ method: 'GET', url: `/api/checks/${check.id}` })).json() as CheckDto;
    expect(report.fields[0]!.unexpected[0]!.resolution).toBeNull();
  });

  it('lets a viewer read a check and its report, not run one', async () => {
    const { wh } = await scene();
    const viewer = await signIn(ctx, await buildAccount(db(), { company: user.companyName, role: 'viewer' }));
    const check = (await start(user, { warehouse_id: wh.id })).json() as CheckDto;
    expect((await viewer.request({ method: 'GET', url: `/api/checks/${check.id}` })).statusCode).toBe(200);
    expect(
      (await viewer.request({ method: 'GET', url: `/api/checks/${check.id}/report.pdf` })).statusCode,
    ).toBe(200);
    expect((await scan(viewer, check.id, 'A1')).statusCode).toBe(403);
    expect((await start(viewer, { warehouse_id: wh.id })).statusCode).toBe(403);
    expect((await other.request({ method: 'GET', url: `/api/checks/${check.id}` })).statusCode).toBe(404);
  });

  it('travels with the company export: checks, covered fields and vault rows come back the same', async () => {
    const exported = await exportCompany(db(), user.companyName);
    expect(exported.tables.warehouse_checks.length).toBeGreaterThan(0);
    expect(exported.tables.warehouse_check_vaults.some((r) => r.resolution === 'moved')).toBe(true);
    const target = await startTestApp(engine);
    try {
      await importCompany(target.database.db, exported);
      const again = await exportCompany(target.database.db, user.companyName);
      for (const table of ['warehouse_checks', 'warehouse_check_fields', 'warehouse_check_vaults'] as const)
        expect(again.tables[table]).toEqual(exported.tables[table]);
    } finally {
      await target.close();
    }
  });
});
