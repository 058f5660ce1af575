// npm run test:long: the soak and acceptance loops at their full counts (TEST_LONG=1), run apart
// from `npm test` (which plays a sample of each, test/support/scale.ts). The files are those that
// size a loop with `byCount`; extra arguments go to vitest (CI passes its reporters).
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import process from 'node:process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : testFiles(path);
    return /\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

const files = testFiles('test').filter((file) => /\bbyCount\(/.test(readFileSync(file, 'utf8'))).sort();
if (files.length === 0) {
  console.error('test:long: no test file sizes a loop with byCount (test/support/scale.ts)');
  process.exit(1);
}
console.log(`test:long: ${files.length} files at their full counts:\n  ${files.join('\n  ')}`);
const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...files, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, TEST_LONG: '1' },
});
process.exit(run.status ?? 1);
