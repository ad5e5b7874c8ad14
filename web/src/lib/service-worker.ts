/// <reference types="vite-plugin-pwa/client" />

/**
 * Registers the service worker of the web build (issue 30, decision 050): it keeps the app shell, so a tablet that
 * opened the app once opens it again without a network. The dev server builds none, so nothing is registered there.
 * A new build's worker takes over at once (the shell is static; the data is read fresh anyway).
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const register = () =>
    void import('virtual:pwa-register')
      .then(({ registerSW }) => registerSW({ immediate: true }))
      .catch(() => {
        // no worker: the app works online as before
      });
  // after the first screen has loaded: the precache's downloads do not compete with its code and data
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
