/**
 * Writes scenarios/recorded/: the recorded corpus of the conformance kit (issue 26), a fixed set
 * of seeded games of every setup played with `record: true` by a deterministic host and exported
 * with `recordingToScenario` (src/conformance/recorded.ts, the games in recordedGames.ts).
 * Files it no longer writes are removed. The same files on every run;
 * test/contract/conformance-corpus.test.ts proves the folder equals a fresh generation.
 *
 *   npm run generate:recorded            (node --import tsx scripts/generate-recorded-corpus.ts)
 *   npm run generate:recorded -- --check (exit 1, naming the files, when the folder is stale)
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { recordedCorpus } from '../src/conformance/recorded.js';

const folder = fileURLToPath(new URL('../scenarios/recorded/', import.meta.url));
const files = recordedCorpus();
const present = existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.json')) : [];
const wanted = new Set(files.map((f) => f.file));

if (process.argv.includes('--check')) {
  const stale = [
    ...files.filter((f) => !present.includes(f.file) || readFileSync(join(folder, f.file), 'utf8') !== f.text).map((f) => f.file),
    ...present.filter((f) => !wanted.has(f)),
  ];
  if (stale.length > 0) {
    console.error(`scenarios/recorded/ is not what the recorded games give now (${stale.join(', ')}): run npm run generate:recorded`);
    process.exit(1);
  }
  console.log(`scenarios/recorded/: ${files.length} files, up to date`);
} else {
  mkdirSync(folder, { recursive: true });
  for (const f of present) if (!wanted.has(f)) rmSync(join(folder, f));
  for (const f of files) writeFileSync(join(folder, f.file), f.text);
  const bytes = files.reduce((n, f) => n + Buffer.byteLength(f.text), 0);
  console.log(`scenarios/recorded/: ${files.length} files, ${Math.round(bytes / 1024)} KiB`);
}
