import { Download, FileUp, Undo2 } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { toast } from 'sonner';
import {
  type ColumnMapping,
  IMPORT_COLUMN_LABELS,
  type ImportKind,
  REQUIRED_COLUMNS,
  VAULT_ACCOUNT_COLUMNS,
  type VaultImportColumn,
  importColumns,
} from '@domain/rules/import-columns';
import type { ImportDryRunDto, ImportRecordDto } from '@domain/schemas/import.schema';
import { commitImport, dryRunImport, useImports, useRefreshAfterImport, useUndoImport } from '@/api/imports';
import { Button, buttonClass } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ErrorList } from '@/components/ui/error-list';
import { Page } from '@/components/ui/page';
import { ProgressBar } from '@/components/ui/progress-bar';
import { fileInputClass } from '@/components/ui/form-field';
import { errorMessages } from '@/lib/api-client';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useFormat } from '@/lib/format';

type Busy = { label: string; percent: number } | null;

function DownloadLink({ href, children }: { href: string; children: string }) {
  return (
    <a href={href} download className={buttonClass('secondary')}>
      <Download className="size-4" aria-hidden />
      {children}
    </a>
  );
}

/** The mapping step: which header of the file each column is read from. */
function MappingStep({
  kind,
  headers,
  mapping,
  onChange,
}: {
  kind: ImportKind;
  headers: string[];
  mapping: ColumnMapping;
  onChange: (mapping: ColumnMapping) => void;
}) {
  const id = useId();
  const accountColumns: readonly string[] = VAULT_ACCOUNT_COLUMNS;
  const columns = importColumns(kind);
  const select = (column: string) => (
    <div key={column}>
      <label htmlFor={`${id}-${column}`} className="text-sm font-medium text-slate-700">
        {IMPORT_COLUMN_LABELS[column as VaultImportColumn]}
        {REQUIRED_COLUMNS[kind].includes(column) ? ' (required)' : ''}
      </label>
      <select
        id={`${id}-${column}`}
        className="mt-1 block min-h-10 w-full rounded-lg border border-slate-300 bg-white px-2 text-sm pointer-coarse:min-h-11"
        value={mapping[column] ?? ''}
        onChange={(event) => {
          const next = { ...mapping };
          if (event.target.value === '') delete next[column];
          else next[column] = event.target.value;
          onChange(next);
        }}
      >
        <option value="">(not in the file)</option>
        {headers.map((header) => (
          <option key={header} value={header}>
            {header}
          </option>
        ))}
      </select>
    </div>
  );
  const accounts = columns.filter((c) => accountColumns.includes(c));
  return (
    <fieldset className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <legend className="px-1 font-semibold text-slate-800">Columns</legend>
      <p className="mb-3 text-sm text-slate-600">
        Each column of the import is read from the header chosen here; the ones recognised are chosen already.
      </p>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {columns.filter((c) => !accountColumns.includes(c)).map(select)}
      </div>
      {accounts.length > 0 && (
        <fieldset className="mt-4 border-t border-slate-200 pt-3">
          <legend className="font-medium text-slate-800">Storage accounts (optional)</legend>
          <p className="mb-3 text-sm text-slate-600">
            An order whose rows give an account kind (Permanent or SIT) gets its storage account with the
            import, billed to the order&apos;s customer. Dates are written as text, YYYY-MM-DD.
          </p>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">{accounts.map(select)}</div>
        </fieldset>
      )}
    </fieldset>
  );
}

function DryRunResult({ result }: { result: ImportDryRunDto }) {
  const problems = result.problems;
  return (
    <section aria-labelledby="dry-run-title" className="space-y-3">
      <h2 id="dry-run-title" className="text-lg font-semibold text-slate-800">
        Check of {result.file_name}
      </h2>
      <p className="text-sm text-slate-700" data-testid="dry-run-summary">
        {result.kind === 'pallets'
          ? `${result.row_count} rows: ${result.placed_count} pallets onto their shelves`
          : `${result.row_count} rows: ${result.placed_count} into fields, ${result.staged_count} to the stage`}
        {result.account_count > 0 &&
          `; ${result.account_count} storage ${result.account_count === 1 ? 'account' : 'accounts'} opened for their orders`}
        {result.new_warehouses.length > 0 &&
          `; new warehouses: ${result.new_warehouses
            .map((w) => `${w.name} (${w.cols} columns x ${w.rows} rows, ${w.field_capacity} slots)`)
            .join(', ')}`}
        .
      </p>
      {problems.length === 0 ? (
        <p className="rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-800">
          No problems found. Nothing has been written yet.
        </p>
      ) : (
        <>
          <p role="alert" className="text-sm font-semibold text-red-700">
            {problems.length} {problems.length === 1 ? 'problem' : 'problems'}: nothing will be imported until
            the file is fixed. Fix them in the spreadsheet and choose the file again.
          </p>
          <ProblemTable label="Problems" rows={problems} />
        </>
      )}
      {result.warnings.length > 0 && (
        <>
          <p className="text-sm font-semibold text-amber-800">
            {result.warnings.length} {result.warnings.length === 1 ? 'note' : 'notes'} (the import goes
            ahead):
          </p>
          <ProblemTable label="Notes" rows={result.warnings} />
        </>
      )}
    </section>
  );
}

