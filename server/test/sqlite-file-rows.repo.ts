import SQLite from 'better-sqlite3';

/** Every row of every table of a SQLite database file, read-only, in a stable order: to compare two files row by row. */
export function sqliteFileRows(file: string): Record<string, unknown[]> {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare(
        `select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`,
      )
      .pluck()
      .all() as string[];
    const rows: Record<string, unknown[]> = {};
    for (const table of tables) {
      rows[table] = db.prepare(`select * from "${table.replace(/"/g, '""')}" order by rowid`).all();
    }
    return rows;
  } finally {
    db.close();
  }
}
