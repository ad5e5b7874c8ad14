import { BookOpen } from 'lucide-react';
import { useMemo, useState } from 'react';
import { API_DOCUMENT_URL, type JsonSchemaNode, useApiDocument } from '@/api/api-reference';
import { EmptyState } from '@/components/ui/empty-state';
import { QueryView } from '@/components/ui/query-view';
import { TextInput } from '@/components/ui/form-field';
import { Page } from '@/components/ui/page';
import { useDocumentTitle } from '@/lib/use-document-title';
import { type ApiEntry, groupByTag, tagHeadingId } from '../api-groups';

const METHOD_COLOURS: Record<string, string> = {
  get: 'bg-sky-100 text-sky-800',
  post: 'bg-emerald-100 text-emerald-800',
  put: 'bg-amber-100 text-amber-800',
  patch: 'bg-amber-100 text-amber-800',
  delete: 'bg-red-100 text-red-800',
};

/** A schema in a few words: `integer`, `string[]`, `object`, `"a" | "b"`. */
function typeName(schema: JsonSchemaNode | undefined): string {
  if (!schema) return 'any';
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map(typeName).join(' | ');
  const type = [schema.type ?? 'any'].flat().join(' | ');
  if (type === 'array') return `${typeName(schema.items)}[]`;
  return type;
}

/** The fields of an object schema, one row each, nested objects indented. */
function SchemaFields({ schema, depth = 0 }: { schema: JsonSchemaNode | undefined; depth?: number }) {
  const target = schema?.type === 'array' ? schema.items : schema;
  const properties = Object.entries(target?.properties ?? {});
  if (properties.length === 0) {
    return <p className="text-sm text-slate-600">{typeName(schema)}</p>;
  }
  const required = new Set(target?.required ?? []);
  return (
    <ul className={depth > 0 ? 'ml-4 border-l border-slate-200 pl-3' : ''}>
      {properties.map(([name, property]) => (
        <li key={name} className="py-0.5 text-sm">
          <code className="font-mono text-slate-800">{name}</code>
          <span className="ml-2 text-slate-500">{typeName(property)}</span>
          {!required.has(name) && <span className="ml-2 text-xs text-slate-400">optional</span>}
          {property.description && <span className="ml-2 text-slate-500">{property.description}</span>}
          {depth < 2 && (property.properties || property.items?.properties) && (
            <SchemaFields schema={property} depth={depth + 1} />
          )}
        </li>
      ))}
    </ul>
  );
}

function OperationDetails({ entry }: { entry: ApiEntry }) {
  const { operation } = entry;
  const body = Object.entries(operation.requestBody?.content ?? {});
  const answers = Object.entries(operation.responses ?? {});
  return (
    <div className="space-y-3 border-t border-slate-100 px-4 py-3">
      {operation.parameters && operation.parameters.length > 0 && (
        <section>
          <h4 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Parameters</h4>
          <ul>
            {operation.parameters.map((p) => (
              <li key={`${p.in}-${p.name}`} className="py-0.5 text-sm">
                <code className="font-mono text-slate-800">{p.name}</code>
                <span className="ml-2 text-slate-500">
                  {p.in}, {typeName(p.schema)}
                  {!p.required && ', optional'}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {body.map(([type, content]) => (
        <section key={type}>
          <h4 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Body ({type})</h4>
          <SchemaFields schema={content.schema} />
        </section>
      ))}
      {answers.map(([status, answer]) => (
        <section key={status}>
          <h4 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
            Answer {status}
            {Object.keys(answer.content ?? {}).length > 0 &&
              ` (${Object.keys(answer.content ?? {}).join(', ')})`}
          </h4>
          {Object.values(answer.content ?? {}).map((content, index) => (
            <SchemaFields key={index} schema={content.schema} />
          ))}
        </section>
      ))}
    </div>
  );
}

function OperationRow({ entry }: { entry: ApiEntry }) {
  const role = entry.operation['x-role'];
  return (
    <details className="group rounded-lg border border-slate-200 bg-white">
      <summary className="flex cursor-pointer list-none flex-wrap items-center gap-3 px-4 py-3 pointer-coarse:min-h-11">
        <span
          className={`w-16 rounded px-2 py-0.5 text-center font-mono text-xs font-semibold uppercase ${METHOD_COLOURS[entry.method] ?? 'bg-slate-100 text-slate-700'}`}
        >
          {entry.method}
        </span>
        <code className="font-mono text-sm break-all text-slate-800">{entry.path}</code>
        <span className="text-sm text-slate-600">{entry.operation.summary}</span>
        {role && (
          <span className="ml-auto rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600">
            {role === 'public' ? 'no sign-in' : role}
          </span>
        )}
      </summary>
      <OperationDetails entry={entry} />
    </details>
  );
}

/** The API reference (issue 31): the server's OpenAPI document, read for people, for Managers. */
export default function ApiReferencePage() {
  useDocumentTitle('API reference');
  const document = useApiDocument();
  const [filter, setFilter] = useState('');
  const groups = useMemo(
    () => (document.data ? groupByTag(document.data, filter) : []),
    [document.data, filter],
  );

  return (
    <Page
      title="API reference"
      actions={
        <a
          href={API_DOCUMENT_URL}
          download="openapi.json"
          className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 pointer-coarse:min-h-11"
        >
          Download OpenAPI document
        </a>
      }
    >
      <QueryView query={document} loading="Loading the API reference...">
        {(api) => (
          <div className="space-y-6">
            <p className="max-w-3xl text-sm text-slate-600">{api.info.description}</p>
            <label className="block max-w-md">
              <span className="mb-1 block text-sm font-medium text-slate-700">Filter routes</span>
              <TextInput type="search" value={filter} onValue={setFilter} placeholder="e.g. vaults or POST" />
            </label>
            {groups.length === 0 ? (
              <EmptyState icon={BookOpen} title="No route matches">
                Try another word, or clear the filter.
              </EmptyState>
            ) : (
              groups.map(([tag, entries]) => (
                <section key={tag} aria-labelledby={tagHeadingId(tag)}>
                  <h2 id={tagHeadingId(tag)} className="mb-2 text-lg font-semibold text-primary">
                    {tag}
                  </h2>
                  <div className="space-y-2">
                    {entries.map((entry) => (
                      <OperationRow key={`${entry.method} ${entry.path}`} entry={entry} />
                    ))}
                  </div>
                </section>
              ))
            )}
          </div>
        )}
      </QueryView>
    </Page>
  );
}
