/**
 * Vite config of the inspector page. `vite build inspector` writes inspector/dist;
 * `vite preview inspector` serves it on localhost together with the inspection relay
 * (see relay.ts), which `mtg-turn-engine simulate --inspect` streams to.
 */
import type { IncomingMessage } from 'node:http';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type ResolvedConfig } from 'vite';
import { turnMachine } from '../machines/turn.machine.js';
import { chartLayout } from './layout.js';
import { attachRelay, RELAY_PATH, relayOptionsFromEnv } from './relay.js';

/** `virtual:chart-layout`: the statechart laid out by elkjs, in Node, as the page is built (the page ships coordinates, not elkjs). */
function chartLayoutPlugin(): Plugin {
  const id = 'virtual:chart-layout';
  return {
    name: 'mtg-turn-engine-chart-layout',
    resolveId: (source) => (source === id ? `\0${id}` : null),
    load: async (source) => (source === `\0${id}` ? `export default ${JSON.stringify(await chartLayout(turnMachine.root))};` : null),
  };
}

/** The Content-Security-Policy the page is served with. */
export const CSP = "default-src 'self'; connect-src 'self' ws://127.0.0.1:* ws://localhost:*; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The default port: `simulate --inspect` streams to ws://127.0.0.1:4173/relay?token=... */
export const INSPECTOR_PORT = 4173;

/**
 * Whether an upgrade request is for the dev server's own WebSocket (HMR and its ping), which
 * Vite answers on the same HTTP server: the sub-protocol `vite-hmr` or `vite-ping` at the
 * HMR path (`base`, joined with `server.ws.path`). Never, when HMR has a server of its own.
 */
export function isViteSocket(config: Pick<ResolvedConfig, 'base' | 'server'>): (request: IncomingMessage, pathname: string) => boolean {
  const ws = config.server.ws;
  if (ws === false || (typeof ws === 'object' && (ws.server !== undefined || (ws.port !== undefined && ws.port !== config.server.port)))) return () => false;
  const path = typeof ws === 'object' && ws.path !== undefined ? posix.join(config.base, ws.path) : config.base;
  return (request, pathname) => {
    const protocol = request.headers['sec-websocket-protocol'];
    return (protocol === 'vite-hmr' || protocol === 'vite-ping') && pathname === path;
  };
}

/**
 * Serves the relay beside the page, in `vite preview` and in `vite` (dev). On both, upgrade
 * requests for any other path (but the dev server's HMR socket) are refused and their sockets
 * closed. `MTG_RELAY_MAX_CLIENTS` and `MTG_RELAY_CLIENT_BUFFER_BYTES` set the relay's limits.
 */
function relayPlugin(): Plugin {
  const announce = (urls: { local: string[] } | null, token: string) => {
    const url = urls?.local[0];
    if (url === undefined) return;
    const relay = `${url.replace(/^http/, 'ws').replace(/\/$/, '')}${RELAY_PATH}?token=${token}`;
    console.log(`\n  mtg-turn-engine inspector: ${url}`);
    console.log(`  follow a game from another process: npx mtg-turn-engine simulate --inspect --relay ${relay}\n`);
  };
  return {
    name: 'mtg-turn-engine-relay',
    configurePreviewServer(server) {
      const relay = attachRelay(server.httpServer, { ...relayOptionsFromEnv(process.env), closeOtherPaths: true });
      const quiet = server.config.logLevel === 'error' || server.config.logLevel === 'silent';
      if (!quiet) server.httpServer.once('listening', () => setTimeout(() => announce(server.resolvedUrls, relay.token), 0));
      server.httpServer.once('close', () => void relay.close());
    },
    // The dev server's client needs a blob worker and eval-free HMR: the strict CSP is for the built page.
    transformIndexHtml: {
      order: 'pre',
      handler: (html, ctx) => (ctx.server ? html.replace(/\s*<meta http-equiv="Content-Security-Policy"[^>]*>/, '') : html),
    },
    configureServer(server) {
      if (server.httpServer === null) return;
      const relay = attachRelay(server.httpServer, { ...relayOptionsFromEnv(process.env), closeOtherPaths: true, answeredElsewhere: isViteSocket(server.config) });
      server.httpServer.once('close', () => void relay.close());
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  plugins: [relayPlugin(), chartLayoutPlugin()],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', reportCompressedSize: true },
  server: { host: '127.0.0.1', port: INSPECTOR_PORT + 1 },
  // The page's CSP as a header too: `frame-ancestors` works only there (no other site may frame it).
  preview: { host: '127.0.0.1', port: INSPECTOR_PORT, strictPort: true, headers: { 'Content-Security-Policy': CSP } },
});
