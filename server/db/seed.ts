import type { Db } from './database';

// The demo company's sign-in; server/demo-seed.ts fills it with demo data.
export const DEMO_LOGIN = {
  company: 'Demo Moving & Storage',
  email: 'demo@warehouse.test',
  password: 'demo-warehouse-2026',
};

export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const row = await db.selectFrom('companies').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}
