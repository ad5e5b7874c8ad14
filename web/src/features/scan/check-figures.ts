import { parseScanText } from '@domain/rules/scan-text';
import { warehouseSlug } from '@domain/rules/text';
import type { CheckDto, CheckFieldDto, CheckVaultDto } from '@domain/schemas/check.schema';

/** A scan of a check waiting in this tablet's outbox (issue 30): what was read, in which field. */
export interface QueuedCheckScan {
  text: string;
  /** a vault counted by hand (one with no number or label to scan) instead of a text */
  vaultId?: number;
  /** the field being checked when it was read; none for a field's own label */
  fieldId?: number;
  /** refused by the server: it counts for nothing until Retry */
  refused: boolean;
}

/** A scan the tablet cannot count on its own: the server decides (unexpected here, already found elsewhere, unknown). */
export interface UnsureScan {
  text: string;
  /** how it is listed: a label's link by what it names (`queuedScanCaption`) */
  caption: string;
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
 * Whether a field label's link names the check's warehouse. The server reads the link's warehouse as a name or a slug
 * (labels/scan.service.ts); a slug is the name made into an address (`warehouseSlug`) when the warehouse is added.
 */
function linksTo(check: CheckDto, slug: string): boolean {
  const wanted = slug.trim().toLowerCase();
  return (
    wanted === check.warehouse_name.trim().toLowerCase() || wanted === warehouseSlug(check.warehouse_name)
  );
}

/**
 * What a waiting scan names on this tablet, read as the server reads it (`parseScanText`): a field of the check (its
 * label's link, or its name scanned while no field is being checked), a vault (its label's link by the code the check
 * carries, or its number; null when several share the number or none does), or nothing the tablet can read here
 * (`unknown`: the server decides).
 */
type ReadScan =
  | { kind: 'field'; field: CheckFieldDto }
  | { kind: 'vault'; vault: CheckVaultDto | null }
  | { kind: 'unknown' };

function readScan(check: CheckDto, fields: readonly CheckFieldDto[], scan: QueuedCheckScan): ReadScan {
  if (scan.vaultId !== undefined)
    return { kind: 'vault', vault: vaultsOf(fields).find((v) => v.id === scan.vaultId) ?? null };
  const target = parseScanText(scan.text);
  if (target?.kind === 'field-link') {
    const field = linksTo(check, target.warehouseSlug)
      ? fields.find((f) => same(f.name, target.field))
      : undefined;
    return field ? { kind: 'field', field } : { kind: 'unknown' };
  }
  if (scan.fieldId === undefined) {
    // as the server: without a field being checked, a scan is a field's name or nothing countable here
    const named = fields.find((f) => same(f.name, scan.text));
    return named ? { kind: 'field', field: named } : { kind: 'unknown' };
  }
  if (target?.kind === 'vault-code') {
    const vault = vaultsOf(fields).find((v) => v.label_code === target.code);
    return { kind: 'vault', vault: vault ?? null };
  }
  const matches = vaultsOf(fields).filter((v) => v.name !== null && same(v.name, scan.text));
  // a number used twice: as the server, the one expected in the field being checked
  const here = matches.filter((v) => v.expected_field_id === scan.fieldId);
  const vault = matches.length === 1 ? matches[0]! : here.length === 1 ? here[0]! : null;
  return { kind: 'vault', vault };
}

/**
 * The field a waiting scan opens on this tablet, if any: a field label's link of this check (whatever field was being
 * checked), or a field's name scanned while none was.
 */
export function fieldOpenedBy(check: CheckDto, text: string, fieldId?: number): CheckFieldDto | undefined {
  const read = readScan(check, check.fields, { text, fieldId, refused: false });
  return read.kind === 'field' ? read.field : undefined;
}

/** The scan a check-scan intent of the outbox holds (its body as sent to POST /api/checks/{id}/scans). */
export function queuedScanOf(body: Record<string, unknown>, refused: boolean): QueuedCheckScan {
  return {
    text: String(body.text ?? ''),
    vaultId: typeof body.vault_id === 'number' ? body.vault_id : undefined,
    fieldId: typeof body.field_id === 'number' ? body.field_id : undefined,
    refused,
  };
}

/** A vault of a check by its number, or by whose it is and its kind when it has none (an EMPTY placeholder). */
export const vaultTitle = (vault: CheckVaultDto) => vault.name ?? `${vault.customer_name} (${vault.type})`;

/**
 * How a waiting scan is listed: a vault counted by hand by its title, a label's link by what it names when the check
 * knows it, else as it was read.
 */
export function queuedScanCaption(check: CheckDto, text: string, vaultId?: number): string {
  if (vaultId !== undefined) {
    const vault = vaultsOf(check.fields).find((v) => v.id === vaultId);
    return vault ? `${vaultTitle(vault)}, counted by hand` : 'A vault counted by hand';
  }
  const target = parseScanText(text);
  if (target?.kind === 'vault-code') {
    const vault = vaultsOf(check.fields).find((v) => v.label_code === target.code);
    if (!vault) return 'A vault label this check does not know';
    return `${vaultTitle(vault)} (label)`;
  }
  if (target?.kind === 'field-link') {
    const field = fieldOpenedBy(check, text);
    return field
      ? `Field ${field.name} (label)`
      : `A label of field ${target.field} of ${target.warehouseSlug}`;
  }
  return text.trim();
}

/**
 * The check as this tablet shows it while some of its scans wait to be sent: a waiting scan of a vault expected in the
 * field being checked and not found yet counts as found at once (marked not synced); a field's label, or a first vault
 * scanned in it, opens the field. Scans are read as the server reads them: a label's link names a vault by the label
 * code the check carries, or a field of the check's warehouse. Anything else (a vault expected elsewhere, one already
 * found in another field, a label or link the check does not know) is listed as unsure: the server decides. The
 * server's answer is the base: a scan it has counted already finds its vault among the found and changes nothing, so
 * nothing counts twice, in whichever order the answer and the outbox's change arrive. Refused scans count for nothing.
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
  const leaveToServer = (field: CheckFieldDto, text: string, vault: CheckVaultDto | null) => {
    const list = unsure.get(field.id) ?? [];
    if (!list.some((u) => same(u.text, text)))
      list.push({ text: text.trim(), caption: queuedScanCaption(check, text), vault });
    unsure.set(field.id, list);
  };

  for (const scan of waiting) {
    const read = readScan(check, fields, scan);
    if (read.kind === 'field') {
      open(read.field);
      continue;
    }
    const field = scan.fieldId === undefined ? undefined : fields.find((f) => f.id === scan.fieldId);
    if (!field) continue;
    if (read.kind === 'unknown') {
      // a field label's link the check does not know: the server opens nothing and says why
      leaveToServer(field, scan.text, null);
      continue;
    }
    open(field);
    const vault = read.vault;
    if (vault && field.found.some((v) => v.id === vault.id)) continue;
    if (vault && vault.found_field_id === null && vault.expected_field_id === field.id) {
      field.missing = field.missing.filter((v) => v.id !== vault.id);
      field.found.push({ ...vault, found_field_id: field.id, found_field_name: field.name });
      notSynced.add(vault.id);
      continue;
    }
    leaveToServer(field, scan.text, vault);
  }
  return { check: { ...check, fields, checked_count: checkedCount }, notSynced, openedHere, unsure };
}

/** The last scans' line of a scan the server did not count, with its reasons (once: no error box repeats them). */
export function notCounted(caption: string, reasons: readonly string[]): string {
  return reasons.length === 0 ? `${caption}: not counted` : `${caption}: not counted. ${reasons.join(' ')}`;
}

/** A line of the last scans whose scan waited on this device: kept until the server's check shows what came of it. */
export interface WaitedScan {
  /** its intent's key in this device's outbox */
  key: string;
  scan: QueuedCheckScan;
  /** how it is named (`queuedScanCaption`) */
  caption: string;
  /** when it left the outbox: sent, or discarded after a refusal */
  leftAt?: number;
}

/**
 * The last scans with the time each waited scan left the outbox (`kept`: the keys still in it); the same list when
 * none left, so nothing re-renders.
 */
export function markLeft<T extends { waited?: WaitedScan }>(
  list: readonly T[],
  kept: ReadonlySet<string>,
  now: number,
): readonly T[] {
  const left = (n: T) => n.waited !== undefined && n.waited.leftAt === undefined && !kept.has(n.waited.key);
  if (!list.some(left)) return list;
  return list.map((n) => (left(n) ? { ...n, waited: { ...n.waited!, leftAt: now } } : n));
}

/**
 * What the last scans say now of a scan that waited on this device (`said` and `ok`: what was said when it was made).
 * While it waits, that; refused, the server's reasons; once it has left the outbox and the check has been read since
 * (`checkReadAt`), what the server's check shows of it, in the words of an answered scan: the field it opened, the
 * vault found here or not expected here, or not counted (a refusal that was discarded).
 */
export function waitedScanLine(
  check: CheckDto,
  line: { said: string; ok: boolean; waited: WaitedScan },
  /** its intent while it is still in the outbox */
  queued: { state: 'waiting' | 'attention'; messages?: string[] } | undefined,
  checkReadAt: number,
): { said: string; ok: boolean } {
  const { waited } = line;
  if (queued?.state === 'attention')
    return { said: notCounted(waited.caption, queued.messages ?? []), ok: false };
  if (queued || waited.leftAt === undefined || checkReadAt < waited.leftAt)
    return { said: line.said, ok: line.ok };
  const notHere = { said: notCounted(waited.caption, []), ok: false };
  const { scan } = waited;
  const read = readScan(check, check.fields, scan);
  if (read.kind === 'field')
    return read.field.checked ? { said: `Checking field ${read.field.name}`, ok: true } : notHere;
  // the vault as the server counted it in the field being checked
  const here = check.fields.find((f) => f.id === scan.fieldId);
  const target = parseScanText(scan.text);
  const vault = [...(here?.found ?? []), ...(here?.unexpected ?? [])].find((v) =>
    scan.vaultId !== undefined
      ? v.id === scan.vaultId
      : target?.kind === 'vault-code'
        ? v.label_code === target.code
        : v.name !== null && same(v.name, scan.text),
  );
  if (!here || !vault) return notHere;
  return vault.expected_field_id === here.id
    ? { said: `${vaultTitle(vault)}: found`, ok: true }
    : { said: `${vaultTitle(vault)}: not expected here`, ok: false };
}
