import { describe, expect, it } from 'vitest';
import { vaultTitle, withArticle } from './vault-title';

describe('vault titles', () => {
  it('names a vault by its number, a placeholder by its kind and field, never by an id', () => {
    expect(vaultTitle({ name: 'V-1', customer_name: 'KNOX' }, 'A1')).toBe('Vault V-1');
    expect(vaultTitle({ name: null, customer_name: 'EMPTY VAULT' }, 'B4')).toBe('Empty vault in B4');
    expect(vaultTitle({ name: null, customer_name: 'EMPTY T2' }, 'C2')).toBe('Empty T2 in C2');
    expect(vaultTitle({ name: null, customer_name: 'EMPTY LIFTVAN' }, null)).toBe('Empty liftvan');
    expect(vaultTitle({ name: null, customer_name: 'KNOX' }, 'A1')).toBe('Vault of KNOX in A1');
  });

  it('puts the article a placeholder name reads with', () => {
    expect(withArticle('EMPTY VAULT')).toBe('an EMPTY VAULT');
    expect(withArticle('T2')).toBe('a T2');
  });
});
