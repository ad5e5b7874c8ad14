import { describe, expect, it } from 'vitest';
import type { AccountDto, NotBilledOrderDto } from '@domain/schemas/billing.schema';
import { BILL_TO_BLANK } from '@domain/schemas/billing.schema';
import { dayOf, isoOf } from '@domain/billing/days';
import { buildVault, buildWarehouse } from '../../factories';
import { signIn, type SignedIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';

const errorsOf = (res: { json(): unknown }) => (res.json() as { errors: string[] }).errors;

describe.each(testEngines())('opening and editing storage accounts on %s', (engine) => {
  const { ctx } = useTestApp(engine);
  const db = () => ctx.database.db;
  const post = (who: SignedIn, url: string, payload: object) => who.request({ method: 'POST', url, payload });

  /** A company writing days the German way, with an order of one vault moved in on `day`. */
  async function germanCompanyWithOrder(day: string) {
    const who = await signIn(ctx);
    expect(
      (await who.request({ method: 'PATCH', url: '/api/company', payload: { locale: 'de-DE' } })).statusCode,
    ).toBe(200);
    const wh = await buildWarehouse(db(), { companyId: who.companyId, rows: 1, cols: 1, fieldCapacity: 3 });
    const vault = await buildVault(db(), {
      companyId: who.companyId,
      fieldId: wh.field('A1').id,
      customerName: 'HANS',
      orderName: 'ORD-H',
      name: 'ORD-H-1',
    });
    await db()
      .updateTable('vaults')
      .set({ created_at: `${day}T12:00:00.000Z` })
      .where('id', '=', vault.id)
      .execute();
    const notBilled = (
      await who.request({ method: 'GET', url: '/api/storage-accounts/not-billed' })
    ).json() as NotBilledOrderDto[];
    return { who, orderId: notBilled.find((o) => o.order_name === 'ORD-H')!.order_id };
  }

  const sitTerms = { kind: 'sit', sit_authorization: 'AUTH-1', sit_days_allowed: 3000 };
  const moveInRefusal =
    'sit_start: SIT cannot start before the units moved in on 05.03.2026. Choose that day or a later one.';

  it('refuses a SIT start before the units moved in, naming the move-in as the company writes days', async () => {
    const { who, orderId } = await germanCompanyWithOrder('2026-03-05');
    const early = await post(who, '/api/storage-accounts', {
      order_ids: [orderId],
      ...sitTerms,
      sit_start: '2026-03-04',
    });
    expect(early.statusCode).toBe(400);
    expect(errorsOf(early)).toEqual([moveInRefusal]);
    // nothing was opened: the order is still not billed
    const notBilled = (
      await who.request({ method: 'GET', url: '/api/storage-accounts/not-billed' })
    ).json() as NotBilledOrderDto[];
    expect(notBilled.map((o) => o.order_id)).toContain(orderId);

    // the move-in day itself is a good start
    const opened = await post(who, '/api/storage-accounts', {
      order_ids: [orderId],
      ...sitTerms,
      sit_start: '2026-03-05',
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const account = opened.json() as AccountDto;
    expect(account).toMatchObject({ kind: 'sit', sit_start: '2026-03-05', bill_to_name: 'HANS' });

    // an edit may not move the start before the move-in either; one that keeps the start saves
    const patch = (payload: object) =>
      who.request({ method: 'PATCH', url: `/api/storage-accounts/${account.id}`, payload });
    const moved = await patch({ ...sitTerms, sit_start: '2026-02-01', version: account.version });
    expect(moved.statusCode).toBe(400);
    expect(errorsOf(moved)).toEqual([moveInRefusal]);
    const kept = await patch({
      ...sitTerms,
      sit_start: '2026-03-05',
      note: 'Call first',
      version: account.version,
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toMatchObject({ note: 'Call first', sit_start: '2026-03-05' });
  });

  it('refuses a blank Bill to on a SIT and a Permanent account, and bills the customer when it is left out', async () => {
    const { who, orderId } = await germanCompanyWithOrder('2026-03-05');
    for (const terms of [{ ...sitTerms, sit_start: '2026-03-05' }, { kind: 'permanent' }]) {
      for (const blank of ['', '   ']) {
        const res = await post(who, '/api/storage-accounts', {
          order_ids: [orderId],
          ...terms,
          bill_to_name: blank,
        });
        expect(res.statusCode, `${terms.kind} ${JSON.stringify(blank)}`).toBe(400);
        expect(errorsOf(res)).toEqual([`bill_to_name: ${BILL_TO_BLANK}`]);
      }
    }
    const opened = await post(who, '/api/storage-accounts', { order_ids: [orderId], kind: 'permanent' });
    expect(opened.statusCode, opened.body).toBe(201);
    const account = opened.json() as AccountDto;
    expect(account.bill_to_name).toBe('HANS');

    // an edit may not blank it either
    const blanked = await who.request({
      method: 'PATCH',
      url: `/api/storage-accounts/${account.id}`,
      payload: { kind: 'permanent', bill_to_name: ' ', version: account.version },
    });
    expect(blanked.statusCode).toBe(400);
    expect(errorsOf(blanked)).toEqual([`bill_to_name: ${BILL_TO_BLANK}`]);
  });

  it("keeps a converted account's SIT terms when its Permanent terms are edited", async () => {
    const start = isoOf(dayOf(new Date().toISOString()) - 40);
    const { who, orderId } = await germanCompanyWithOrder(start);
    const sit = {
      kind: 'sit',
      sit_authorization: 'AUTH-7',
      sit_payer: 'agency',
      agency_name: 'Atlas Relocation',
      agency_reference: 'ATL-1',
      sit_start: start,
      sit_days_allowed: 10,
    };
    const opened = await post(who, '/api/storage-accounts', { order_ids: [orderId], ...sit });
    expect(opened.statusCode, opened.body).toBe(201);
    // its SIT ended 30 days ago: it is Permanent now, and the agency still pays the days before
    const read = async () =>
      (
        await who.request({ method: 'GET', url: `/api/storage-accounts/${opened.json<AccountDto>().id}` })
      ).json<AccountDto>();
    const converted = await read();
    expect(converted).toMatchObject({ kind: 'permanent', converted_on: isoOf(dayOf(start) + 10) });

    // the edit form sends a Permanent account's terms: the bill-to changes, the SIT it had stays
    const edited = await who.request({
      method: 'PATCH',
      url: `/api/storage-accounts/${converted.id}`,
      payload: { kind: 'permanent', bill_to_name: 'Atlas Billing Office', version: converted.version },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const { kind: _kind, ...sitTermsKept } = sit;
    expect(await read()).toMatchObject({
      ...sitTermsKept,
      kind: 'permanent',
      converted_on: converted.converted_on,
      bill_to_name: 'Atlas Billing Office',
    });
    expect((await read()).history[0]).toMatchObject({ kind: 'edited', detail: 'Changed bill-to name.' });
  });
});
