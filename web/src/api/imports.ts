import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnMapping, ImportKind } from '@domain/rules/import-columns';
import type { ImportDryRunDto, ImportRecordDto } from '@domain/schemas/import.schema';
import { api, uploadWithProgress } from '../lib/api-client';
import { invalidate } from './invalidate';
import { sessionQueries } from './session';
import { getQuery } from './get-query';

export const importQueries = {
  /** the company's latest spreadsheet imports, newest first */
  history: () => getQuery<ImportRecordDto[]>(['imports'], '/api/imports'),
};

/** The company's latest spreadsheet imports, newest first. */
export function useImports() {
  return useQuery(importQueries.history());
}

export interface ImportRequest {
  kind: ImportKind;
  file: File;
  /** absent: the server recognises the headers itself */
  mapping?: ColumnMapping;
  createWarehouses: boolean;
  /** accept vault numbers that repeat (the API accepts them; the import refuses them unless asked) */
  allowRepeatedNumbers: boolean;
}

function importForm({ file, mapping, createWarehouses, allowRepeatedNumbers }: ImportRequest): FormData {
  const form = new FormData();
  if (mapping) form.set('mapping', JSON.stringify(mapping));
  form.set('create_warehouses', createWarehouses ? 'true' : 'false');
  form.set('allow_repeated_numbers', allowRepeatedNumbers ? 'true' : 'false');
  form.set('file', file, file.name);
  return form;
}

/** Checks the file against every rule; writes nothing. */
export function dryRunImport(request: ImportRequest, onProgress: (percent: number) => void) {
  return uploadWithProgress<ImportDryRunDto>(
    `/api/import/${request.kind}/dry-run`,
    importForm(request),
    onProgress,
  );
}

/** Imports every row of the file, or none. */
export function commitImport(request: ImportRequest, onProgress: (percent: number) => void) {
  return uploadWithProgress<ImportRecordDto>(`/api/import/${request.kind}`, importForm(request), onProgress);
}

/** Everything an import changed: the warehouses, the stage, the lists. */
export function useRefreshAfterImport() {
  const client = useQueryClient();
  const session = sessionQueries.session().queryKey[0];
  return () => invalidate(client, { predicate: (query) => query.queryKey[0] !== session });
}

export function useUndoImport() {
  const refresh = useRefreshAfterImport();
  return useMutation({
    mutationFn: (importId: number) => api.post<ImportRecordDto>(`/api/imports/${importId}/undo`),
    onSettled: refresh,
  });
}
