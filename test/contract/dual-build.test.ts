/**
 * CONTRACT "Package": the package is ES modules and CommonJS. A host that mixes them (a CommonJS
 * tool given a game made through `import`) must get the same answers: the keys by which the
 * subpaths read a game (the cards' random position and owed decisions for `stateHash`, the
 * XState bridge, the server's several-player `nextStop`) are registered symbols
 * (`Symbol.for`), the same in both builds. Runs on the built package (`npm run build` first;
 * skipped without dist/).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const built = existsSync(join(root, 'dist/cjs/src/sim/index.js')) && existsSync(join(root, 'dist/src/sim/index.js'));

interface Builds {
  stateHash: (game: unknown) => string;
  createCardGame: (cards: unknown, options: unknown) => { fork(options?: { seed?: number }): unknown };
  defineCards: (definition: unknown) => unknown;
}

async function builds(): Promise<{ cjs: Builds; esm: Builds }> {
  const require = createRequire(import.meta.url);
  const cjs = { ...require(join(root, 'dist/cjs/src/sim/index.js')), ...require(join(root, 'dist/cjs/src/cards/index.js')) } as Builds;
  const esm = { ...(await import(pathToFileURL(join(root, 'dist/src/sim/index.js')).href)), ...(await import(pathToFileURL(join(root, 'dist/src/cards/index.js')).href)) } as Builds;
  return { cjs, esm };
}

describe('a game of one build read by the other (CONTRACT "Package": ES modules and CommonJS)', () => {
  it.skipIf(!built)("stateHash gives the same hash for the same card game whichever build made it and whichever build hashes it", async () => {
    const { cjs, esm } = await builds();
    const definition = { name: 'dealt@1', setup: ({ random }: { random: { int(n: number): number } }) => ({ card: random.int(1000) }) };
    const made = { cjs: cjs.createCardGame(cjs.defineCards(definition), { players: ['A', 'B'], seed: 1 }), esm: esm.createCardGame(esm.defineCards(definition), { players: ['A', 'B'], seed: 1 }) };
    const hash = esm.stateHash(made.esm);
    expect([cjs.stateHash(made.cjs), esm.stateHash(made.cjs), cjs.stateHash(made.esm)]).toEqual([hash, hash, hash]);
    // The cards' random stream is part of the state in both builds: forks with other seeds differ.
    expect(cjs.stateHash(made.esm.fork({ seed: 11 }))).toBe(esm.stateHash(made.esm.fork({ seed: 11 })));
    expect(cjs.stateHash(made.esm.fork({ seed: 11 }))).not.toBe(cjs.stateHash(made.esm.fork({ seed: 12 })));
  });

  it.skipIf(!built)('the ES module build finds its own folder where the process has a global __dirname of its own (node -e): the conformance corpus loads', () => {
    const conformance = pathToFileURL(join(root, 'dist/src/conformance.js')).href;
    const script = `import(${JSON.stringify(conformance)}).then(async (m) => console.log((await m.conformanceCorpus()).length))`;
    const count = Number(execFileSync(process.execPath, ['-e', script], { cwd: '/', encoding: 'utf8', timeout: 60_000 }).trim());
    expect(count).toBeGreaterThan(400);
  });
});
