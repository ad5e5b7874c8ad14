import { describe, expect, it } from 'vitest';
import type { CheckDto, CheckFieldDto, CheckVaultDto } from '@domain/schemas/check.schema';
import { fieldLinkPath, vaultLinkPath } from '@domain/rules/scan-text';
import {
  fieldOpenedBy,
  markLeft,
  notCounted,
  queuedScanCaption,
  queuedScanOf,
  type WaitedScan,
  waitedScanLine,
  withQueuedScans,
} from './check-figures';

/** The label code of vault `id` in these tests: 16 characters, as the app's codes. */
const codeOf = (id: number) => `LBL${String(id).padStart(13, '0')}`;
const labelLink = (id: number) => `https://wm.example.test${vaultLinkPath(codeOf(id))}`;

const vault = (id: number, name: string | null, expected: number | null, found: number | null = null) =>
  ({
    id,
    name,
    customer_name: 'ACME',
    order_name: 'O-1',
    type: 'vault',
    label_code: codeOf(id),
    expected_field_id: expected,
    expected_field_name: expected === null ? null : `F${expected}`,
    found_field_id: found,
    found_field_name: found === null ? null : `F${found}`,
    found_by: found === null ? null : 'ann',
    resolution: null,
    resolved_by: null,
    resolved_at: null,
  }) satisfies CheckVaultDto;

const field = (id: number, name: string, parts: Partial<CheckFieldDto> = {}): CheckFieldDto => ({
  id,
  name,
  opened_by: null,
  opened_at: null,
  checked: false,
  expected: 0,
  found: [],
  missing: [],
  not_checked: [],
  unexpected: [],
  ...parts,
});

/** D1 (id 1) expects CH-1..CH-3 and is not opened yet; E1 (id 2) is checked and expects E-1. */
function check(d1: Partial<CheckFieldDto> = {}, e1: Partial<CheckFieldDto> = {}): CheckDto {
  const fields = [
    field(1, 'D1', {
      expected: 3,
      not_checked: [vault(11, 'CH-1', 1), vault(12, 'CH-2', 1), vault(13, 'CH-3', 1)],
      ...d1,
    }),
    field(2, 'E1', { checked: true, expected: 1, missing: [vault(21, 'E-1', 2)], ...e1 }),
  ];
  return {
    id: 5,
    warehouse_id: 1,
    warehouse_name: 'Main Depot',
    started_by: 'ann',
    started_at: '2026-11-29T10:00:00Z',
    finished_by: null,
    finished_at: null,
    cancelled_by: null,
    cancelled_at: null,
    warehouse_deleted_at: null,
    field_count: 2,
    checked_count: fields.filter((f) => f.checked).length,
    version: 1,
    fields,
    discrepancies: 0,
    unresolved: 0,
  };
}

const d1Of = (c: CheckDto) => c.fields.find((f) => f.name === 'D1')!;
const names = (vaults: CheckVaultDto[]) => vaults.map((v) => v.name);

