import { describe, expect, it } from 'vitest';
import { fieldLinkPath, parseScanText, splitWarehouseAndField, vaultLinkPath } from './scan-text';

describe('parseScanText', () => {
  it('reads the vault label link, full or as a path', () => {
    expect(parseScanText('https://wm.example.com/v/AbCdEfGhIjKlMn_-')).toEqual({
      kind: 'vault-code',
      code: 'AbCdEfGhIjKlMn_-',
    });
    expect(parseScanText(vaultLinkPath('0123456789abcdef'))).toEqual({
      kind: 'vault-code',
      code: '0123456789abcdef',
    });
  });

  it('reads the field label link', () => {
    expect(parseScanText(`http://x.test${fieldLinkPath('main-depot', 'b4')}`)).toEqual({
      kind: 'field-link',
      warehouseSlug: 'main-depot',
      field: 'B4',
    });
  });

  it('keeps plain words, with runs of spaces made one', () => {
    expect(parseScanText('  Main   Depot B4 ')).toEqual({ kind: 'words', text: 'Main Depot B4' });
    expect(parseScanText('10234')).toEqual({ kind: 'words', text: '10234' });
  });

  it('refuses empty, too long and foreign links', () => {
    expect(parseScanText('   ')).toBeNull();
    expect(parseScanText('x'.repeat(301))).toBeNull();
    expect(parseScanText('https://evil.test/login')).toBeNull();
    expect(parseScanText('/v/short')).toBeNull();
    expect(parseScanText('/warehouse/main?field=not-a-field')).toBeNull();
  });
});

describe('splitWarehouseAndField', () => {
  it('splits off a trailing field name', () => {
    expect(splitWarehouseAndField('Main Depot b4')).toEqual({ warehouse: 'Main Depot', field: 'B4' });
    expect(splitWarehouseAndField('B4')).toBeNull();
    expect(splitWarehouseAndField('Main Depot')).toBeNull();
  });
});
