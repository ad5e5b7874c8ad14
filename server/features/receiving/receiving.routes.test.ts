import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FIELD_FULL } from '@domain/rules/slots';
import type { ReceivedDto, ShipmentProposalDto } from '@domain/schemas/receiving.schema';
import { testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { buildVault, buildWarehouse, makeCouchbox } from '../../factories';
import { COUCHBOX_FIELD_ONLY } from '../vaults/vaults.service';

describe.each(testEngines())('receiving on %s', (engine) => {
  const { ctx, user, other } = useTestApp(engine);
  const db = () => ctx.database.db;
  const countVaults = async (companyId: number) =>
    Number(
      (
        await db()
          .selectFrom('vaults')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('company_id', '=', companyId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('proposes slots next to the customer and stores the shipment at the next free slots', async () => {
    const wh = await buildWarehouse(db(), { companyId: user.companyId, rows: 3, cols: 2, fieldCapacity: 3 });
    await buildVault(db(), {
      companyId: user.companyId,
      fieldId: wh.field('B2').id,
      customerName: 'ARRIVING',
    });
    const shipment = {
      customer_name: 'arriving',
      order_name: 'IN-1',
      vaults: Array.from({ length: 6 }, (_, i) => ({ type: 'vault', name: `IN-${i + 1}` })),
    };
    const res = await user.request({ method: 'POST', url: '/api/receiving/proposal', payload: shipment });
    expect(res.statusCode).toBe(200);
    const proposal = res.json() as ShipmentProposalDto;
    expect(proposal.unplaced).toEqual([]);
    // the two free slots by the customer's vault first; no field has room for the other four, so the one with the
    // most room takes three and the next field the last one
    expect(proposal.proposals.slice(0, 2).map((p) => [p.field_name, p.position])).toEqual([
      ['B2', 2],
      ['B2', 1],
    ]);
    expect(new Set(proposal.proposals.map((p) => p.field_name)).size).toBe(3);

    const store = await user.request({
      method: 'POST',
      url: '/api/receiving',
      payload: {
        ...shipment,
        vaults: shipment.vaults.map((v, i) => ({ ...v, field_id: proposal.proposals[i]!.field_id })),
      },
    });
    expect(store.statusCode).toBe(201);
    const received = store.json() as ReceivedDto;
    expect(received.vaults.map((v) => [v.name, v.field_name, v.position])).toEqual(
      proposal.proposals.map((p, i) => [`IN-${i + 1}`, p.field_name, p.position]),
    );
    const stored = await db()
      .selectFrom('vaults as v')
      .innerJoin('orders as o', 'o.id', 'v.order_id')
      .select('v.id')
      .where('o.name', '=', 'IN-1')
      .where('v.company_id', '=', user.companyId)
      .execute();
    expect(stored).toHaveLength(6);
  });

  it("applies a shipment sent again from a tablet's outbox once, and refuses it whole when its field filled meanwhile", async () => {
    // the tablet decided on A1 (two free slots) and B1 offline; its basis is the field of each unit
    const wh = await buildWarehouse(db(), { companyId: user.companyId, rows: 1, cols: 2, fieldCapacity: 3 });
    await buildVault(db(), { companyId: user.companyId, fieldId: wh.field('A1').id, customerName: 'OTHER' });
    const shipment = {
      customer_name: 'Dead Zone',
      order_name: 'DZ-1',
      vaults: [
        { type: 'vault', name: 'DZ-A', field_id: wh.field('A1').id },
        { type: 'vault', name: 'DZ-B', field_id: wh.field('A1').id },
        { type: 'vault', name: 'DZ-C', field_id: wh.field('B1').id },
      ],
    };
    const send = (key: string) =>
      user.request({
        method: 'POST',
        url: '/api/receiving',
        headers: { 'idempotency-key': key },
        payload: shipment,
      });

    // meanwhile a colleague filled A1: the whole shipment is refused with the field named, nothing is stored
    const filler = await buildVault(db(), { companyId: user.companyId, fieldId: wh.field('A1').id });
    const before = await countVaults(user.companyId);
    const key = crypto.randomUUID();
    const refused = await send(key);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ errors: [`${FIELD_FULL} (field A1)`] });
    expect(await countVaults(user.companyId)).toBe(before);

    // room again (the colleague's vault staged): Retry sends the same key, the server kept no refusal
    expect((await user.request({ method: 'POST', url: `/api/stage/vaults/${filler.id}` })).statusCode).toBe(
      200,
    );
    const first = await send(key);
    expect(first.statusCode).toBe(201);
    // the field's next free slots as the server finds them
    expect((first.json() as ReceivedDto).vaults.map((v) => [v.name, v.field_name, v.position])).toEqual([
      ['DZ-A', 'A1', 2],
      ['DZ-B', 'A1', 1],
      ['DZ-C', 'B1', 3],
    ]);
    // the answer was lost: the tablet sends it again and is given the first answer, nothing stored twice
    const again = await send(key);
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(await countVaults(user.companyId)).toBe(before + 3);
  });

  it("proposes the warehouse of the customer's full field before an emptier warehouse earlier in walking order", async () => {
    const first = await buildWarehouse(db(), {
      companyId: user.companyId,
      name: 'AAA Early Yard',
      rows: 1,
      cols: 2,
      fieldCapacity: 3,
    });
    const theirs = await buildWarehouse(db(), {
      companyId: user.companyId,
      name: 'ZZZ Late Yard',
      rows: 1,
      cols: 2,
      fieldCapacity: 3,
    });
    // the customer's only field is full: the proposal must still know of it and stay in its warehouse
    for (const customerName of ['FULL STACK OWNER', 'FULL STACK OWNER', 'SOMEONE ELSE'])
      await buildVault(db(), { companyId: user.companyId, fieldId: theirs.field('A1').id, customerName });
    const res = await user.request({
      method: 'POST',
      url: '/api/receiving/proposal',
      payload: {
        customer_name: 'Full Stack Owner',
        order_name: 'IN-3',
        vaults: [{ type: 'vault' }, { type: 'vault' }],
      },
    });
    expect(res.statusCode).toBe(200);
    const proposal = res.json() as ShipmentProposalDto;
    expect(proposal.proposals.map((p) => [p.warehouse_name, p.field_name, p.position])).toEqual([
      ['ZZZ Late Yard', 'B1', 3],
      ['ZZZ Late Yard', 'B1', 2],
    ]);
    // the full field is not offered as a choice; the early yard's empty fields are
    const offered = proposal.fields.map((f) => f.field_id);
    expect(offered).not.toContain(theirs.field('A1').id);
    expect(offered).toContain(first.field('A1').id);
  });

  it('keeps couchboxes in couchbox fields and stores all of a shipment or none of it', async () => {
    const wh = await buildWarehouse(db(), { companyId: user.companyId, rows: 2, cols: 2, fieldCapacity: 3 });
    await makeCouchbox(db(), { companyId: user.companyId, fieldId: wh.field('B1').id });
    const shipment = {
      customer_name: 'SOFA OWNER',
      order_name: 'IN-2',
      vaults: [{ type: 'couchbox' }, { type: 'vault' }],
    };
    const proposal = (
      await user.request({ method: 'POST', url: '/api/receiving/proposal', payload: shipment })
    ).json() as ShipmentProposalDto;
    expect(proposal.proposals[0]!.field_name).toBe('B1');
    expect(proposal.proposals[1]!.field_name).not.toBe('B1');

    const before = await countVaults(user.companyId);
    // the user changes the couchbox's field to a plain one: refused, and the vault before it is not kept either
    const bad = await user.request({
      method: 'POST',
      url: '/api/receiving',
      payload: {
        ...shipment,
        vaults: [
          { type: 'vault', field_id: wh.field('A1').id },
          { type: 'couchbox', field_id: wh.field('A2').id },
        ],
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ errors: [COUCHBOX_FIELD_ONLY] });
    expect(await countVaults(user.companyId)).toBe(before);

    // more than a field holds
    const tooMany = await user.request({
      method: 'POST',
      url: '/api/receiving',
      payload: {
        ...shipment,
        vaults: Array.from({ length: 4 }, () => ({ type: 'vault', field_id: wh.field('A1').id })),
      },
    });
    expect(tooMany.statusCode).toBe(400);
    expect(await countVaults(user.companyId)).toBe(before);
  });

  it("refuses another company's field as if it did not exist and stores nothing", async () => {
    const wh = await buildWarehouse(db(), { companyId: user.companyId, rows: 1, cols: 1 });
    const before = await countVaults(other.companyId);
    const res = await other.request({
      method: 'POST',
      url: '/api/receiving',
      payload: {
        customer_name: 'X',
        order_name: 'Y',
        vaults: [{ type: 'vault', field_id: wh.field('A1').id }],
      },
    });
    expect(res.statusCode).toBe(404);
    expect(await countVaults(other.companyId)).toBe(before);
    expect(
      (await other.request({ method: 'POST', url: '/api/receiving', payload: { vaults: [] } })).statusCode,
    ).toBe(400);
  });
});