describe("a check's figures with this device's waiting scans", () => {
  it('opens the field by its label and counts expected vaults found at once, marked not synced', () => {
    const shown = withQueuedScans(check(), [
      { text: 'd1', refused: false },
      { text: 'CH-1', fieldId: 1, refused: false },
      { text: ' ch-2 ', fieldId: 1, refused: false },
    ]);
    const d1 = d1Of(shown.check);
    expect(d1.checked).toBe(true);
    expect(names(d1.found)).toEqual(['CH-1', 'CH-2']);
    expect(names(d1.missing)).toEqual(['CH-3']);
    expect(d1.not_checked).toEqual([]);
    expect(d1.found[0]!.found_field_id).toBe(1);
    expect(shown.check.checked_count).toBe(2);
    expect([...shown.notSynced]).toEqual([11, 12]);
    expect([...shown.openedHere]).toEqual([1]);
    expect(shown.unsure.size).toBe(0);
  });

  it('counts a placeholder counted by hand, and a number used twice as the one expected in the field', () => {
    const shown = withQueuedScans(
      check({ not_checked: [vault(11, 'CH-1', 1), vault(15, null, 1)] }, { missing: [vault(21, 'CH-1', 2)] }),
      [
        { text: '', vaultId: 15, fieldId: 1, refused: false },
        { text: 'CH-1', fieldId: 2, refused: false },
      ],
    );
    expect(d1Of(shown.check).found.map((v) => v.id)).toEqual([15]);
    expect(shown.check.fields.find((f) => f.name === 'E1')!.found.map((v) => v.id)).toEqual([21]);
    expect(queuedScanCaption(shown.check, '', 15)).toBe('ACME (vault), counted by hand');
    expect(queuedScanOf({ vault_id: 15, field_id: 1 }, false)).toEqual({
      text: '',
      vaultId: 15,
      fieldId: 1,
      refused: false,
    });
  });

  it('counts nothing twice once the server has counted the scan, whichever arrives first', () => {
    // the server's answer is in (CH-1 found in D1) while the scan is still listed in the outbox
    const answered = check({
      checked: true,
      not_checked: [],
      found: [vault(11, 'CH-1', 1, 1)],
      missing: [vault(12, 'CH-2', 1), vault(13, 'CH-3', 1)],
    });
    const shown = withQueuedScans(answered, [
      { text: 'D1', refused: false },
      { text: 'CH-1', fieldId: 1, refused: false },
    ]);
    expect(names(d1Of(shown.check).found)).toEqual(['CH-1']);
    expect(shown.check.checked_count).toBe(answered.checked_count);
    expect(shown.notSynced.size).toBe(0);
    // the same vault scanned twice while waiting counts once
    const twice = withQueuedScans(check(), [
      { text: 'CH-3', fieldId: 1, refused: false },
      { text: 'CH-3', fieldId: 1, refused: false },
    ]);
    expect(names(d1Of(twice.check).found)).toEqual(['CH-3']);
  });

  it('leaves a vault expected elsewhere, one found elsewhere and an unknown label to the server', () => {
    const shown = withQueuedScans(check({}, { found: [vault(14, 'GONE-1', null, 2)] }), [
      { text: 'E-1', fieldId: 1, refused: false },
      { text: 'GONE-1', fieldId: 1, refused: false },
      { text: 'kQ3x9LmP2aB7cD4e', fieldId: 1, refused: false },
    ]);
    const d1 = d1Of(shown.check);
    // the figures do not move for them
    expect(d1.found).toEqual([]);
    expect(d1.unexpected).toEqual([]);
    expect(shown.unsure.get(1)!.map((u) => [u.text, u.vault?.id ?? null])).toEqual([
      ['E-1', 21],
      ['GONE-1', 14],
      ['kQ3x9LmP2aB7cD4e', null],
    ]);
    // E-1 still missing in its own field
    expect(names(shown.check.fields[1]!.missing)).toEqual(['E-1']);
  });

  it('counts refused scans for nothing and returns the check untouched without waiting scans', () => {
    const server = check();
    expect(withQueuedScans(server, []).check).toBe(server);
    const shown = withQueuedScans(server, [{ text: 'CH-1', fieldId: 1, refused: true }]);
    expect(shown.check).toBe(server);
    expect(shown.notSynced.size).toBe(0);
  });

  it('lists a vault of this field already found in another field as missing here once the field is opened', () => {
    const moved = vault(13, 'CH-3', 1, 2);
    const shown = withQueuedScans(
      check({ not_checked: [vault(11, 'CH-1', 1), vault(12, 'CH-2', 1)] }, { unexpected: [moved] }),
      [{ text: 'CH-1', fieldId: 1, refused: false }],
    );
    const d1 = d1Of(shown.check);
    expect(names(d1.found)).toEqual(['CH-1']);
    expect(names(d1.missing)).toEqual(['CH-2', 'CH-3']);
  });

  it("counts a vault by its label's link, the code the check carries, and opens a field by its label's link", () => {
    const shown = withQueuedScans(check(), [
      { text: `https://wm.example.test${fieldLinkPath('main-depot', 'D1')}`, refused: false },
      { text: labelLink(12), fieldId: 1, refused: false },
      // a relative link, as a keyboard scanner may type it, and the same vault again: once
      { text: vaultLinkPath(codeOf(13)), fieldId: 1, refused: false },
      { text: labelLink(13), fieldId: 1, refused: false },
    ]);
    const d1 = d1Of(shown.check);
    expect(d1.checked).toBe(true);
    expect([...shown.openedHere]).toEqual([1]);
    expect(names(d1.found)).toEqual(['CH-2', 'CH-3']);
    expect(names(d1.missing)).toEqual(['CH-1']);
    expect([...shown.notSynced]).toEqual([12, 13]);
    expect(shown.unsure.size).toBe(0);
    expect(queuedScanCaption(check(), labelLink(12))).toBe('CH-2 (label)');
  });

  it("opens a field by its label's link while another is being checked, by the warehouse's name or slug only", () => {
    const link = (warehouse: string, field: string) =>
      `https://wm.example.test${fieldLinkPath(warehouse, field)}`;
    // scanned while E1 is being checked: the crew walked on to D1
    const moved = withQueuedScans(check(), [{ text: link('main-depot', 'd1'), fieldId: 2, refused: false }]);
    expect(d1Of(moved.check).checked).toBe(true);
    expect(fieldOpenedBy(check(), link('Main Depot', 'D1'), 2)?.name).toBe('D1');
    // the same field of another warehouse, or a field this check does not cover: the server decides
    const other = withQueuedScans(check(), [
      { text: link('north-depot', 'D1'), fieldId: 2, refused: false },
      { text: link('main-depot', 'F9'), fieldId: 2, refused: false },
      { text: link('north-depot', 'D1'), refused: false },
    ]);
    expect(d1Of(other.check).checked).toBe(false);
    expect(other.openedHere.size).toBe(0);
    expect(other.unsure.get(2)!.map((u) => [u.caption, u.vault])).toEqual([
      ['A label of field D1 of north-depot', null],
      ['A label of field F9 of main-depot', null],
    ]);
    expect(fieldOpenedBy(check(), link('north-depot', 'D1'))).toBeUndefined();
  });

  it('leaves a label code the check does not know to the server, and a label of a vault found elsewhere', () => {
    const shown = withQueuedScans(check({}, { checked: true, found: [vault(14, 'GONE-1', null, 2)] }), [
      { text: 'D1', refused: false },
      { text: `https://wm.example.test${vaultLinkPath('ZZZZZZZZZZZZZZZZ')}`, fieldId: 1, refused: false },
      { text: labelLink(14), fieldId: 1, refused: false },
      // a label scanned with no field being checked counts nowhere (the server asks for the field first)
      { text: labelLink(11), refused: false },
    ]);
    const d1 = d1Of(shown.check);
    expect(d1.found).toEqual([]);
    expect(shown.notSynced.size).toBe(0);
    expect(shown.unsure.get(1)!.map((u) => [u.caption, u.vault?.id ?? null])).toEqual([
      ['A vault label this check does not know', null],
      ['GONE-1 (label)', 14],
    ]);
  });

  it("counts a label's scan once when the server's answer already has it, and matches no vault without a code", () => {
    // the server counted CH-1 from its label while the scan is still listed in the outbox
    const answered = check({
      checked: true,
      not_checked: [],
      found: [vault(11, 'CH-1', 1, 1)],
      missing: [vault(12, 'CH-2', 1), { ...vault(13, 'CH-3', 1), label_code: null }],
    });
    const shown = withQueuedScans(answered, [{ text: labelLink(11), fieldId: 1, refused: false }]);
    expect(names(d1Of(shown.check).found)).toEqual(['CH-1']);
    expect(shown.notSynced.size).toBe(0);
    expect(shown.unsure.size).toBe(0);
    expect(shown.check.checked_count).toBe(answered.checked_count);
    // CH-3 has no label code (imported, never printed): a code never matches it
    const uncoded = withQueuedScans(answered, [{ text: labelLink(13), fieldId: 1, refused: false }]);
    expect(names(d1Of(uncoded.check).found)).toEqual(['CH-1']);
    expect(uncoded.unsure.get(1)!.map((u) => u.vault)).toEqual([null]);
  });
});

