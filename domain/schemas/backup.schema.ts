import { z } from 'zod';

/** A kept backup of the installation's SQLite database. */
export interface BackupFileDto {
  file: string;
  takenAt: string;
  bytes: number;
}

/** GET /api/backups: the installation's automatic backups, for its operator's Managers. */
export type BackupsDto =
  | { automatic: false; reason: string }
  | {
      automatic: true;
      folder: string;
      /** cron pattern in the server's local time */
      schedule: string;
      nextRun: string | null;
      running: boolean;
      lastGood: BackupFileDto | null;
      lastFailure: { at: string; message: string } | null;
      /** newest first */
      kept: BackupFileDto[];
      /** no good backup, or the last one is older than two days */
      overdue: boolean;
      keepDaily: number;
      keepWeekly: number;
    };

/** The backups part of GET /api/health. */
export type HealthBackupsDto =
  | { automatic: false; reason: string }
  | { automatic: true; lastGood: { takenAt: string; bytes: number } | null; overdue: boolean };

/** GET /api/health's answer (decision 045): 200 with `status: 'ok'`, 503 `unavailable` or `degraded` with errors. */
export const HealthAnswerSchema = z.object({
  status: z.enum(['ok', 'unavailable', 'degraded']),
  database: z.enum(['sqlite', 'postgres']),
  writesTo: z.string().nullable().optional(),
  replication: z.object({ synchronous: z.boolean(), standbys: z.number().int() }).optional(),
  writes: z.literal('failing').optional(),
  reason: z.string().optional(),
  errors: z.array(z.string()).optional(),
  backups: z
    .discriminatedUnion('automatic', [
      z.object({ automatic: z.literal(false), reason: z.string() }),
      z.object({
        automatic: z.literal(true),
        lastGood: z.object({ takenAt: z.string(), bytes: z.number() }).nullable(),
        overdue: z.boolean(),
      }),
    ])
    .optional(),
});

// GET and POST /api/backups's answer (decision 045), typed to the DTO.
const BackupFileDtoSchema: z.ZodType<BackupFileDto> = z.object({
  file: z.string(),
  takenAt: z.string(),
  bytes: z.number().int(),
});

export const BackupsDtoSchema: z.ZodType<BackupsDto> = z.discriminatedUnion('automatic', [
  z.object({
    automatic: z.literal(false),
    reason: z.string().describe('why there are no automatic backups'),
  }),
  z.object({
    automatic: z.literal(true),
    folder: z.string(),
    schedule: z.string().describe("cron pattern in the server's local time"),
    nextRun: z.string().nullable(),
    running: z.boolean(),
    lastGood: BackupFileDtoSchema.nullable(),
    lastFailure: z.object({ at: z.string(), message: z.string() }).nullable(),
    kept: z.array(BackupFileDtoSchema).describe('newest first'),
    overdue: z.boolean(),
    keepDaily: z.number().int(),
    keepWeekly: z.number().int(),
  }),
]);
