import type { ContactMessageDto } from '@domain/schemas/contact.schema';
import type { ContactMessageRow } from './contact.repo';

/** The sender's IP address stays on the server: it is kept only for abuse handling. */
export function presentContactMessage(row: ContactMessageRow): ContactMessageDto {
  return {
    id: row.id,
    name: row.name,
    company: row.company,
    email: row.email,
    message: row.message,
    created_at: row.created_at,
  };
}
