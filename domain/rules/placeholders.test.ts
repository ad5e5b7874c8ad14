import { describe, expect, it } from 'vitest';
import { countVaults, placeholderKind } from './placeholders';

describe('placeholderKind', () => {
  it('reads the kind from the customer name', () => {
    expect(placeholderKind('EMPTY LIFTVAN')).toBe('liftvan');
    expect(placeholderKind('empty t2')).toBe('t2');
    expect(placeholderKind('EMPTY COUCHBOX', 'vault')).toBe('couchbox');
  });

  it('takes the chosen type for a bare EMPTY', () => {
    expect(placeholderKind('EMPTY', 'liftvan')).toBe('liftvan');
    expect(placeholderKind('EMPTY')).toBe('vault');
  });

  it('answers null for a real customer and vault for an unknown kind', () => {
    expect(placeholderKind('SMITH')).toBeNull();
    expect(placeholderKind('EMPTY CRATE')).toBe('vault');
  });
});

describe('countVaults', () => {
  it('counts real vaults and empty placeholders by stored type', () => {
    const counts = countVaults([
      { customer_name: 'SMITH', type: 'vault' },
      { customer_name: 'EMPTY VAULT', type: 'vault' },
      { customer_name: 'EMPTY COUCHBOX', type: 'couchbox' },
      { customer_name: 'EMPTY LIFTVAN', type: 'liftvan' },
      { customer_name: 'JONES', type: 'couchbox' },
    ]);
    expect(counts).toEqual({ vaultCount: 5, realVaultCount: 2, emptyVaultCount: 1, emptyCouchboxCount: 1 });
  });
});
