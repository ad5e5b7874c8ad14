import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { declareRoutes } from '../http/declared-routes';
import { roleOf } from '../auth/route-roles';
import { TOKEN_NOT_ACCEPTED, tokenRefusedOn } from '../auth/session.plugin';
import { testEngines } from './test-app';
import { apiRoutes } from './route-table';
import { useTestApp } from './use-test-app';

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  minimum?: number;
  maxLength?: number;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
}
type Security = Record<string, string[]>[];
interface Operation {
  tags?: string[];
  security?: Security;
  summary?: string;
  'x-role'?: string;
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
}
type OpenApiDocument = {
  openapi: string;
  info: { description: string };
  paths: Record<string, Record<string, Operation>>;
  security: Security;
  components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
};

/** `/api/vaults/:id` as the document writes it: `/api/vaults/{id}`. */
const documentPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** A value a client generated from the document would send for this schema: the smallest the schema allows. */
function exampleOf(schema: JsonSchema, name: string): unknown {
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return exampleOf(schema.anyOf[0]!, name);
  const type = [schema.type].flat()[0];
  if (type === 'object') {
    return Object.fromEntries(
      (schema.required ?? []).map((key) => [key, exampleOf(schema.properties?.[key] ?? {}, key)]),
    );
  }
  if (type === 'integer' || type === 'number') return Math.max(schema.minimum ?? 1, 1);
  if (type === 'boolean') return false;
  if (type === 'array') return [];
  return `Client ${name} ${Date.now().toString(36)}`.slice(0, schema.maxLength ?? 80);
}

