import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/*
 * The console is built into dist/console, which the server serves at /console (src/http/console-pages.ts);
 * `npm run build` builds the server first (it empties dist/), then this.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  // React's automatic JSX runtime, compiled by Vite's own transformer (no Babel plugin needed for a build).
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1024,
    rolldownOptions: {
      // TanStack Query marks its files "use client" for React Server Components; a client-only bundle has no use for it.
      onLog(level, log, handler) {
        if (log.code === 'MODULE_LEVEL_DIRECTIVE') return;
        handler(level, log);
      },
    },
  },
  server: { proxy: { '^/(?!console)': 'http://localhost:7860' } },
  clearScreen: false,
  logLevel: 'warn',
});
