import { toast } from 'sonner';

/** Copies `text` to the clipboard and says so in a toast, or says to copy it by hand when the browser refuses. */
export async function copyText(text: string, messages: { copied: string; failed: string }): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(messages.copied);
  } catch {
    toast.error(messages.failed);
  }
}

/** The words for a copied link (the team's one-time links, a customer's portal link). */
export const LINK_COPY_MESSAGES = {
  copied: 'Link copied',
  failed: 'The link could not be copied; select it and copy it by hand.',
};
