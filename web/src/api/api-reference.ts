import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../lib/api-client';

/** A JSON Schema as the API's OpenAPI document writes it (only what the reference page reads). */
export interface JsonSchemaNode {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  items?: JsonSchemaNode;
  enum?: unknown[];
  anyOf?: JsonSchemaNode[];
  oneOf?: JsonSchemaNode[];
  additionalProperties?: JsonSchemaNode | boolean;
  const?: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  $ref?: string;
}

export interface ApiOperation {
  summary?: string;
  description?: string;
  tags?: string[];
  'x-role'?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchemaNode }[];
  requestBody?: { content: Record<string, { schema?: JsonSchemaNode }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: JsonSchemaNode }> }>;
}

export interface ApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, ApiOperation>>;
}

export const API_DOCUMENT_URL = '/api/openapi.json';

export const apiReferenceQueries = {
  /** the API's OpenAPI 3.1 document; it changes only with a new version of the server */
  document: () =>
    queryOptions({
      queryKey: ['api-reference'] as const,
      queryFn: () => api.get<ApiDocument>(API_DOCUMENT_URL),
      staleTime: Infinity,
    }),
};

export function useApiDocument() {
  return useQuery(apiReferenceQueries.document());
}
