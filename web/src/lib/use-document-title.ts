import { useEffect } from 'react';

export const APP_TITLE = 'Warehouse Manager';

/** Sets the browser tab's title to `{title} · Warehouse Manager` (just the app's name without a title). */
export function useDocumentTitle(title: string | undefined) {
  useEffect(() => {
    document.title = title ? `${title} · ${APP_TITLE}` : APP_TITLE;
  }, [title]);
}
