import { z } from 'zod';
import { safeName, safeText } from './form-values';

/** POST /api/contact: a visitor's message from the landing page. */
export const ContactMessageSchema = z.object({
  name: safeName(
    'Name',
    z
      .string({ error: 'Name is required.' })
      .trim()
      .min(1, 'Name is required.')
      .max(100, 'Name must be at most 100 characters.'),
  ),
  company: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() || undefined : (v ?? undefined)),
    z
      .string({ error: 'Company must be text.' })
      .max(100, 'Company must be at most 100 characters.')
      .optional(),
  ),
  email: z
    .string({ error: 'A valid email is required.' })
    .trim()
    .max(255, 'Email must be at most 255 characters.')
    .pipe(z.email('A valid email is required.')),
  message: safeText(
    'Message',
    z
      .string({ error: 'Message is required.' })
      .trim()
      .min(1, 'Message is required.')
      .max(5000, 'Message must be at most 5000 characters.'),
  ),
});
export type ContactMessageInput = z.infer<typeof ContactMessageSchema>;

export interface ContactSettingsDto {
  /** the hosted form service's form id; null when messages go to this server */
  formId: string | null;
}

export interface ContactMessageDto {
  id: number;
  name: string;
  company: string | null;
  email: string;
  message: string;
  created_at: string;
}

// Answer schemas (decision 045), typed to the DTOs.
export const ContactSettingsDtoSchema: z.ZodType<ContactSettingsDto> = z.object({
  formId: z.string().nullable(),
});

export const ContactSentAnswerSchema = z.object({ id: z.number().int(), message: z.string() });

export const ContactMessageDtoSchema: z.ZodType<ContactMessageDto> = z.object({
  id: z.number().int(),
  name: z.string(),
  company: z.string().nullable(),
  email: z.string(),
  message: z.string(),
  created_at: z.string(),
});
