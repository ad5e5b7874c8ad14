import { describe, expect, it } from 'vitest';
import { vaultLinkPath } from '@domain/rules/scan-text';
import type { LoadOutDto, RequestUnitDto } from '@domain/schemas/request.schema';
import { loadScanCaption, queuedLoadScanNote, withQueuedLoadScans } from './load-out-scans';

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

  it("notes a label the load does not list, or a unit still in its field, as the server's call, not as counted", () => {
    expect(queuedLoadScanNote(load, vaultLinkPath('AAAAAAAAAAAAAAA2'))).toEqual({
      said: 'RD-2 (label): still in Main A1, pull it first (not synced yet, the server decides)',
      ok: false,
    });
    expect(queuedLoadScanNote(load, vaultLinkPath('ZZZZZZZZZZZZZZZZ'))).toEqual({
      said: 'a unit label this load does not list: not synced yet, the server decides',
      ok: true,
    });
    expect(queuedLoadScanNote(load, 'RD-9')).toEqual({
      said: 'RD-9: not synced yet, the server decides',
      ok: true,
    });
  });
});

describe('the load-out with the scans waiting on this device', () => {
  const pulled = (id: number, number: string, code: string): RequestUnitDto => ({
    ...unit(id, number, code),
    place: 'on-stage',
    location: null,
  });
  const dock: LoadOutDto = {
    ...load,
    requested: 4,
    missing: [...load.missing, pulled(4, 'RD-4', 'AAAAAAAAAAAAAAA4'), pulled(5, 'RD-5', 'AAAAAAAAAAAAAAA5')],
  };

  it('counts a pulled unit onto the truck at once, by number or label, and marks it not synced', () => {
    const shown = withQueuedLoadScans(dock, [
      { text: 'rd-4', refused: false },
      { text: vaultLinkPath('AAAAAAAAAAAAAAA5'), refused: false },
    ]);
    expect(shown.loadOut.loaded.map((u) => u.id)).toEqual([1, 4, 5]);
    expect(shown.loadOut.missing.map((u) => u.id)).toEqual([2, 3]);
    expect([...shown.notSynced]).toEqual([4, 5]);
    expect(shown.loadOut.requested).toBe(4);
  });

  it('leaves to the server a unit still in its field, one already loaded, an unknown text and a refused scan', () => {
    const shown = withQueuedLoadScans(dock, [
      { text: 'RD-2', refused: false },
      { text: 'RD-1', refused: false },
      { text: 'RD-9', refused: false },
      { text: 'RD-4', refused: true },
    ]);
    expect(shown.loadOut).toBe(dock);
    expect(shown.notSynced.size).toBe(0);
  });

  it('counts a unit scanned twice once, and a number two units share for neither', () => {
    const twins: LoadOutDto = {
      ...dock,
      missing: [pulled(6, 'TW', 'AAAAAAAAAAAAAAA6'), pulled(7, 'TW', 'AAAAAAAAAAAAAAA7')],
    };
    expect(withQueuedLoadScans(twins, [{ text: 'TW', refused: false }]).notSynced.size).toBe(0);
    const twice = withQueuedLoadScans(dock, [
      { text: 'RD-4', refused: false },
      { text: vaultLinkPath('AAAAAAAAAAAAAAA4'), refused: false },
    ]);
    expect(twice.loadOut.loaded.map((u) => u.id)).toEqual([1, 4]);
  });

  it('notes a waiting scan the way the counts take it', () => {
    expect(queuedLoadScanNote(dock, 'RD-4')).toEqual({
      said: 'RD-4: counted on this device, not synced yet',
      ok: true,
    });
    expect(queuedLoadScanNote(dock, 'RD-1')).toEqual({ said: 'RD-1: already on the truck', ok: true });
    expect(queuedLoadScanNote(dock, 'RD-2').ok).toBe(false);
  });
});
