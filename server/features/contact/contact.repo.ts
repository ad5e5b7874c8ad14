import type { Db } from '../../db/database';

export interface ContactMessageRow {
  id: number;
  name: string;
  company: string | null;
  email: string;
  message: string;
  created_at: string;
}

export async function insertContactMessage(
  db: Db,
  values: {
    name: string;
    company: string | null;
    email: string;
    message: string;
    ip: string;
    createdAt: string;
  },
): Promise<number> {
  const row = await db
    .insertInto('contact_messages')
    .values({
      name: values.name,
      company: values.company,
      email: values.email,
      message: values.message,
      ip: values.ip,
      created_at: values.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function listContactMessages(db: Db, limit: number): Promise<ContactMessageRow[]> {
  return db
    .selectFrom('contact_messages')
    .select(['id', 'name', 'company', 'email', 'message', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The company whose users read the contact inbox: the one named, or else the first company of the installation. */
export async function findInboxCompanyId(
  db: Db,
  companyName: string | undefined,
): Promise<number | undefined> {
  let query = db.selectFrom('companies').select('id').orderBy('id').limit(1);
  if (companyName) query = query.where('name', '=', companyName);
  return (await query.executeTakeFirst())?.id;
}
