import { z } from 'zod';

/** A Manager's download of the company file, as the Backups page shows it (issue 25). */
export interface CompanyFileJobDto {
  id: number;
  status: 'running' | 'ready' | 'failed';
  /** rows and attachments written so far, of total */
  done: number;
  total: number;
  /** the file's length once it is ready */
  bytes: number;
  /** why a failed job stopped */
  error: string | null;
  requestedBy: string | null;
  createdAt: string;
  /** the name the browser saves the file under */
  fileName: string;
}

// Answer schemas (decision 045), typed to the DTO.
export const CompanyFileJobDtoSchema: z.ZodType<CompanyFileJobDto> = z.object({
  id: z.number().int(),
  status: z.enum(['running', 'ready', 'failed']),
  done: z.number().int().describe('rows and attachments written so far, of total'),
  total: z.number().int(),
  bytes: z.number().int().describe("the file's length once it is ready"),
  error: z.string().nullable(),
  requestedBy: z.string().nullable(),
  createdAt: z.string(),
  fileName: z.string().describe('the name the browser saves the file under'),
});

/** GET /api/company-file/jobs/latest: the company's latest download, or null before the first. */
export const LatestCompanyFileJobSchema = z.object({ job: CompanyFileJobDtoSchema.nullable() });
