// `node scripts/bundle-modules.mjs [--files]`: what each module costs the browser bundle of
// `npm run bundle:size` (a host calling createGame and restoreGame), as its leave-one-out gzip
// cost: the bundle gzipped with that module's bytes taken out (found by the source map), less
// the whole bundle gzipped. Packages are grouped (zod's core, zod/mini); `--files` lists each
// file. Shares overlap (gzip finds repeats across modules), so they add up to more than the
// total. Run after `npm run build` (issue 33; docs/performance.md, "The browser bundle").
import { build } from 'esbuild';
import { argv, cwd, stdout } from 'node:process';
import { gzipSync } from 'node:zlib';

const entry = "import { createGame, restoreGame } from './dist/src/index.js';\nconst game = createGame({ players: ['A', 'B'] });\nrestoreGame(JSON.parse(JSON.stringify(game.persist())));\n";
const result = await build({ stdin: { contents: entry, resolveDir: cwd(), sourcefile: 'browser.js' }, bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, logLevel: 'error', sourcemap: 'external', outfile: 'bundle.js' });
const code = result.outputFiles.find((f) => f.path.endsWith('.js')).text;
const map = JSON.parse(result.outputFiles.find((f) => f.path.endsWith('.map')).text);
const total = gzipSync(code).length;

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** The source index of every character of every line of the bundle (-1: none), from the map's VLQ mappings. */
function owners(lines, mappings) {
  let source = 0;
  return mappings.split(';').map((segments, i) => {
    const line = lines[i] ?? '';
    const own = new Int32Array(line.length).fill(-1);
    let column = 0;
    const starts = [];
    for (const segment of segments.split(',').filter((s) => s !== '')) {
      const fields = [];
      let value = 0;
      let shift = 0;
      for (const ch of segment) {
        const digit = BASE64.indexOf(ch);
        value += (digit & 31) << shift;
        if (digit & 32) {
          shift += 5;
        } else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += fields[0];
      if (fields.length > 1) source += fields[1];
      starts.push([column, fields.length > 1 ? source : -1]);
    }
    starts.forEach(([from, src], k) => own.fill(src, from, k + 1 < starts.length ? starts[k + 1][0] : line.length));
    return own;
  });
}

const lines = code.split('\n');
const own = owners(lines, map.mappings);
const byFile = argv.includes('--files');
const groupOf = (path) => {
  const p = path.replace(/^(\.\.\/)+/, '').replace(/^.*node_modules\//, 'node_modules/');
  if (byFile) return p;
  const pkg = /^node_modules\/(zod\/v4\/(core|mini)|@[^/]+\/[^/]+|[^/]+)/.exec(p);
  return pkg === null ? p : `node_modules/${pkg[1]}`;
};
const groups = new Map();
map.sources.forEach((s, i) => groups.set(groupOf(s), [...(groups.get(groupOf(s)) ?? []), i]));
const rows = [...groups].map(([name, indexes]) => {
  const out = new Set(indexes);
  let bytes = 0;
  const rest = lines.map((line, i) => line.split('').filter((_ch, c) => (out.has(own[i][c]) ? (bytes++, false) : true)).join('')).join('\n');
  return { name, bytes, gzip: total - gzipSync(rest).length };
});
rows.sort((a, b) => b.gzip - a.gzip);
stdout.write(`${total} bytes gzipped (${code.length} minified)\n  gzip  minified  module\n`);
for (const r of rows) stdout.write(`${String(r.gzip).padStart(6)}  ${String(r.bytes).padStart(8)}  ${r.name}\n`);
