import { z } from 'zod';
import { ROLES, type Role } from '../rules/roles';
import { emailAddress, safeName } from './form-values';

export const LoginSchema = z.object({
  email: z
    .string({ error: 'Email is required.' })
    .trim()
    .min(1, 'Email is required.')
    .max(255, 'Email is too long.')
    .transform((email) => email.toLowerCase()),
  password: z
    .string({ error: 'Password is required.' })
    .min(1, 'Password is required.')
    .max(1024, 'Password is too long.'),
});
export type LoginInput = z.infer<typeof LoginSchema>;

export const NewAccountSchema = z.object({
  company: safeName('Company name', z.string().trim().min(1, 'Company name is required.').max(100)),
  email: emailAddress,
  // the full rule (length and strength) is the server's: server/auth/password-policy.ts
  password: z.string().min(12, 'Password must be at least 12 characters.').max(1024),
});

export interface SessionUser {
  id: number;
  email: string;
  username: string;
  /** what the member may do (domain/rules/roles.ts) */
  role: Role;
  companyId: number;
  /** `locale`: how the company's dates and numbers are shown (domain/rules/locale.ts) */
  company: { id: number; name: string; locale: string };
}

/** The signed-in member, as GET /api/auth/ and a sign-in answer it (decision 045). */
export const SessionUserSchema: z.ZodType<SessionUser> = z.object({
  id: z.number().int(),
  email: z.string(),
  username: z.string(),
  role: z.enum(ROLES),
  companyId: z.number().int(),
  company: z.object({ id: z.number().int(), name: z.string(), locale: z.string() }),
});
