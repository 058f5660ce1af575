/**
 * Types (issue 10 point 4): a file that imports every type the contract names compiles, and
 * a misspelt event type does not (its `@ts-expect-error` lines would fail otherwise).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const flags = ['--noEmit', '--strict', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--target', 'ES2022', '--skipLibCheck', '--types', 'node'];

function compile(file: string): { ok: boolean; out: string } {
  try {
    return { ok: true, out: execFileSync('node', [tsc, ...flags, file], { cwd: root, encoding: 'utf8' }) };
  } catch (err) {
    return { ok: false, out: String((err as { stdout?: string }).stdout ?? err) };
  }
}

describe('public types (CONTRACT "Package")', () => {
  it('a file importing every type the contract names compiles, and its misspelt events are errors', () => {
    const result = compile(join(root, 'test/support/contract-types.ts'));
    expect(result.out).toBe('');
    expect(result.ok).toBe(true);
  });

  it('a misspelt event type passed to send does not compile', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mtg-types-'));
    const file = join(dir, 'bad.mts');
    writeFileSync(file, `import { createGame } from '${join(root, 'src/index.js')}';\ncreateGame({ players: ['A', 'B'] }).send({ type: 'PASS_PRIORTY', player: 'A' } as const);\n`);
    const result = compile(file);
    expect(result.ok).toBe(false);
    expect(result.out).toContain('PASS_PRIORTY');
  });
});