function ProblemTable({ label, rows }: { label: string; rows: ImportDryRunDto['problems'] }) {
  return (
    <div className="max-h-96 overflow-auto rounded-xl border border-slate-200 bg-white">
      <table className="w-full text-left text-sm" aria-label={label}>
        <thead className="sticky top-0 bg-slate-50 text-slate-700">
          <tr>
            <th className="px-3 py-2">Row</th>
            <th className="px-3 py-2">Column</th>
            <th className="px-3 py-2">{label === 'Problems' ? 'Problem' : 'Note'}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((p, i) => (
            <tr key={i} className="border-t border-slate-100">
              <td className="px-3 py-2 tabular-nums">{p.row}</td>
              <td className="px-3 py-2">{p.column}</td>
              <td className="px-3 py-2">{p.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What an import wrote, counted for people: '12 vaults', '1 pallet'. */
function importedCount(record: ImportRecordDto, format: ReturnType<typeof useFormat>): string {
  const count = record.placed_count + record.staged_count;
  return record.kind === 'pallets' ? format.count(count, 'pallet') : format.count(count, 'vault');
}

function ImportHistory() {
  const imports = useImports();
  const undo = useUndoImport();
  const format = useFormat();
  const [confirming, setConfirming] = useState<ImportRecordDto | null>(null);
  const list = imports.data ?? [];
  if (list.length === 0) return null;

  const doUndo = () => {
    if (!confirming) return;
    const record = confirming;
    undo.mutate(record.id, {
      onSuccess: () => {
        setConfirming(null);
        toast.success(`Import of ${record.file_name} undone`);
      },
      // the server's reason shows above the list
      onError: () => setConfirming(null),
    });
  };

  return (
    <section aria-labelledby="history-title" className="space-y-3">
      <h2 id="history-title" className="text-lg font-semibold text-slate-800">
        Earlier imports
      </h2>
      <ErrorList messages={undo.isError ? errorMessages(undo.error) : []} />
      <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
        {list.map((record: ImportRecordDto) => (
          <li key={record.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
            <span>
              <span className="font-semibold">{record.file_name}</span> · {importedCount(record, format)} ·{' '}
              {record.username ?? 'someone'} · {format.dateTime(record.created_at)}
              {record.undone_at && ` · undone ${format.dateTime(record.undone_at)}`}
            </span>
            {!record.undone_at && record.can_undo && (
              <Button
                variant="secondary"
                disabled={undo.isPending}
                onClick={() => setConfirming(record)}
                aria-label={`Undo the import of ${record.file_name}`}
              >
                <Undo2 className="size-4" aria-hidden />
                Undo
              </Button>
            )}
            {!record.undone_at && !record.can_undo && record.undo_refusal && (
              <span className="max-w-md text-slate-500">Can no longer be undone: {record.undo_refusal}</span>
            )}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open && !undo.isPending) setConfirming(null);
        }}
        title="Undo import"
        message={
          confirming
            ? `Undo the import of ${confirming.file_name}? This removes the ${importedCount(confirming, format)} it brought in.`
            : ''
        }
        confirmLabel="Yes, undo it"
        cancelLabel="No, keep them"
        onConfirm={doUndo}
        pending={undo.isPending}
        danger
      />
    </section>
  );
}

/** /import: a spreadsheet of vaults in, checked row by row before anything is written. */
export default function ImportPage() {
  useDocumentTitle('Import');
  const fileId = useId();
  const [kind, setKind] = useState<ImportKind>('vaults');
  const [file, setFile] = useState<File | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping | undefined>(undefined);
  const [createWarehouses, setCreateWarehouses] = useState(false);
  const [allowRepeatedNumbers, setAllowRepeatedNumbers] = useState(false);
  const options = { createWarehouses, allowRepeatedNumbers };
  const [result, setResult] = useState<ImportDryRunDto | null>(null);
  const [imported, setImported] = useState<ImportRecordDto | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState<Busy>(null);
  const refresh = useRefreshAfterImport();

  const check = async (
    chosen: File,
    withMapping: ColumnMapping | undefined,
    choices: { createWarehouses: boolean; allowRepeatedNumbers: boolean },
  ) => {
    setErrors([]);
    setImported(null);
    setBusy({ label: 'Checking the file', percent: 0 });
    try {
      const answer = await dryRunImport({ kind, file: chosen, mapping: withMapping, ...choices }, (percent) =>
        setBusy({ label: 'Checking the file', percent }),
      );
      setResult(answer);
      setMapping(answer.mapping);
    } catch (error) {
      setResult(null);
      setErrors(errorMessages(error));
    } finally {
      setBusy(null);
    }
  };

  const commit = async () => {
    if (!file) return;
    setErrors([]);
    setBusy({ label: 'Importing', percent: 0 });
    try {
      const record = await commitImport({ kind, file, mapping, ...options }, (percent) =>
        setBusy({ label: 'Importing', percent }),
      );
      setImported(record);
      setResult(null);
      setFile(null);
      await refresh();
    } catch (error) {
      setErrors(errorMessages(error));
    } finally {
      setBusy(null);
    }
  };

  // a file chosen again (fixed) keeps the chosen mapping while its headers still name every chosen column
  const keepMapping = (headers: string[]) =>
    mapping && Object.values(mapping).every((h) => h === undefined || headers.includes(h))
      ? mapping
      : undefined;

  return (
    <Page
      title="Import"
      actions={
        <div className="flex flex-wrap gap-2">
          <DownloadLink href={`/api/import/templates/${kind}.csv`}>Template (CSV)</DownloadLink>
          <DownloadLink href={`/api/import/templates/${kind}.xlsx`}>Template (XLSX)</DownloadLink>
          <DownloadLink href={`/api/export/${kind}.xlsx`}>{`All ${kind} (XLSX)`}</DownloadLink>
          <DownloadLink href={`/api/export/${kind}.csv`}>{`All ${kind} (CSV)`}</DownloadLink>
        </div>
      }
    >
      <div className="space-y-6">
        <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
          <fieldset className="mb-3 flex flex-wrap gap-4 text-sm">
            <legend className="mb-1 font-semibold text-slate-800">The file holds</legend>
            {(['vaults', 'pallets'] as const).map((option) => (
              <label key={option} className="flex min-h-10 items-center gap-2 pointer-coarse:min-h-11">
                <input
                  type="radio"
                  name="import-kind"
                  className="size-4"
                  checked={kind === option}
                  onChange={() => {
                    setKind(option);
                    setResult(null);
                    setMapping(undefined);
                    setFile(null);
                  }}
                />
                {option === 'vaults' ? 'Vaults' : 'Pallets'}
              </label>
            ))}
          </fieldset>
          <label htmlFor={fileId} className="block font-semibold text-slate-800">
            Spreadsheet of {kind} (CSV or XLSX, at most 5 MB)
          </label>
          <p className="mb-3 text-sm text-slate-600">
            {kind === 'vaults'
              ? 'Columns: warehouse, field, position, vault number, customer, order, type, note. Rows without a field go to the stage.'
              : 'Columns: warehouse, rack, shelf (1 is the top), slot (1 is the first; empty: the first free), customer, pallet name, pallet number, spaces, weight, notes.'}{' '}
            Nothing is written until you press Import.
          </p>
          <input
            id={fileId}
            type="file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            className={fileInputClass}
            onChange={(event) => {
              const chosen = event.target.files?.[0] ?? null;
              event.target.value = '';
              setFile(chosen);
              if (chosen) void check(chosen, result ? keepMapping(result.headers) : undefined, options);
            }}
          />
          <Checkbox className="mt-3" checked={createWarehouses} onChange={setCreateWarehouses}>
            {kind === 'vaults'
              ? 'Create warehouses the file names but this company does not have yet (sized to the file)'
              : 'Create racks the file describes (Rack Shelves, Shelf Capacity, size) but the warehouse does not have yet'}
          </Checkbox>
          {kind === 'vaults' && (
            <Checkbox className="mt-1" checked={allowRepeatedNumbers} onChange={setAllowRepeatedNumbers}>
              Allow vault numbers that repeat (in the file or among the vaults already here)
            </Checkbox>
          )}
        </div>

        {busy && <ProgressBar label={busy.label} percent={busy.percent} />}
        <ErrorList messages={errors} />
        {imported && (
          <p
            role="status"
            className="rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-800"
          >
            {imported.kind === 'pallets'
              ? `Imported ${imported.placed_count} pallets from ${imported.file_name}.`
              : `Imported ${imported.placed_count + imported.staged_count} vaults from ${imported.file_name} (${imported.placed_count} into fields, ${imported.staged_count} to the stage).`}
          </p>
        )}

        {result && file && (
          <>
            <MappingStep kind={kind} headers={result.headers} mapping={mapping ?? {}} onChange={setMapping} />
            <div className="flex flex-wrap gap-2">
              <Button
                variant="secondary"
                disabled={busy !== null}
                onClick={() => void check(file, mapping, options)}
              >
                Check again
              </Button>
              <Button
                disabled={
                  busy !== null ||
                  result.problems.length > 0 ||
                  result.placed_count + result.staged_count === 0
                }
                onClick={() => void commit()}
              >
                <FileUp className="size-4" aria-hidden />
                Import {result.placed_count + result.staged_count} {kind}
              </Button>
            </div>
            <DryRunResult result={result} />
          </>
        )}
        <ImportHistory />
      </div>
    </Page>
  );
}

/** One of the import's options: a checkbox with its sentence. */
function Checkbox({
  checked,
  onChange,
  className,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  className: string;
  children: ReactNode;
}) {
  return (
    <label
      className={`${className} flex min-h-10 items-center gap-2 text-sm text-slate-700 pointer-coarse:min-h-11`}
    >
      <input
        type="checkbox"
        className="size-4"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      {children}
    </label>
  );
}
