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
