/**
 * A module of the built package (dist/, made by `npm run build`), typed by its source: what a
 * deployment runs (`npx mtg-turn-engine serve`, a bundler's output), not TypeScript through tsx,
 * whose transform wraps every named closure in a `__name` call (about a third more CPU for a
 * table server's sends, measured with bench/pipeline.ts). `npm run bench:server` builds first.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export async function builtModule<T>(path: string): Promise<T> {
  const url = new URL(`../dist/${path}`, import.meta.url);
  if (!existsSync(fileURLToPath(url))) throw new Error(`dist/${path} is missing: run \`npm run build\` first (npm run bench:server does)`);
  return (await import(url.href)) as T;
}
