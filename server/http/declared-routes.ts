import type {
  FastifyError,
  FastifyInstance,
  FastifySchemaCompiler,
  FastifySerializerCompiler,
} from 'fastify';
import type { z } from 'zod';
import { HttpError, describeIssue } from './errors';

/**
 * Declared routes (issue 31, decision 045): every API route names its params, query, body and answer with zod
 * schemas from `domain/schemas/`. The validator below refuses bad input before the handler runs, in the answer shape
 * `parseInput` and `parseId` always gave: a body or query mismatch is a 400 with one message per problem, a path id
 * that names nothing is a 404 with the resource's own words.
 */

/** Bodies a handler reads itself from a stream (multipart uploads and forms): declared for the document only. */
const readByHandler = new WeakSet<object>();

/**
 * A form body the handler reads from the request (multipart or JSON) and checks with `parseInput`: it appears in
 * the OpenAPI document with its fields, but the validator leaves it to the handler, since a multipart body is not
 * read before the handler runs.
 */
export function formBody(schema: z.ZodType, description: string): z.ZodType<unknown> {
  const declared = schema.describe(description);
  readByHandler.add(declared);
  return declared;
}

export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  if (readByHandler.has(schema)) return (data) => ({ value: data });
  return (data) => {
    // as parseInput did: no body at all is read as an empty one, so its fields are named as missing
    const result = schema.safeParse(httpPart === 'body' ? (data ?? {}) : data);
    if (result.success) return { value: result.data };
    if (httpPart === 'params') {
      // an id that is not a plain positive number cannot name anything of the caller's
      return { error: new HttpError(404, [result.error.issues[0]?.message ?? 'Not found']) };
    }
    return { error: new HttpError(400, result.error.issues.map(describeIssue)) };
  };
};

/** An answer that does not match its route's declared schema (only looked for when answers are checked). */
export class AnswerMismatch extends Error {
  readonly statusCode = 500;
  constructor(
    readonly route: string,
    readonly problems: string[],
  ) {
    super(`The answer of ${route} does not match its declared schema: ${problems.join('; ')}`);
  }
}

/**
 * Answers are written with JSON.stringify in every mode, so what a client receives never depends on the mode;
 * with `check` (tests, CHECK_RESPONSES) each answer is first parsed with its declared schema and a mismatch fails the
 * request loudly (500 naming the problems). Production skips the check: the schemas were proven by the tests and a
 * check per answer costs time on the hot reads (decision 045).
 */
export function answerSerializer(check: boolean): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url, httpStatus }) =>
    (data) => {
      if (check) {
        const result = schema.safeParse(data);
        if (!result.success) {
          throw new AnswerMismatch(
            `${method} ${url} (${httpStatus})`,
            result.error.issues.map(describeIssue),
          );
        }
      }
      return JSON.stringify(data);
    };
}

/** Sets the compilers on the app; `check` turns on the answer check. */
export function declareRoutes(app: FastifyInstance, { check }: { check: boolean }) {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializer(check));
}

export function isAnswerMismatch(error: FastifyError | Error): error is AnswerMismatch {
  return error instanceof AnswerMismatch;
}
