import { describe, expect, it } from 'vitest';
import { parseNumbers, shipmentLines } from './shipment-lines';

describe('shipment lines', () => {
  it('reads numbers typed one per line or pasted from a spreadsheet', () => {
    expect(parseNumbers('A-1\nA-2, A-3\tA-4;  A-5 \n\n')).toEqual(['A-1', 'A-2', 'A-3', 'A-4', 'A-5']);
  });

  it('lists every number and fills up to the count with unnumbered vaults', () => {
    const none = { count: 0, numbers: '' };
    expect(
      shipmentLines({
        vault: { count: 3, numbers: 'V1 V2' },
        liftvan: { count: 1, numbers: '' },
        t2: none,
        couchbox: { count: 0, numbers: 'C1' },
      }),
    ).toEqual([
      { type: 'vault', name: 'V1' },
      { type: 'vault', name: 'V2' },
      { type: 'vault' },
      { type: 'liftvan' },
      { type: 'couchbox', name: 'C1' },
    ]);
  });
});
