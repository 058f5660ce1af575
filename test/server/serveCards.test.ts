/**
 * Issue 32, point 3: `serve --cards MODULE` serves card games of a module's definition (what
 * `npm start` does with the example's, examples/cards/definition.ts), and the demo's pages say
 * so (the `X-Lobby-Cards` header), so that the page opens as the card game's lobby. The whole of it in
 * Chromium: test/e2e/card-table.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleCards } from '../../examples/cards/definition.js';
import { loadCards } from '../../src/cli/serve.js';
import { demoRoutes, LOBBY_BOTS_HEADER, LOBBY_CARDS_HEADER } from '../../src/cli/web.js';

const root = resolve(import.meta.dirname, '../..');
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mtg-serve-cards-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A module in the temporary folder with this source. */
async function module(name: string, source: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, source);
  return path;
}

const BRAND = (name: string) => `{ __cards: true, name: '${name}' }`;

describe('serve --cards MODULE: the definition a module exports', () => {
  it('the example module: its only definition (exampleCards)', async () => {
    expect(await loadCards(join(root, 'examples', 'cards', 'definition.ts'))).toBe(exampleCards);
  });

  it('the default export first, then `cards`, then the only definition among the exports', async () => {
    expect(await loadCards(await module('default.mjs', `export default ${BRAND('a')}; export const cards = ${BRAND('b')};`))).toMatchObject({ name: 'a' });
    expect(await loadCards(await module('named.mjs', `export const cards = ${BRAND('b')}; export const other = ${BRAND('c')};`))).toMatchObject({ name: 'b' });
    expect(await loadCards(await module('only.mjs', `export const mine = ${BRAND('c')}; export const n = 1;`))).toMatchObject({ name: 'c' });
  });

  it('refuses a module with no definition, with several, or that does not load, naming --cards and the module', async () => {
    await expect(loadCards(await module('none.mjs', 'export const n = 1; export default { name: "not made by defineCards" };'))).rejects.toThrow(/--cards: .*none\.mjs exports no card definition/);
    await expect(loadCards(await module('two.mjs', `export const a = ${BRAND('a')}; export const b = ${BRAND('b')};`))).rejects.toThrow(/several card definitions \(a, b\)/);
    await expect(loadCards(join(dir, 'missing.mjs'))).rejects.toThrow(/--cards: could not load .*missing\.mjs/);
  });

  it('the command stops with exit code 2 naming --cards when the module has no definition', async () => {
    const path = await module('empty.mjs', 'export const n = 1;');
    const code = "const { main } = await import('./src/cli/main.ts'); process.exitCode = await main(process.argv.slice(1));";
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code, '--', 'serve', '--cards', path, '--port', '0', '--data', join(dir, 'data')], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exit = await new Promise<number | null>((done) => child.on('exit', done));
    expect(exit).toBe(2);
    expect(out).toMatch(/--cards: .*empty\.mjs exports no card definition/);
  });
});

describe('the demo pages say what the lobby creates (X-Lobby-Cards)', () => {
  it('the card definition served, URI-encoded, on the table\'s pages; no header without cards', async () => {
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>table</title>');
    const answers: (string | null)[] = [];
    for (const cards of ['example-cards@1', undefined]) {
      const routes = demoRoutes({ folders: { table: dir, inspector: dir }, ...(cards !== undefined ? { cards } : {}), createGame: () => Promise.reject(new Error('not here')) });
      const http = createServer((req, res) => void routes(req, res));
      await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
      try {
        const res = await fetch(`http://127.0.0.1:${(http.address() as { port: number }).port}/`, { method: 'HEAD' });
        expect(res.status).toBe(200);
        answers.push(res.headers.get(LOBBY_CARDS_HEADER));
      } finally {
        await new Promise<void>((done) => http.close(() => done()));
      }
    }
    expect(answers).toEqual(['example-cards%401', null]);
  });

  it('the named bots of the cards (X-Lobby-Bots), for "Play against a Monte Carlo bot"; no header without them', async () => {
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>table</title>');
    const answers: (string | null)[] = [];
    for (const bots of [['montecarlo'], []]) {
      const routes = demoRoutes({ folders: { table: dir, inspector: dir }, cards: 'example-cards@1', bots, createGame: () => Promise.reject(new Error('not here')) });
      const http = createServer((req, res) => void routes(req, res));
      await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
      try {
        const res = await fetch(`http://127.0.0.1:${(http.address() as { port: number }).port}/`, { method: 'HEAD' });
        answers.push(res.headers.get(LOBBY_BOTS_HEADER));
      } finally {
        await new Promise<void>((done) => http.close(() => done()));
      }
    }
    expect(answers).toEqual(['montecarlo', null]);
  });
});
