import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// Code splitting (issue 11, item 7; docs/performance.md): left to itself the bundler gives every small shared module
// (an icon, an API hook, a rule) a file of its own, and the signed-in dashboard loaded 43 files, which a phone fetches
// six at a time. The icons go into one file, and the small shared modules of the web app (API hooks, helpers, plain UI
// parts, domain rules) into another; the parts that pull in a heavy library (the dialogs, the switch, the layout
// schema) stay where the bundler puts them, so the landing page does not load them.
const SHARED = /[\\/]web[\\/]src[\\/](api|lib|components)[\\/]|[\\/]domain[\\/]rules[\\/]/;
const HEAVY =
  /[\\/](dialog|confirm-dialog|alert-message|toggle-switch|vaults-block|rack-placement|activity)\.tsx?$/;

/** tsconfig.json's import aliases, for the bundler and the test runner (the TypeScript tools read tsconfig itself). */
export const pathAliases = {
  '@domain': fileURLToPath(new URL('./domain', import.meta.url)),
  '@': fileURLToPath(new URL('./web/src', import.meta.url)),
};

export default defineConfig({
  resolve: { alias: pathAliases },
  root: 'web',
  publicDir: 'public',
  plugins: [
    react(),
    tailwindcss(),
    // The service worker (issue 30, decision 050): the app shell (HTML, code, styles, icons) is precached, so a tablet
    // that opened the app once opens it again without a network. A page address is still asked of the server first
    // (its HTML carries the signed-in first screen's data); only when that fails is the precached index.html
    // answered. Nothing under /api/ is touched: reads and writes go to the network as before, and the last data read
    // is kept by the app itself (web/src/lib/offline-data.ts). Not registered by the dev server.
    VitePWA({
      strategies: 'generateSW',
      injectRegister: false,
      registerType: 'autoUpdate',
      manifest: false,
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,woff2}'],
        // no fallback for every navigation: the server's HTML comes first (see runtimeCaching)
        navigateFallback: null,
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
        runtimeCaching: [
          {
            urlPattern: ({ request, url }) =>
              request.mode === 'navigate' && !url.pathname.startsWith('/api/'),
            handler: 'NetworkOnly',
            options: { precacheFallback: { fallbackURL: 'index.html' } },
          },
        ],
      },
    }),
  ],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    // the server reads it to preload the signed-in chrome and the first screen's code with the HTML
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'index', tags: ['$initial'], priority: 3 },
            { name: 'icons', test: /[\\/]node_modules[\\/]lucide-react[\\/]/, priority: 2 },
            {
              name: 'shared',
              test: (id) => SHARED.test(id) && !HEAVY.test(id),
              priority: 1,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
});
