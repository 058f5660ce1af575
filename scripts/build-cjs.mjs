// The CommonJS build: every module of src/ and machines/ transpiled one to one with esbuild
// into dist/cjs/ (the ES module build is tsc's, in dist/src and dist/machines; both share
// its .d.ts files). dist/cjs/package.json marks the folder as CommonJS for Node.
import { build } from 'esbuild';
import { mkdir, writeFile } from 'node:fs/promises';

await build({
  entryPoints: ['src/**/*.ts', 'machines/**/*.ts'],
  outdir: 'dist/cjs',
  outbase: '.',
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // src/conformance/corpus.ts reads __dirname in CommonJS and import.meta.url only in the ES module build.
  logOverride: { 'empty-import-meta': 'silent' },
});
await mkdir('dist/cjs', { recursive: true });
await writeFile('dist/cjs/package.json', JSON.stringify({ type: 'commonjs' }) + '\n');