describe.each(testEngines())('the declared API on %s', (engine) => {
  const { ctx, user } = useTestApp(engine, { users: 1 });

  const fetchDocument = async () => {
    const res = await user.request({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    return res.json<OpenApiDocument>();
  };

  it('declares every API route: its answer, and its path params when it has any', () => {
    const missing: string[] = [];
    for (const route of apiRoutes(ctx.app)) {
      const schema = ctx.app.routeTable.find((r) => r.method === route.method && r.url === route.url)?.schema;
      const lacks = [
        ...(schema?.response ? [] : ['response']),
        ...(route.params.length > 0 && !schema?.params ? ['params'] : []),
      ];
      if (lacks.length > 0) missing.push(`${route.key} declares no ${lacks.join(' and no ')}`);
    }
    expect(missing).toEqual([]);
  });

  it('serves an OpenAPI 3.1 document that validates, with every declared route and its role', async () => {
    const document = await fetchDocument();
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
    const absent: string[] = [];
    for (const route of apiRoutes(ctx.app)) {
      const operation = document.paths[documentPath(route.url)]?.[route.method.toLowerCase()];
      if (!operation) absent.push(route.key);
      else {
        expect(operation['x-role'], route.key).toBe(roleOf(route.method, route.url));
        expect(operation.tags?.length, `${route.key} has a tag`).toBeGreaterThan(0);
        expect(operation.summary, `${route.key} has a summary`).toBeTruthy();
      }
    }
    expect(absent).toEqual([]);
    // the web app's own pages are not part of the API
    expect(Object.keys(document.paths).every((path) => path.startsWith('/api/'))).toBe(true);
  });

  it('refuses a signed-out caller the document', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(401);
  });

  it('works for a client built from the document alone: a POST from its body schema, its answer checked', async () => {
    const document = await fetchDocument();
    const operation = document.paths['/api/warehouse/add-warehouse']!.post!;
    const bodySchema = operation.requestBody!.content['application/json']!.schema;
    // the smallest numbers, but a floor not measured yet: a measured one must hold the grid, as length and width say
    const body: Record<string, unknown> = {
      ...(exampleOf(bodySchema, 'name') as object),
      length: 0,
      width: 0,
    };
    expect(Object.keys(body).sort()).toEqual(
      ['cols', 'field_capacity', 'length', 'name', 'rows', 'width'].sort(),
    );
    const res = await user.request({ method: 'POST', url: '/api/warehouse/add-warehouse', payload: body });
    expect(res.statusCode, res.body).toBe(201);
    const answerSchema = operation.responses['201']!.content!['application/json']!.schema;
    const ajv = new Ajv2020({ strict: false });
    const valid = ajv.validate(answerSchema, res.json());
    expect(ajv.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    expect(res.json()).toMatchObject({ name: body.name, rows: body.rows, cols: body.cols });
    // and the same client's read of what it made, by the path the document names
    const readOperation = document.paths['/api/warehouse/{id}']!.get!;
    expect(readOperation.parameters?.map((p) => `${p.in}:${p.name}`)).toEqual(['path:id']);
    const read = await user.request({
      method: 'GET',
      url: `/api/warehouse/${res.json<{ id: number }>().id}`,
    });
    expect(
      ajv.validate(readOperation.responses['200']!.content!['application/json']!.schema, read.json()),
    ).toBe(true);
  });

  it('works for a program with an API token: the scheme the document names, the token made and used by its operations', async () => {
    const document = await fetchDocument();
    const ajv = new Ajv2020({ strict: false });
    const answerOf = (operation: Operation, status: string) =>
      operation.responses[status]!.content!['application/json']!.schema;
    // the document says how a program signs its calls: an HTTP bearer scheme, allowed wherever no operation says less
    const bearer = Object.entries(document.components.securitySchemes).find(
      ([, scheme]) => scheme.type === 'http' && scheme.scheme === 'bearer',
    )?.[0];
    expect(bearer).toBeDefined();
    expect(document.security).toContainEqual({ [bearer!]: [] });
    // and where a reader makes one: the web app has no API page, its tokens are a section of the Team page
    expect(document.info.description).toContain(
      'a Manager creates in the API tokens section of the Team page',
    );
    expect(document.info.description).not.toContain('API page');
    const tokenOpens = (operation: Operation) =>
      (operation.security ?? document.security).some((requirement) => bearer! in requirement);
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        if (tokenRefusedOn(path)) expect(tokenOpens(operation), `${method} ${path}`).toBe(false);
        else if (operation['x-role'] !== 'public')
          expect(tokenOpens(operation), `${method} ${path}`).toBe(true);
      }
    }

    // a Manager makes a Manager's token through the document's operation; its secret is in the answer, once
    const create = document.paths['/api/api-tokens']!.post!;
    const createSchema = create.requestBody!.content['application/json']!.schema;
    expect(createSchema.properties!.role!.enum).toContain('manager');
    const tokenBody = { ...(exampleOf(createSchema, 'name') as object), role: 'manager' };
    const made = await user.request({ method: 'POST', url: '/api/api-tokens', payload: tokenBody });
    expect(made.statusCode, made.body).toBe(201);
    expect(ajv.validate(answerOf(create, '201'), made.json()), JSON.stringify(ajv.errors)).toBe(true);
    const { secret } = made.json<{ secret: string }>();
    const withToken = (options: { method: 'GET' | 'POST'; url: string; payload?: object }) =>
      ctx.app.inject({ ...options, headers: { authorization: `Bearer ${secret}` } });

    // the program, with the token alone: a write from the document's body schema, and the read of what it made
    const add = document.paths['/api/warehouse/add-warehouse']!.post!;
    const body = {
      ...(exampleOf(add.requestBody!.content['application/json']!.schema, 'name') as object),
      length: 0,
      width: 0,
    };
    const added = await withToken({ method: 'POST', url: '/api/warehouse/add-warehouse', payload: body });
    expect(added.statusCode, added.body).toBe(201);
    expect(ajv.validate(answerOf(add, '201'), added.json()), JSON.stringify(ajv.errors)).toBe(true);
    const read = await withToken({ method: 'GET', url: `/api/warehouse/${added.json<{ id: number }>().id}` });
    expect(read.statusCode, read.body).toBe(200);
    expect(
      ajv.validate(answerOf(document.paths['/api/warehouse/{id}']!.get!, '200'), read.json()),
      JSON.stringify(ajv.errors),
    ).toBe(true);
    // and where the document names a session only, the token is refused
    const session = await withToken({ method: 'GET', url: '/api/auth/' });
    expect(session.statusCode).toBe(401);
    expect(session.json()).toEqual({ errors: [TOKEN_NOT_ACCEPTED] });
  });

  it('refuses input that does not match a declaration before the handler, in the API error shape', async () => {
    const bad = await user.request({
      method: 'POST',
      url: '/api/warehouse/add-warehouse',
      payload: { name: 'No grid', rows: 'many' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      errors: expect.arrayContaining([
        'rows: Rows must be a whole number.',
        'cols: Cols must be a whole number.',
      ]),
    });
    const badId = await user.request({ method: 'GET', url: '/api/warehouse/0x4' });
    expect(badId.statusCode).toBe(404);
    expect(badId.json()).toEqual({ errors: ['Warehouse not found'] });
  });
});

describe('checked answers', () => {
  const answerApp = async (check: boolean) => {
    const app = Fastify({ logger: false });
    declareRoutes(app, { check });
    const schema = { response: { 200: z.object({ count: z.number().int() }) } };
    app.get('/wrong', { schema }, async () => ({ count: 'three' }));
    app.get('/right', { schema }, async () => ({ count: 3 }));
    await app.ready();
    return app;
  };

  it('fails loudly, naming the route and the field, when an answer does not match its declaration', async () => {
    const app = await answerApp(true);
    try {
      const wrong = await app.inject({ method: 'GET', url: '/wrong' });
      expect(wrong.statusCode).toBe(500);
      expect(wrong.body).toMatch(/GET \/wrong \(200\).*count:/);
      const right = await app.inject({ method: 'GET', url: '/right' });
      expect(right.statusCode).toBe(200);
      expect(right.json()).toEqual({ count: 3 });
    } finally {
      await app.close();
    }
  });

  it('sends the answer unchecked, as it is, when checking is off (production)', async () => {
    const app = await answerApp(false);
    try {
      const wrong = await app.inject({ method: 'GET', url: '/wrong' });
      expect(wrong.statusCode).toBe(200);
      expect(wrong.json()).toEqual({ count: 'three' });
    } finally {
      await app.close();
    }
  });
});
