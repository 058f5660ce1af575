// The CommonJS build: every module of src/ and machines/ transpiled one to one with esbuild
// into dist/cjs/ (the ES module build is tsc's, in dist/src and dist/machines).
// dist/cjs/package.json marks the folder as CommonJS for Node and TypeScript, and tsc's .d.ts
// files are copied beside the CommonJS modules: a `require` resolves to declarations that
// TypeScript reads as CommonJS, not to the ES module ones ("Masquerading as ESM", issue 23).
import { build } from 'esbuild';
import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

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

/** Copies every .d.ts under dist/<folder> to dist/cjs/<folder>, keeping the paths. */
async function copyDeclarations(folder) {
  const entries = await readdir(join('dist', folder), { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
    const from = join(entry.parentPath, entry.name);
    const to = join('dist/cjs', from.slice('dist/'.length));
    await mkdir(dirname(to), { recursive: true });
    await copyFile(from, to);
  }
}
await copyDeclarations('src');
await copyDeclarations('machines');
