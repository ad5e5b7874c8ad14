import { describe, expect, it } from 'vitest';
import { findOrCreateOrder } from '../../customers/customers.repo';
import { buildPallet, buildRack, buildVault, buildWarehouse } from '../../factories';
import { testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';
import { findOrdersForAccounts } from './accounts.repo';

// Issue 28: the orders an account is made for, with the customers of their units, vaults and pallets alike.

describe.each(testEngines())('the orders for accounts on %s', (engine) => {
  const { ctx, user, other } = useTestApp(engine);

  it('gives each customer of an order once, an order without units once without one, and no other company’s order', async () => {
    const db = ctx.database.db;
    const companyId = user.companyId;
    const wh = await buildWarehouse(db, { companyId, rows: 2, cols: 2, fieldCapacity: 3 });
    const rack = await buildRack(db, { companyId, warehouseId: wh.id, shelves: 1, capacity: 6 });
    const shelfId = rack.shelfIds[0]!;
    await buildVault(db, { companyId, fieldId: wh.field('A1').id, customerName: 'ALMA', orderName: 'MIX' });
    await buildVault(db, { companyId, fieldId: wh.field('A1').id, customerName: 'ALMA', orderName: 'MIX' });
    await buildPallet(db, { companyId, shelfId, customer: 'BERT', slotIndex: 0, order: 'MIX' });
    await buildPallet(db, { companyId, shelfId, customer: 'BERT', slotIndex: 1, order: 'PAL' });
    await buildPallet(db, { companyId, shelfId, customer: 'BERT', slotIndex: 2, order: 'PAL' });
    const mixed = await findOrCreateOrder(db, companyId, 'MIX');
    const palletsOnly = await findOrCreateOrder(db, companyId, 'PAL');
    const empty = await findOrCreateOrder(db, companyId, 'EMPTY');
    const theirs = await findOrCreateOrder(db, other.companyId, 'THEIRS');

    const rows = await findOrdersForAccounts(db, companyId, [mixed, palletsOnly, empty, theirs]);
    const seen = rows.map((r) => `${r.order_name}:${r.customer_name ?? '-'}:${r.account_id ?? '-'}`).sort();
    expect(seen).toEqual(['EMPTY:-:-', 'MIX:ALMA:-', 'MIX:BERT:-', 'PAL:BERT:-']);
  });
});
