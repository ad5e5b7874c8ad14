import type { CheckDto, CheckFieldDto, CheckVaultDto } from '@domain/schemas/check.schema';

/** A scan of a check waiting in this tablet's outbox (issue 30): what was read, in which field. */
export interface QueuedCheckScan {
  text: string;
  /** the field being checked when it was read; none for a field's own label */
  fieldId?: number;
  /** refused by the server: it counts for nothing until Retry */
  refused: boolean;
}

/** A scan the tablet cannot count on its own: the server decides (unexpected here, already found elsewhere, unknown). */
export interface UnsureScan {
  text: string;
  vault: CheckVaultDto | null;
}

export interface CheckWithQueuedScans {
  /** the server's check with this tablet's waiting scans counted in */
  check: CheckDto;
  /** vaults counted as found from a scan that has not reached the server */
  notSynced: ReadonlySet<number>;
  /** fields opened by a scan that has not reached the server */
  openedHere: ReadonlySet<number>;
  /** per field, the waiting scans only the server can place */
  unsure: ReadonlyMap<number, UnsureScan[]>;
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Every vault the check knows, once each. */
function vaultsOf(fields: readonly CheckFieldDto[]): CheckVaultDto[] {
  const byId = new Map<number, CheckVaultDto>();
  for (const f of fields)
    for (const v of [...f.found, ...f.missing, ...f.not_checked, ...f.unexpected]) byId.set(v.id, v);
  return [...byId.values()];
}

/**
 * The check as this tablet shows it while some of its scans wait to be sent: a waiting scan of a vault expected in the
 * field being checked and not found yet counts as found at once (marked not synced); a field's label, or a first vault
 * scanned in it, opens the field. Anything else (a vault expected elsewhere, one already found in another field, a
 * label the check does not know) is listed as unsure: the server decides. The server's answer is the base: a scan it
 * has counted already finds its vault among the found and changes nothing, so nothing counts twice, in whichever order
 * the answer and the outbox's change arrive. Refused scans count for nothing.
 */
export function withQueuedScans(check: CheckDto, scans: readonly QueuedCheckScan[]): CheckWithQueuedScans {
  const notSynced = new Set<number>();
  const openedHere = new Set<number>();
  const unsure = new Map<number, UnsureScan[]>();
  const waiting = scans.filter((s) => !s.refused);
  if (waiting.length === 0) return { check, notSynced, openedHere, unsure };

  const fields: CheckFieldDto[] = check.fields.map((f) => ({
    ...f,
    found: [...f.found],
    missing: [...f.missing],
    not_checked: [...f.not_checked],
    unexpected: [...f.unexpected],
  }));
  let checkedCount = check.checked_count;

  const open = (field: CheckFieldDto) => {
    if (field.checked) return;
    field.checked = true;
    checkedCount += 1;
    openedHere.add(field.id);
    // expected here and found elsewhere already: missing here once the field is checked, as the server sorts them
    const elsewhere = fields.flatMap((f) =>
      f.id === field.id ? [] : f.unexpected.filter((v) => v.expected_field_id === field.id),
    );
    field.missing = [...field.not_checked, ...elsewhere];
    field.not_checked = [];
  };

  for (const scan of waiting) {
    if (scan.fieldId === undefined) {
      const named = fields.find((f) => same(f.name, scan.text));
      if (named) open(named);
      continue;
    }
    const field = fields.find((f) => f.id === scan.fieldId);
    if (!field) continue;
    open(field);
    const matches = vaultsOf(fields).filter((v) => v.name !== null && same(v.name, scan.text));
    const vault = matches.length === 1 ? matches[0]! : null;
    if (vault && field.found.some((v) => v.id === vault.id)) continue;
    if (vault && vault.found_field_id === null && vault.expected_field_id === field.id) {
      field.missing = field.missing.filter((v) => v.id !== vault.id);
      field.found.push({ ...vault, found_field_id: field.id, found_field_name: field.name });
      notSynced.add(vault.id);
      continue;
    }
    const list = unsure.get(field.id) ?? [];
    if (!list.some((u) => same(u.text, scan.text))) list.push({ text: scan.text.trim(), vault });
    unsure.set(field.id, list);
  }
  return { check: { ...check, fields, checked_count: checkedCount }, notSynced, openedHere, unsure };
}
