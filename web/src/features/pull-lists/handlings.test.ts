import { describe, expect, it } from 'vitest';
import type { PullListDto } from '@domain/schemas/pull-list.schema';
import { handlingsText } from './handlings';

const field = (steps: number): PullListDto['plan'][number] => ({
  field_id: 1,
  field_name: 'A1',
  warehouse_id: 1,
  warehouse_name: 'Main',
  steps: Array.from({ length: steps }, (_, i) => ({
    vault_id: i + 1,
    name: `V-${i + 1}`,
    customer_name: 'SMITH',
    position: i + 1,
    role: 'pull' as const,
  })),
});

describe('handlings text', () => {
  it('counts with the right word for one and for many', () => {
    expect(handlingsText({ plan: [field(1)], handlings: 1, in_the_way: 0 })).toBe(
      '1 handling left (the least possible), no vault in the way.',
    );
    expect(handlingsText({ plan: [field(3)], handlings: 5, in_the_way: 1 })).toBe(
      '5 handlings left (the least possible), 1 vault only in the way, each off and back.',
    );
    expect(handlingsText({ plan: [field(3)], handlings: 7, in_the_way: 2 })).toContain(
      '2 vaults only in the way',
    );
  });

  it('still counts the put-backs once nothing is left to take out', () => {
    expect(handlingsText({ plan: [], handlings: 0, in_the_way: 0 })).toBe('Nothing left to take out.');
    expect(handlingsText({ plan: [], handlings: 1, in_the_way: 0 })).toBe(
      'Nothing left to take out; 1 handling left to put back.',
    );
    expect(handlingsText({ plan: [], handlings: 2, in_the_way: 0 })).toBe(
      'Nothing left to take out; 2 handlings left to put back.',
    );
  });
});
