import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type {
  ContactMessageDto,
  ContactMessageInput,
  ContactSettingsDto,
} from '@domain/schemas/contact.schema';
import { api } from '../lib/api-client';
import { getQuery } from './get-query';

export const HOSTED_FORM_ENDPOINT = 'https://formspree.io/f/';

export const contactQueries = {
  /** how the landing page's form sends (the hosted form's id, if any) */
  settings: () =>
    queryOptions({
      queryKey: ['contact', 'settings'] as const,
      queryFn: () => api.get<ContactSettingsDto>('/api/contact/settings'),
      staleTime: Infinity,
    }),
  /** the installation's contact inbox */
  messages: () => getQuery<ContactMessageDto[]>(['contact', 'messages'], '/api/contact/messages'),
};

export function useContactSettings() {
  return useQuery(contactQueries.settings());
}

interface HostedFormError {
  message?: string;
  code?: string;
  field?: string;
}

// readable texts for the hosted form service's error codes (spec section 8)
const HOSTED_FORM_MESSAGES: Record<string, string> = {
  BLOCKED: 'The message was blocked. Please contact us another way.',
  EMPTY: 'The form is empty. Please fill in your message.',
  FILES_TOO_BIG: 'The attached files are too big.',
  FORM_NOT_FOUND: 'The contact form is not available right now.',
  INACTIVE: 'The contact form is not available right now.',
  NO_FILE_UPLOADS: 'Files cannot be attached to this form.',
  PROJECT_NOT_FOUND: 'The contact form is not available right now.',
  TOO_MANY_FILES: 'Too many files are attached.',
  REQUIRED_FIELD_EMPTY: 'Please fill in every required field.',
  TYPE_EMAIL: 'A valid email is required.',
};

export class ContactSendError extends Error {
  constructor(readonly messages: string[]) {
    super(messages.join(' '));
  }
}

async function postToHostedForm(formId: string, input: ContactMessageInput): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`${HOSTED_FORM_ENDPOINT}${encodeURIComponent(formId)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(input),
    });
  } catch {
    throw new ContactSendError([
      'The message could not be sent. Please check your connection and try again.',
    ]);
  }
  if (response.ok) return;
  let errors: HostedFormError[] = [];
  try {
    const body = (await response.json()) as { errors?: HostedFormError[]; error?: string };
    errors = body.errors ?? (body.error ? [{ message: body.error }] : []);
  } catch {
    // not JSON: the generic message below
  }
  const messages = errors.map(
    (e) => (e.code && HOSTED_FORM_MESSAGES[e.code]) || e.message || 'The message could not be sent.',
  );
  throw new ContactSendError(
    messages.length > 0 ? messages : ['The message could not be sent. Please try again.'],
  );
}

/** Sends the landing page's contact form: to the hosted form service when one is configured, else to this server. */
export function useSendContactMessage(formId: string | null | undefined) {
  return useMutation({
    mutationFn: async (input: ContactMessageInput) => {
      if (formId) await postToHostedForm(formId, input);
      else await api.post<unknown>('/api/contact', input);
    },
  });
}

/** The installation's contact inbox; only its operator company may read it (others get 404). */
export function useContactMessages(enabled = true) {
  return useQuery({ ...contactQueries.messages(), enabled });
}
