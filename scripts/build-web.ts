/**
 * Builds the pages `npm start` serves (`serve --demo`, issue 25 point 5) with Vite, as static
 * files: the example table into <dir>/table and the inspector into <dir>/inspector (default
 * dist/web). The e2e test of the networked table builds them the same way into a folder of its own.
 *
 *   node --import tsx scripts/build-web.ts [DIR]
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';

const root = resolve(import.meta.dirname, '..');

/**
 * Rolldown's checks for these builds: no timing warnings (`[PLUGIN_TIMINGS]`). The inspector's
 * chart-layout plugin lays the statechart out with elkjs as the page is built, which is slow by
 * design and not a problem to report on every `npm start` (issue 33).
 */
export const WEB_BUILD_CHECKS = { bundlerTimings: false, pluginTimings: false } as const;

/** Builds the table and the inspector into `dir`/table and `dir`/inspector. */
export async function buildWeb(dir: string, logLevel: 'error' | 'warn' = 'warn'): Promise<void> {
  for (const [page, config] of [
    ['table', join(root, 'examples', 'table', 'vite.config.ts')],
    ['inspector', join(root, 'inspector', 'vite.config.ts')],
  ] as const) {
    await build({ configFile: config, logLevel, build: { outDir: resolve(dir, page), emptyOutDir: true, reportCompressedSize: false, rolldownOptions: { checks: WEB_BUILD_CHECKS } } });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await buildWeb(process.argv[2] ?? join(root, 'dist', 'web'));
}
