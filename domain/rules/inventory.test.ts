import { describe, expect, it } from 'vitest';
import {
  CODE_FORMAT,
  codeIsStandard,
  codeLegend,
  companyCodeProblem,
  parseCodes,
  unknownCodes,
} from './inventory';
import {
  InventoryCodeSchema,
  InventoryItemSchema,
  InventoryItemUpdateSchema,
} from '../schemas/inventory.schema';

describe('condition codes', () => {
  it('reads codes as movers write them: any case, commas or spaces, each once', () => {
    expect(parseCodes('br, sc  d;BR/w')).toEqual(['BR', 'SC', 'D', 'W']);
    expect(parseCodes([' mi ', '', 'Mi'])).toEqual(['MI']);
    expect(parseCodes('')).toEqual([]);
  });

  it('knows the standard codes and the company’s own, and names the rest', () => {
    expect(unknownCodes(['BR', 'SC', 'D', 'MI', 'W'], [])).toEqual([]);
    expect(unknownCodes(['BR', 'CH', 'ZZ'], ['CH'])).toEqual(['ZZ']);
  });

  it('takes a company code of 1 to 4 capitals or digits that is not a standard one', () => {
    expect(companyCodeProblem('CH')).toBeNull();
    expect(companyCodeProblem('T2')).toBeNull();
    expect(companyCodeProblem('2T')).toBe(CODE_FORMAT);
    expect(companyCodeProblem('CHIPS')).toBe(CODE_FORMAT);
    expect(companyCodeProblem('BR')).toBe(codeIsStandard('BR'));
  });

  it('writes the legend with the standard codes first, then the company’s in order', () => {
    expect(
      codeLegend([
        { code: 'TO', meaning: 'Torn' },
        { code: 'CH', meaning: 'Chipped' },
      ]).map((c) => `${c.code} ${c.meaning}`),
    ).toEqual([
      'BR Broken',
      'SC Scratched',
      'D Dented',
      'MI Missing',
      'W Water damage',
      'CH Chipped',
      'TO Torn',
    ]);
  });
});

describe('inventory forms', () => {
  it('reads an item from the tablet’s form: trimmed, codes in capitals, blank room as none', () => {
    expect(
      InventoryItemSchema.parse({ sticker: ' 7 ', description: ' Oak dresser ', room: '  ', codes: 'sc d' }),
    ).toEqual({
      sticker: '7',
      description: 'Oak dresser',
      room: null,
      codes: ['SC', 'D'],
      high_value: false,
    });
    expect(
      InventoryItemSchema.parse({ sticker: '8', description: 'Piano', high_value: 'true' }).high_value,
    ).toBe(true);
  });

  it('refuses an item without number or description, with too many codes, or a code too long', () => {
    const messages = (input: unknown) =>
      InventoryItemSchema.safeParse(input).error?.issues.map((i) => i.message) ?? [];
    expect(messages({ sticker: '', description: '' })).toEqual([
      'Sticker number is required.',
      'Description is required.',
    ]);
    expect(messages({ sticker: '1', description: 'x', codes: 'A B C D E F G H I J K' })).toEqual([
      'An item takes at most 10 codes.',
    ]);
    expect(messages({ sticker: '1', description: 'x', codes: 'BROKEN' })).toEqual([CODE_FORMAT]);
  });

  it('needs something to change in an item update', () => {
    expect(InventoryItemUpdateSchema.safeParse({}).success).toBe(false);
    expect(InventoryItemUpdateSchema.parse({ delivered: 'false' })).toEqual({ delivered: false });
  });

  it('reads a company code in capitals', () => {
    expect(InventoryCodeSchema.parse({ code: ' ch ', meaning: 'Chipped' })).toEqual({
      code: 'CH',
      meaning: 'Chipped',
    });
    expect(InventoryCodeSchema.safeParse({ code: 'sc', meaning: 'Scuffed' }).success).toBe(false);
  });
});
