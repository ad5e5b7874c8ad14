import { isPostgres } from './locks';
import { type Compilable, CompiledQuery, type Kysely, type QueryResult, type RawBuilder } from 'kysely';

/** Where a named parameter stands while a statement's text is made: Kysely passes it through as a value. */
class Slot {
  constructor(readonly name: string) {}
}

/**
 * A statement whose text is made once and then only bound (decision 014). Building and compiling a large Kysely
 * query costs a hot write more CPU than running it, and the text never changes: the query is built once with a
 * placeholder for each named parameter, and each call binds the parameters in the order the text wants them. The
 * builder must use each parameter as a plain value (a list as one array parameter, e.g. `= any(...)`), never decide
 * on it in JavaScript; `variant` names each distinct text when the caller's shape changes it.
 */
export function statementText<P extends Record<string, unknown>, DB, R>(
  build: (db: Kysely<DB>, params: P, variant: string) => Compilable<R> | RawBuilder<R>,
): (db: Kysely<DB>, params: P, variant?: string) => Promise<QueryResult<R>> {
  const texts = new Map<string, { sql: string; order: string[] }>();
  return (db, params, variant = '') => {
    // the engines write parameters differently: one text per engine
    const key = `${isPostgres(db) ? 'postgres' : 'sqlite'} ${variant}`;
    let text = texts.get(key);
    if (text === undefined) {
      const slots = Object.fromEntries(Object.keys(params).map((name) => [name, new Slot(name)])) as P;
      const query = build(db, slots, variant);
      const compiled = 'isRawBuilder' in query ? query.compile(db) : query.compile();
      const order = compiled.parameters.map((parameter) => {
        if (!(parameter instanceof Slot))
          throw new Error(`a statement text has a value that is not a parameter`);
        return parameter.name;
      });
      text = { sql: compiled.sql, order };
      texts.set(key, text);
    }
    const { sql, order } = text;
    return db.executeQuery(
      CompiledQuery.raw(
        sql,
        order.map((name) => params[name]),
      ),
    );
  };
}
