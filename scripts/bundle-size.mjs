// `npm run bundle:size`: the main entry bundled for the browser as a user's esbuild would
// (minified, with xstate and zod, for a host that calls createGame and restoreGame), printed in gzipped bytes.
// Run after `npm run build`; test/contract/package.test.ts measures the packed package the same way.
//
// `npm run bundle:size -- --without-zod` prints a lower bound instead: the same bundle with zod
// replaced by a stub that checks nothing (what the engine's own code weighs, were validation free).
import { build } from 'esbuild';
import { argv, cwd, stdout } from 'node:process';
import { gzipSync } from 'node:zlib';

const entry = "import { createGame, restoreGame } from './dist/src/index.js';\nconst game = createGame({ players: ['A', 'B'] });\nrestoreGame(JSON.parse(JSON.stringify(game.persist())));\n";
// Every schema the stub makes accepts anything; it is never run, only bundled.
const stub = 'const s = () => ({ safeParse: (data) => ({ success: true, data }), _zod: { def: {} } });\nexport const z = new Proxy({}, { get: () => s });\n'
  + 'export const ' + ['optional', 'strictObject', 'object', 'nullable', 'boolean', 'string', 'describe', 'number', 'array', 'unknown', 'union', 'record', 'refine', 'literal', 'minLength', 'toJSONSchema', 'int', 'gte', 'check', 'catchall', 'partialRecord', 'maxLength', 'lte', 'discriminatedUnion'].map((n) => `${n} = s`).join(', ') + ';\nexport { s as enum };\n';
const withoutZod = { name: 'without-zod', setup(b) {
  b.onResolve({ filter: /^zod(\/.*)?$/ }, () => ({ path: 'zod', namespace: 'stub' }));
  b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: stub, loader: 'js' }));
} };
const plugins = argv.includes('--without-zod') ? [withoutZod] : [];
const result = await build({ stdin: { contents: entry, resolveDir: cwd(), sourcefile: 'browser.js' }, bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, logLevel: 'error', plugins });
stdout.write(`${gzipSync(result.outputFiles[0].contents).length}\n`);
