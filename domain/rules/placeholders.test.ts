import { describe, expect, it } from 'vitest';
import {
  countVaults,
  emptyCustomerName,
  isPlaceholderName,
  normaliseDetails,
  placeholderKind,
} from './placeholders';

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

describe('normaliseDetails', () => {
  it('stores a placeholder as EMPTY {KIND} without order, and without a number for t2 and liftvan', () => {
    expect(
      normaliseDetails({
        name: ' 7 ',
        customer_name: 'empty',
        order_name: 'O-1',
        type: 't2',
        fallbackType: 'vault',
      }),
    ).toEqual({ name: null, customerName: 'EMPTY T2', orderName: null, type: 't2', note: null });
    expect(normaliseDetails({ name: '7', customer_name: 'EMPTY', fallbackType: 'vault' })).toMatchObject({
      name: '7',
      customerName: 'EMPTY VAULT',
      type: 'vault',
    });
  });

  it('stores a real vault with its customer in capitals and blank text as null', () => {
    expect(
      normaliseDetails({
        name: '',
        customer_name: ' smith ',
        order_name: ' O-9 ',
        note: ' ',
        fallbackType: 'liftvan',
      }),
    ).toEqual({ name: null, customerName: 'SMITH', orderName: 'O-9', type: 'liftvan', note: null });
  });
});

describe('placeholder names', () => {
  it('names a placeholder by its kind and recognises it in any case', () => {
    expect(emptyCustomerName('liftvan')).toBe('EMPTY LIFTVAN');
    expect(isPlaceholderName('empty vault')).toBe(true);
    expect(isPlaceholderName('SMITH')).toBe(false);
    expect(placeholderKind(null)).toBeNull();
  });
});
