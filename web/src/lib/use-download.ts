import { useState } from 'react';
import { toast } from 'sonner';
import { downloadFile, errorMessages } from './api-client';

/** A file the server makes, saved through the browser; `busy` while it comes, a toast with the reasons if it fails. */
export function useDownload(): { busy: boolean; download: (url: string, fileName: string) => Promise<void> } {
  const [busy, setBusy] = useState(false);
  async function download(url: string, fileName: string) {
    setBusy(true);
    try {
      await downloadFile(url, fileName);
    } catch (error) {
      toast.error(errorMessages(error).join(' '));
    } finally {
      setBusy(false);
    }
  }
  return { busy, download };
}
