import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { ShellData } from '@domain/schemas/app-shell.schema';
import type { WarehouseDto, WarehouseSummaryDto } from '@domain/schemas/warehouse.schema';
import { seedShellData } from './shell-data';

const session = {
  id: 7,
  email: 'ada@example.test',
  username: 'ada',
  role: 'manager',
  companyId: 3,
  company: { id: 3, name: 'Movers', locale: 'en-GB' },
} as const;
const warehouses = [{ id: 11, name: 'North', slug: 'north' }] as unknown as WarehouseSummaryDto[];
const warehouse = { id: 11, name: 'North', fields: {} } as unknown as WarehouseDto;

describe('seedShellData', () => {
  it("puts the session, the company's list and the shown warehouse in the cache; the two reads are stale", () => {
    const client = new QueryClient();
    const data: ShellData = { session, warehouses, warehouse };
    seedShellData(client, JSON.stringify(data));
    expect(client.getQueryData(['session'])).toEqual(session);
    expect(client.getQueryData(['warehouses', 3])).toEqual(warehouses);
    expect(client.getQueryData(['warehouse', 11])).toEqual(warehouse);
    // read again once a screen shows them; the session is kept until sign-out or the live stream says otherwise
    expect(client.getQueryState(['warehouses', 3])?.isInvalidated).toBe(true);
    expect(client.getQueryState(['warehouse', 11])?.isInvalidated).toBe(true);
    expect(client.getQueryState(['session'])?.isInvalidated).toBe(false);
  });

  it('leaves the cache empty without a data block or with a broken one', () => {
    for (const text of [undefined, null, '', '{"session":']) {
      const client = new QueryClient();
      seedShellData(client, text);
      expect(client.getQueryCache().getAll()).toHaveLength(0);
    }
  });
});
