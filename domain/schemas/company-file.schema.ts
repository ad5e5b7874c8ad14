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
