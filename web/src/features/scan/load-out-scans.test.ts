import { describe, expect, it } from 'vitest';
import { vaultLinkPath } from '@domain/rules/scan-text';
import type { LoadOutDto, RequestUnitDto } from '@domain/schemas/request.schema';
import { loadScanCaption, queuedLoadScanNote } from './load-out-scans';

const unit = (id: number, number: string | null, code: string | null): RequestUnitDto => ({
  id,
  number,
  type: 'vault',
  order: null,
  label_code: code,
  place: 'in-field',
  location: 'Main A1',
  loaded_at: null,
  loaded_by: null,
});

const load: LoadOutDto = {
  id: 7,
  customer_name: 'ACME',
  kind: 'delivery',
  state: 'pulling',
  scheduled_date: null,
  crew: null,
  truck: null,
  pull_list_id: null,
  requested: 3,
  loaded: [unit(1, 'RD-1', 'AAAAAAAAAAAAAAA1')],
  missing: [unit(2, 'RD-2', 'AAAAAAAAAAAAAAA2'), unit(3, null, 'AAAAAAAAAAAAAAA3')],
};

describe('a waiting load-out scan on the list', () => {
  it('names the unit of a label link the load lists, loaded or not, and leaves other texts as read', () => {
    const link = (code: string) => `https://wm.example.test${vaultLinkPath(code)}`;
    expect(loadScanCaption(load, link('AAAAAAAAAAAAAAA2'))).toBe('RD-2 (label)');
    expect(loadScanCaption(load, vaultLinkPath('AAAAAAAAAAAAAAA1'))).toBe('RD-1 (label)');
    expect(loadScanCaption(load, link('AAAAAAAAAAAAAAA3'))).toBe('vault #3 (label)');
    expect(loadScanCaption(load, link('ZZZZZZZZZZZZZZZZ'))).toBe('a unit label this load does not list');
    expect(loadScanCaption(load, ' RD-2 ')).toBe('RD-2');
  });

  it("notes a label the load does not list as the server's call, not as counted", () => {
    expect(queuedLoadScanNote(load, vaultLinkPath('AAAAAAAAAAAAAAA2'))).toBe(
      'RD-2 (label): counted on this tablet, not synced yet',
    );
    expect(queuedLoadScanNote(load, vaultLinkPath('ZZZZZZZZZZZZZZZZ'))).toBe(
      'a unit label this load does not list: not synced yet, the server decides',
    );
    expect(queuedLoadScanNote(load, 'RD-2')).toBe('RD-2: counted on this tablet, not synced yet');
  });
});
