import type { ApiDocument, ApiOperation } from '@/api/api-reference';

export interface ApiEntry {
  method: string;
  path: string;
  operation: ApiOperation;
}

/** The document's operations grouped by their first tag, groups and routes in name order. */
export function groupByTag(document: ApiDocument, filter: string): [string, ApiEntry[]][] {
  const wanted = filter.trim().toLowerCase();
  const groups = new Map<string, ApiEntry[]>();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const text = `${method} ${path} ${operation.summary ?? ''}`.toLowerCase();
      if (wanted && !text.includes(wanted)) continue;
      const tag = operation.tags?.[0] ?? 'Other';
      groups.set(tag, [...(groups.get(tag) ?? []), { method, path, operation }]);
    }
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([tag, entries]) => [tag, entries.sort((a, b) => a.path.localeCompare(b.path))]);
}

/**
 * A tag's heading id: tags may be several words ("API tokens"), and an id with a space would name two ids in the
 * section's aria-labelledby.
 */
export const tagHeadingId = (tag: string) =>
  `api-tag-${tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}`;
