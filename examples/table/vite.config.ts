/**
 * The example table: a Vite + React app that uses only the package's public API, imported by
 * package name (`mtg-turn-engine`, `/react`, `/client` for the networked mode). From the
 * repository, the names resolve to the sources.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const src = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  resolve: {
    alias: [
      { find: /^mtg-turn-engine\/react$/, replacement: src('react/index.ts') },
      { find: /^mtg-turn-engine\/table$/, replacement: src('tableEntry.ts') },
      { find: /^mtg-turn-engine\/client$/, replacement: src('client/index.ts') },
      { find: /^mtg-turn-engine$/, replacement: src('index.ts') },
      // colyseus.js's MessagePack without its eval probe: the pages `npm start` serves forbid eval (CSP).
      { find: /^@colyseus\/msgpackr$/, replacement: '@colyseus/msgpackr/index-no-eval' },
    ],
  },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
  server: { host: '127.0.0.1', port: 4180 },
  preview: { host: '127.0.0.1', port: 4180 },
});
