import { z } from 'zod';
import { ROLES, type Role } from '../rules/roles';
import { safeName } from './form-values';

// Issue 31 (decision 044): API tokens and webhooks, both Managers' work.

const role = z.enum(ROLES, { error: 'Role must be Manager, Office, Floor or Viewer.' });
const tokenName = safeName(
  'Name',
  z.string({ error: 'Name is required.' }).trim().min(1, 'Name is required.').max(100, 'Name is too long.'),
);

/** A new token: its name, its role and, if it should stop by itself, the day it expires (YYYY-MM-DD, end of day UTC). */
export const CreateApiTokenSchema = z.object({
  name: tokenName,
  role,
  expires_on: z
    .union([z.literal(''), z.null(), z.iso.date({ error: 'Expiry must be a date (YYYY-MM-DD).' })])
    .optional()
    .transform((v) => (v ? v : null)),
});
export type CreateApiTokenInput = z.input<typeof CreateApiTokenSchema>;

export interface ApiTokenDto {
  id: number;
  name: string;
  role: Role;
  /** the secret's last characters */
  hint: string;
  created_at: string;
  created_by: string | null;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  /** active, expired or revoked */
  status: 'active' | 'expired' | 'revoked';
}

/** The answer to a create: the token, and its secret, shown this once. */
export interface CreatedApiTokenDto {
  token: ApiTokenDto;
  secret: string;
}

/** The event kinds an endpoint may be sent, with their names on the page. */
export const WEBHOOK_EVENT_KINDS = {
  'vault.added': 'Vault added',
  'vault.moved': 'Vault moved',
  'vault.staged': 'Vault staged',
  'vault.released': 'Vault released',
  'vault.deleted': 'Vault deleted',
  'check.finished': 'Warehouse check finished',
  'request.requested': 'Request made',
  'request.scheduled': 'Request scheduled',
  'request.pulling': 'Request being pulled',
  'request.loaded': 'Request loaded',
  'request.delivered': 'Request delivered',
  'request.cancelled': 'Request cancelled',
  'invoice.issued': 'Invoice issued',
  'invoice.paid': 'Invoice paid',
} as const;
export type WebhookEventKind = keyof typeof WEBHOOK_EVENT_KINDS;
const KIND_NAMES = Object.keys(WEBHOOK_EVENT_KINDS) as [WebhookEventKind, ...WebhookEventKind[]];

const kinds = z
  .array(z.enum(KIND_NAMES, { error: 'Unknown event kind.' }), { error: 'Choose at least one event kind.' })
  .min(1, 'Choose at least one event kind.')
  .transform((list) => [...new Set(list)]);

const webhookUrl = z
  .string({ error: 'URL is required.' })
  .trim()
  .min(1, 'URL is required.')
  .max(2000, 'URL is too long.')
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    message: 'URL must be an https:// address.',
  });

export const CreateWebhookSchema = z.object({
  url: webhookUrl,
  kinds,
  description: z.string().trim().max(200, 'Description is too long.').optional(),
});
export type CreateWebhookInput = z.input<typeof CreateWebhookSchema>;

export const UpdateWebhookSchema = z
  .object({
    enabled: z.boolean({ error: 'Enabled must be true or false.' }).optional(),
    kinds: kinds.optional(),
  })
  .refine((v) => v.enabled !== undefined || v.kinds !== undefined, 'Say what to change: enabled or kinds.');
export type UpdateWebhookInput = z.input<typeof UpdateWebhookSchema>;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export const INTERNAL_RECEIVER =
  'URL must be a public address: not this server, a private network or a cloud metadata address.';

/** An IPv4 address in a range no webhook may reach: this machine, a private network, link-local (cloud metadata). */
function internalIpv4(address: string): boolean {
  const parts = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address)?.slice(1).map(Number);
  if (!parts) return false;
  const [a, b] = parts as [number, number];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a >= 224
  );
}

/**
 * Whether a host name or address (IPv6 with or without brackets) is this machine, a private network or a cloud's
 * metadata service: a webhook is never sent there, whatever its owner types.
 */
export function isInternalHost(host: string): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost') || name.endsWith('.internal')) return true;
  if (internalIpv4(name)) return true;
  if (!name.includes(':')) return false;
  // IPv6: unspecified, loopback, unique local (fc00::/7), link-local (fe80::/10), and IPv4 written as IPv6
  return name === '::' || name === '::1' || /^(f[cd]|fe[89ab]|::ffff:)/.test(name);
}

/**
 * Why a webhook address is refused, or null: HTTPS to a public address always; to this machine or a private network
 * (and plain HTTP, only to 127.0.0.1, localhost or ::1) only where the installation allows it (tests, a receiver on
 * the same machine).
 */
export function webhookUrlProblem(value: string, allowLoopbackHttp: boolean): string | null {
  if (!URL.canParse(value)) return 'URL must be an https:// address.';
  const url = new URL(value);
  if (url.username || url.password) return 'URL must not carry a user name or password.';
  if (!allowLoopbackHttp && isInternalHost(url.hostname)) return INTERNAL_RECEIVER;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && allowLoopbackHttp && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return allowLoopbackHttp
    ? 'URL must be an https:// address (http:// only to 127.0.0.1 or localhost).'
    : 'URL must be an https:// address.';
}

export interface WebhookEndpointDto {
  id: number;
  url: string;
  description: string | null;
  kinds: WebhookEventKind[];
  enabled: boolean;
  /** since when it has been failing (null while it answers) */
  failing_since: string | null;
  /** why the server switched it off */
  disabled_reason: string | null;
  created_at: string;
  created_by: string | null;
}

export interface CreatedWebhookDto {
  endpoint: WebhookEndpointDto;
  secret: string;
}

export interface WebhookDeliveryDto {
  id: number;
  kind: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  created_at: string;
}

// Answer schemas (decision 045), typed to the DTOs.
export const ApiTokenDtoSchema: z.ZodType<ApiTokenDto> = z.object({
  id: z.number().int(),
  name: z.string(),
  role: z.enum(ROLES),
  hint: z.string().describe("the secret's last characters"),
  created_at: z.string(),
  created_by: z.string().nullable(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  status: z.enum(['active', 'expired', 'revoked']),
});

export const CreatedApiTokenDtoSchema: z.ZodType<CreatedApiTokenDto> = z.object({
  token: ApiTokenDtoSchema,
  secret: z
    .string()
    .describe('sent as "Authorization: Bearer <secret>"; shown this once, stored only as a hash'),
});

export const WebhookEndpointDtoSchema: z.ZodType<WebhookEndpointDto> = z.object({
  id: z.number().int(),
  url: z.string(),
  description: z.string().nullable(),
  kinds: z.array(z.enum(KIND_NAMES)),
  enabled: z.boolean(),
  failing_since: z.string().nullable(),
  disabled_reason: z.string().nullable(),
  created_at: z.string(),
  created_by: z.string().nullable(),
});

export const CreatedWebhookDtoSchema: z.ZodType<CreatedWebhookDto> = z.object({
  endpoint: WebhookEndpointDtoSchema,
  secret: z.string().describe('the key of the HMAC-SHA256 signature of every delivery; shown this once'),
});

export const WebhookDeliveryDtoSchema: z.ZodType<WebhookDeliveryDto> = z.object({
  id: z.number().int(),
  kind: z.string(),
  status: z.enum(['pending', 'sent', 'failed']),
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
});
