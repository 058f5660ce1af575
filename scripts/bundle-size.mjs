// `npm run bundle:size`: the main entry bundled for the browser as a user's esbuild would
// (minified, with xstate and zod, for a host that calls createGame and restoreGame), printed in gzipped bytes.
// Run after `npm run build`; test/contract/package.test.ts measures the packed package the same way.
import { build } from 'esbuild';
import { cwd, stdout } from 'node:process';
import { gzipSync } from 'node:zlib';

const entry = "import { createGame, restoreGame } from './dist/src/index.js';\nconst game = createGame({ players: ['A', 'B'] });\nrestoreGame(JSON.parse(JSON.stringify(game.persist())));\n";
const result = await build({ stdin: { contents: entry, resolveDir: cwd(), sourcefile: 'browser.js' }, bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, logLevel: 'error' });
stdout.write(`${gzipSync(result.outputFiles[0].contents).length}\n`);
