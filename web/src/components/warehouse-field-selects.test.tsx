import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { FieldDto, VaultDto, WarehouseSummaryDto } from '@domain/schemas/warehouse.schema';
import type { Intent } from '../lib/outbox/outbox';
import { warehouseQueries } from '../api/warehouses';
import { slotFor, useVaultDestination } from './warehouse-field-selects';

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

describe('slotFor', () => {
  // a field of 3 slots with a vault at the bottom (slots fill from 3 up)
  const field = {
    id: 5,
    name: 'A1',
    type: 'vault',
    full: false,
    warehouse_id: 1,
    vaults: { 9: { id: 9, position: 3 } as VaultDto },
  } satisfies FieldDto;
  const queuedMove = (fieldId: number, position: number) =>
    ({ kind: 'move', body: { vaultId: 7, fieldId, position } }) as unknown as Intent;

  it('offers the next free slot', () => {
    expect(slotFor(field, 3, [])).toBe(2);
  });

  it("counts a slot this device's queued move fills, and only in its own field", () => {
    expect(slotFor(field, 3, [queuedMove(5, 2)])).toBe(1);
    expect(slotFor(field, 3, [queuedMove(5, 2), queuedMove(5, 1)])).toBeNull();
    expect(slotFor(field, 3, [queuedMove(6, 2)])).toBe(2);
  });
});
