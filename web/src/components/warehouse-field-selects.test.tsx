import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { WarehouseSummaryDto } from '@domain/schemas/warehouse.schema';
import { warehouseQueries } from '../api/warehouses';
import { useVaultDestination } from './warehouse-field-selects';

const warehouses = [
  { id: 1, name: 'Annex' },
  { id: 2, name: 'Main' },
] as WarehouseSummaryDto[];

function Chosen({ startId }: { startId?: number }) {
  const { warehouseId } = useVaultDestination({ warehouses, startId, couchbox: false });
  return <output>{warehouseId}</output>;
}

/** The warehouse the destination starts on, with these warehouses' fields kept by this device. */
function startsOn(kept: number[], startId?: number) {
  const client = new QueryClient();
  for (const id of kept)
    client.setQueryData(warehouseQueries.detail(id).queryKey, { id, fields: {} } as never);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <Chosen startId={startId} />
    </QueryClientProvider>,
  );
}

describe('useVaultDestination', () => {
  it("starts on the first warehouse whose fields this device has: offline, it can offer no other's", () => {
    expect(startsOn([2])).toBe('<output>2</output>');
  });

  it('starts on the first warehouse when none is kept, and on the one asked for first of all', () => {
    expect(startsOn([])).toBe('<output>1</output>');
    expect(startsOn([2], 1)).toBe('<output>1</output>');
  });
});
