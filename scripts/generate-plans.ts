/**
 * Generates src/compiled/plans.generated.ts: the charts (machines/turn.machine.ts and
 * machines/grandMelee.machine.ts) compiled into plain tables at build time, so that the main
 * entry runs them without XState (CONTRACT v3, "Package"). `npm run build` runs it;
 * test/runtime/plans.test.ts proves the file equals a fresh compile.
 *
 *   node --import tsx scripts/generate-plans.ts [--check]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { plansSource } from '../src/compiled/generate.js';

const file = new URL('../src/compiled/plans.generated.ts', import.meta.url);
const source = plansSource();
if (process.argv.includes('--check')) {
  if (readFileSync(file, 'utf8') !== source) {
    console.error('src/compiled/plans.generated.ts is not the compile of the charts: run `npm run build` (or node --import tsx scripts/generate-plans.ts)');
    process.exit(1);
  }
} else writeFileSync(file, source);
