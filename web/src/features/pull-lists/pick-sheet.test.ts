import { describe, expect, it } from 'vitest';
import type { PullListDto } from '@domain/schemas/pull-list.schema';
import { pickSheetLines, pickSheetPdf } from './pick-sheet';

const list: PullListDto = {
  id: 4,
  title: 'Order ORD-7',
  customer_name: null,
  order_name: 'ORD-7',
  created_at: '2026-01-01T00:00:00.000Z',
  created_by: 'sam',
  released_at: null,
  released_by: null,
  version: 1,
  vaults: [],
  plan: [
    {
      field_id: 1,
      field_name: 'A1',
      warehouse_id: 1,
      warehouse_name: 'Main',
      steps: [
        { vault_id: 9, name: 'V-9', customer_name: 'OTHER', position: 1, role: 'in-the-way' },
        { vault_id: 8, name: 'V-8', customer_name: 'SMITH', position: 2, role: 'pull' },
      ],
    },
  ],
  handlings: 2,
  in_the_way: 1,
  set_aside: [],
};

describe('pick sheet', () => {
  it('lists the fields in plan order with each vault to take off, top-down', () => {
    const lines = pickSheetLines(list);
    expect(lines[0]).toBe('Pick sheet: Order ORD-7');
    const a1 = lines.indexOf('[ ] Main, field A1');
    expect(a1).toBeGreaterThan(0);
    expect(lines[a1 + 1]).toContain('V-9');
    expect(lines[a1 + 1]).toContain('in the way');
    expect(lines[a1 + 2]).toContain('V-8');
    expect(lines[a1 + 2]).toContain('PULL');
  });

  it('makes a PDF document', async () => {
    const bytes = await pickSheetPdf(list);
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
  });
});