describe('the last scans of scans that waited on this device', () => {
  const waited = (key: string, text: string, fieldId?: number, leftAt?: number): WaitedScan => ({
    key,
    scan: { text, fieldId, refused: false },
    caption: text,
    leftAt,
  });
  const line = (said: string, w: WaitedScan) => ({ said, ok: true, waited: w });
  // the server's check once the scans of D1 arrived: CH-1 found, STRAY (expected in E1) standing in D1
  const answered = check({
    checked: true,
    opened_by: 'ann',
    not_checked: [],
    found: [vault(11, 'CH-1', 1, 1)],
    missing: [vault(12, 'CH-2', 1), vault(13, 'CH-3', 1)],
    unexpected: [vault(31, 'STRAY', 2, 1)],
  });

  it('say what the device made of them while they wait, and the reasons once the server refused one', () => {
    const ch1 = line('CH-1: counted on this device, not synced yet', waited('k1', 'CH-1', 1));
    expect(waitedScanLine(check(), ch1, { state: 'waiting' }, 1_000)).toEqual({
      said: 'CH-1: counted on this device, not synced yet',
      ok: true,
    });
    const nope = line('V-999: not synced, unexpected? The server decides', waited('k2', 'V-999', 1));
    expect(
      waitedScanLine(
        check(),
        nope,
        { state: 'attention', messages: ['No vault or field of your company matches this scan.'] },
        1_000,
      ),
    ).toEqual({
      said: 'V-999: not counted. No vault or field of your company matches this scan.',
      ok: false,
    });
  });

  it("say what the server's check shows once they have left the outbox and the check was read since", () => {
    const sent = (said: string, text: string, fieldId?: number) =>
      waitedScanLine(answered, line(said, waited('k', text, fieldId, 5_000)), undefined, 6_000);
    expect(sent('Checking field D1 (not synced yet)', 'D1')).toEqual({ said: 'Checking field D1', ok: true });
    expect(sent('CH-1: counted on this device, not synced yet', 'ch-1', 1)).toEqual({
      said: 'CH-1: found',
      ok: true,
    });
    expect(sent('STRAY: not synced, unexpected? The server decides', 'STRAY', 1)).toEqual({
      said: 'STRAY: not expected here',
      ok: false,
    });
    // by its label's link, and a vault counted by hand
    expect(sent('CH-1 (label): counted on this device, not synced yet', labelLink(11), 1).said).toBe(
      'CH-1: found',
    );
    const byHand = {
      ...waited('k', '', 1, 5_000),
      scan: { text: '', vaultId: 11, fieldId: 1, refused: false },
    };
    expect(waitedScanLine(answered, line('counted', byHand), undefined, 6_000).said).toBe('CH-1: found');
    // a refusal discarded from the outbox: not counted
    expect(sent('CH-2: counted on this device, not synced yet', 'CH-2', 1)).toEqual({
      said: 'CH-2: not counted',
      ok: false,
    });
    expect(sent('Checking field E1 (not synced yet)', 'E1').said).toBe('Checking field E1');
  });

  it('keep their words until the check has been read after they left the outbox', () => {
    const ch1 = line('CH-1: counted on this device, not synced yet', waited('k1', 'CH-1', 1, 5_000));
    expect(waitedScanLine(answered, ch1, undefined, 4_000).said).toBe(
      'CH-1: counted on this device, not synced yet',
    );
    const notLeft = line('CH-1: counted on this device, not synced yet', waited('k1', 'CH-1', 1));
    expect(waitedScanLine(answered, notLeft, undefined, 6_000).said).toBe(
      'CH-1: counted on this device, not synced yet',
    );
  });

  it('mark when each left the outbox, once, and keep the same list when none did', () => {
    const list = [
      { key: 1, said: 'a', ok: true, waited: waited('k1', 'CH-1', 1) },
      { key: 2, said: 'b', ok: true, waited: waited('k2', 'CH-2', 1) },
      { key: 3, said: 'c', ok: true },
    ];
    expect(markLeft(list, new Set(['k1', 'k2']), 1_000)).toBe(list);
    const marked = markLeft(list, new Set(['k2']), 2_000);
    expect(marked.map((n) => n.waited?.leftAt)).toEqual([2_000, undefined, undefined]);
    expect(markLeft(marked, new Set(), 3_000).map((n) => n.waited?.leftAt)).toEqual([
      2_000,
      3_000,
      undefined,
    ]);
  });

  it("say a refusal's reasons in the line, or only that it did not count", () => {
    expect(notCounted('V-999', ['No vault or field of your company matches this scan.'])).toBe(
      'V-999: not counted. No vault or field of your company matches this scan.',
    );
    expect(notCounted('V-999', [])).toBe('V-999: not counted');
  });
});
