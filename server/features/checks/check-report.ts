import { pdfOfLines } from '../../documents/pdf-lines';
import { toCsv } from '@domain/rules/csv';
import type { CheckDto, CheckVaultDto } from '@domain/schemas/check.schema';

/** The kind of a discrepancy, in the report's words. */
export function discrepancyKind(v: CheckVaultDto): 'missing' | 'unexpected' | 'misplaced' {
  if (v.found_field_id === null) return 'missing';
  return v.expected_field_id === null ? 'unexpected' : 'misplaced';
}

const vaultText = (v: CheckVaultDto) => v.name ?? `(${v.type})`;

function resolutionText(v: CheckVaultDto): string {
  if (v.resolution === 'moved') return `moved into ${v.found_field_name ?? '?'}`;
  if (v.resolution === 'searched') return 'searched for';
  return 'open';
}

/** Every discrepancy once: missing ones under the field they were expected in, the others where they were found. */
export function discrepanciesOf(check: CheckDto): { field: string; vault: CheckVaultDto }[] {
  return check.fields.flatMap((f) => [
    ...f.missing.filter((v) => v.found_field_id === null).map((vault) => ({ field: f.name, vault })),
    ...f.unexpected.map((vault) => ({ field: f.name, vault })),
  ]);
}

/** The report as CSV: one line per covered field (its counts), then one per discrepancy. */
export function checkReportCsv(check: CheckDto): string {
  const header = [
    'Check',
    'Warehouse',
    'Started by',
    'Started at',
    'Finished by',
    'Finished at',
    'Line',
    'Field',
    'Expected',
    'Found',
    'Missing',
    'Unexpected',
    'Vault',
    'Customer',
    'Order',
    'Expected in',
    'Found in',
    'Found by',
    'Resolution',
    'Resolved by',
    'Resolved at',
  ];
  const head = [
    check.id,
    check.warehouse_name,
    check.started_by,
    check.started_at,
    check.finished_by,
    check.finished_at,
  ];
  // a field nobody opened has no counts: its vaults are 'not checked', never 'missing'
  const fields = check.fields.map((f) => [
    ...head,
    f.checked ? 'field' : 'field not checked',
    f.name,
    f.expected,
    f.checked ? f.found.length : '',
    f.checked ? f.missing.length : '',
    f.unexpected.length,
    ...Array<string>(9).fill(''),
  ]);
  // a vault's line: its field, no counts, the vault and where it belongs, then what the check found (if anything)
  const vaultLine = (line: string, field: string, vault: CheckVaultDto, found: (string | null)[]) => [
    ...head,
    line,
    field,
    ...Array<string>(4).fill(''),
    vaultText(vault),
    vault.customer_name,
    vault.order_name,
    vault.expected_field_name,
    ...found,
  ];
  const notChecked = check.fields.flatMap((f) =>
    f.not_checked.map((vault) => vaultLine('not checked', f.name, vault, Array<string>(5).fill(''))),
  );
  const discrepancies = discrepanciesOf(check).map(({ field, vault }) =>
    vaultLine(discrepancyKind(vault), field, vault, [
      vault.found_field_name,
      vault.found_by,
      resolutionText(vault),
      vault.resolved_by,
      vault.resolved_at,
    ]),
  );
  return toCsv(header, [...fields, ...discrepancies, ...notChecked]);
}

/**
 * A time as the report prints it: in the company's locale (its date order and clock) and the given IANA time zone,
 * which is named: '28.11.2026, 13:05 (Europe/Berlin)' for de-DE, '11/28/2026, 01:05 PM (America/New_York)' for en-US.
 */
export function reportTime(iso: string | null, timeZone: string, locale = 'en-GB'): string {
  if (!iso) return '-';
  const text = new Intl.DateTimeFormat(locale, {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso));
  return `${text} (${timeZone})`;
}

/**
 * The report as an A4 PDF: who and when (in `timeZone`: the browser's, or REPORT_TIME_ZONE; written the way the
 * company's `locale` writes dates), the fields covered with their counts (a field nobody opened says 'not checked'),
 * every discrepancy and its state.
 */
export async function checkReportPdf(
  check: CheckDto,
  timeZone = 'UTC',
  locale = 'en-GB',
): Promise<Uint8Array> {
  const when = (iso: string | null) => reportTime(iso, timeZone, locale);
  const { doc, w } = await pdfOfLines(`Warehouse check ${check.id} - ${check.warehouse_name}`);
  w.line(`Warehouse check ${check.id}: ${check.warehouse_name}`, { size: 18, bold: true });
  w.line(`Started by ${check.started_by ?? '-'} at ${when(check.started_at)}`, { gap: 4 });
  w.line(
    check.finished_at
      ? `Finished by ${check.finished_by ?? '-'} at ${when(check.finished_at)}`
      : check.cancelled_at
        ? `Cancelled by ${check.cancelled_by ?? '-'} at ${when(check.cancelled_at)}`
        : 'Not finished yet',
  );
  if (check.warehouse_deleted_at)
    w.line(
      `The warehouse was deleted at ${when(check.warehouse_deleted_at)}; this report is kept as it stood.`,
    );
  w.line(`Fields covered (${check.fields.length})`, { size: 13, bold: true, gap: 10 });
  for (const f of check.fields)
    w.line(
      f.checked
        ? `${f.name}: expected ${f.expected}, found ${f.found.length}, missing ${f.missing.length}, unexpected ${f.unexpected.length} (checked by ${f.opened_by ?? '-'})`
        : `${f.name}: not checked (${f.expected} expected, not counted)` +
            (f.unexpected.length > 0 ? `, unexpected ${f.unexpected.length}` : ''),
      { indent: 10 },
    );
  const discrepancies = discrepanciesOf(check);
  const unchecked = check.fields.filter((f) => !f.checked);
  if (unchecked.length > 0)
    w.line(
      `${unchecked.length} of ${check.fields.length} ${check.fields.length === 1 ? 'field' : 'fields'} ${unchecked.length === 1 ? 'was' : 'were'} not checked: ${unchecked.length === 1 ? 'its' : 'their'} vaults are neither found nor missing.`,
      { gap: 6 },
    );
  w.line(`Discrepancies (${discrepancies.length})`, { size: 13, bold: true, gap: 10 });
  if (discrepancies.length === 0) w.line('None: every vault was where it was expected.', { indent: 10 });
  for (const { field, vault } of discrepancies) {
    const kind = discrepancyKind(vault);
    const where =
      kind === 'missing'
        ? `expected in ${field}, not found`
        : kind === 'misplaced'
          ? `found in ${field}, expected in ${vault.expected_field_name ?? '?'}`
          : `found in ${field}, not expected there`;
    w.line(
      `${kind.toUpperCase()} ${vaultText(vault)} - ${vault.customer_name}${vault.order_name ? ` (${vault.order_name})` : ''}: ${where}`,
      { indent: 10 },
    );
    w.line(
      `Resolution: ${resolutionText(vault)}${vault.resolved_by ? ` by ${vault.resolved_by} at ${when(vault.resolved_at)}` : ''}`,
      { indent: 24, size: 9 },
    );
  }
  return doc.save();
}
