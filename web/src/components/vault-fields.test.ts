import { describe, expect, it } from 'vitest';
import type { NumberedVault } from '../api/search';
import { sharedNumberNote } from './vault-fields';

const inField: NumberedVault = {
  kind: 'vault',
  id: 7,
  name: 'V-1',
  customerName: 'SMITH',
  orderName: 'O-1',
  place: {
    at: 'field',
    warehouse: { id: 1, name: 'Main', slug: 'main' },
    fieldId: 3,
    fieldName: 'B2',
    position: 2,
  },
};
const staged: NumberedVault = { ...inField, id: 8, customerName: 'JONES', place: { at: 'stage' } };

describe('sharedNumberNote', () => {
  it('says nothing while no other vault has the number', () => {
    expect(sharedNumberNote([])).toBeUndefined();
  });

  it("names the other vault's customer and place, and what a scan will do", () => {
    expect(sharedNumberNote([inField])).toBe(
      "SMITH's vault in Main B2, position 2 has this number too. It can be saved, but a scan of it will ask which vault is meant.",
    );
    expect(sharedNumberNote([staged])).toMatch(/^JONES's vault on the stage has this number too\./);
  });

  it('counts several', () => {
    expect(sharedNumberNote([inField, staged])).toMatch(/^2 other vaults have this number too\./);
  });
});
