import { describe, expect, it } from 'vitest';
import type { ApiDocument } from '@/api/api-reference';
import { groupByTag, tagHeadingId } from './api-groups';

const document: ApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Warehouse Manager API', version: '1.0.0' },
  paths: {
    '/api/webhooks': {
      get: { tags: ['Webhooks'], summary: "The company's webhook endpoints" },
      post: { tags: ['Webhooks'], summary: 'Register an endpoint' },
    },
    '/api/api-tokens/{id}': { delete: { tags: ['API tokens'], summary: 'Revoke a token' } },
    '/api/api-tokens': { get: { tags: ['API tokens'], summary: "The company's API tokens" } },
    '/api/export/{file}': { get: { tags: ['Import and export'], summary: 'The vaults as CSV or XLSX' } },
    '/api/company-file/jobs': { post: { tags: ['Company file'], summary: 'Start the company file' } },
    '/api/untagged': { get: { summary: 'A route without a tag' } },
  },
};

describe('the API reference groups', () => {
  it('shows every tag once, in name order, with its routes in path order, and untagged routes under Other', () => {
    const groups = groupByTag(document, '');
    expect(groups.map(([tag]) => tag)).toEqual([
      'API tokens',
      'Company file',
      'Import and export',
      'Other',
      'Webhooks',
    ]);
    expect(groups[0]![1].map((entry) => `${entry.method} ${entry.path}`)).toEqual([
      'get /api/api-tokens',
      'delete /api/api-tokens/{id}',
    ]);
    expect(groups.flatMap(([, entries]) => entries)).toHaveLength(7);
  });

  it('gives each tag heading one id without spaces, so a section is labelled by its own heading', () => {
    const ids = groupByTag(document, '').map(([tag]) => tagHeadingId(tag));
    expect(ids).toContain('api-tag-api-tokens');
    expect(ids).toContain('api-tag-import-and-export');
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^api-tag-[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('filters by method, path or summary, dropping the tags left empty', () => {
    expect(groupByTag(document, '  REVOKE ').map(([tag, entries]) => [tag, entries.length])).toEqual([
      ['API tokens', 1],
    ]);
    expect(groupByTag(document, 'post').map(([tag]) => tag)).toEqual(['Company file', 'Webhooks']);
    expect(groupByTag(document, 'nothing like this')).toEqual([]);
  });
});
