// The reviewer console's build: static files in console/dist that the API serves at /console (api/console.ts).
// `npm run console:build` runs it; `npm ci` runs it too (the root package's `prepare` script).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // One chunk per concern keeps the first paint small; the form library is the big one.
    chunkSizeWarningLimit: 900,
    sourcemap: false,
  },
  // `vite` (the dev server) proxies the API, so `npm run console:dev` works beside `vetted api`.
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
