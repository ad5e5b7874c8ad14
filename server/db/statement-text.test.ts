import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testEngines } from '../test/test-app';
import { useTestApp } from '../test/use-test-app';
import type { Db } from './database';
import { statementText } from './statement-text';

// one statement shared by every engine of the run, as the app's module-level statements are
const companyNamed = statementText((db: Db, { name, id }: { name: string; id: number }) =>
  db
    .selectNoFrom([sql<string>`${name}`.as('name'), sql<number>`${id} + 1`.as('next')])
    .where(sql<boolean>`${id} > ${sql.lit(0)}`),
);

describe.each(testEngines())('statements made once on %s', (engine) => {
  const { ctx } = useTestApp(engine, { users: 0 });

  it('binds each call its own values, in the order the text wants them', async () => {
    const first = await companyNamed(ctx.database.db, { name: 'first', id: 1 });
    const second = await companyNamed(ctx.database.db, { id: 41, name: 'second' });
    expect(first.rows.map((r) => [r.name, Number(r.next)])).toEqual([['first', 2]]);
    expect(second.rows.map((r) => [r.name, Number(r.next)])).toEqual([['second', 42]]);
    expect((await companyNamed(ctx.database.db, { name: 'none', id: 0 })).rows).toEqual([]);
  });

  it('refuses a builder that writes a value into the text instead of a parameter', () => {
    const wrong = statementText((db: Db, { id }: { id: number }) =>
      db.selectNoFrom(sql<number>`${id}`.as('id')).where(sql<boolean>`${3} > ${id}`),
    );
    expect(() => wrong(ctx.database.db, { id: 1 })).toThrow(/not a parameter/);
  });
});
