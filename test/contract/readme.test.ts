/**
 * The code blocks of the README and of docs/*.md run (issue 10, issue 21): every ```ts block is
 * written to a module with `mtg-turn-engine` (and its subpaths) mapped to the sources,
 * type-checked with the others in one tsc run, then executed; a block must finish without
 * throwing. A block preceded by `<!-- readme-test: excerpt of <file> -->` is an excerpt of a
 * file the suite runs: each of its lines must be a line of that file. A block preceded by
 * `<!-- readme-test: skip (why) -->` is not run (it needs
 * something a test cannot have); the reason is shown. A block that connects to the inspector's
 * relay (`ws://127.0.0.1:4173/relay?token=...`) runs against a relay the test starts on a free
 * port, and must reach a page connected to it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createServer } from 'node:http';
import { WebSocket } from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { attachRelay } from '../../inspector/relay.js';
import { parseEvent } from '../../src/schemas.js';
import { runScenario, type Scenario } from '../../src/index.js';

const root = resolve(import.meta.dirname, '../..');
/** The documents whose blocks run: the README, then docs/*.md. */
const documents = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const text = (doc: string) => readFileSync(join(root, doc), 'utf8');
const dir = join(root, 'test', '.readme-blocks');

interface Block {
  line: number;
  code: string;
  skip: string | null;
  /** An excerpt of a file the test suite runs: not run here, but each of its lines must be that file's. */
  excerptOf: string | null;
}

/** The ```ts blocks of a Markdown text, with their line and any skip marker right before them. */
export function codeBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '```ts') continue;
    const end = lines.findIndex((l, j) => j > i && l.trim() === '```');
    const before = lines.slice(Math.max(0, i - 2), i).join('\n');
    const skip = /<!-- readme-test: skip \(([^)]*)\) -->/.exec(before)?.[1] ?? null;
    const excerptOf = /<!-- readme-test: excerpt of ([^ ]+) -->/.exec(before)?.[1] ?? null;
    blocks.push({ line: i + 1, code: lines.slice(i + 1, end).join('\n'), skip: excerptOf === null ? skip : `an excerpt of ${excerptOf}`, excerptOf });
    i = end;
  }
  return blocks;
}

const blocks = documents.flatMap((doc) => codeBlocks(text(doc)).map((b) => ({ ...b, doc })));
const entry = (name: string) => join(root, 'src', `${name}.js`).replaceAll('\\', '/');
const excerpts = blocks.filter((b) => b.excerptOf !== null);
const files = blocks.filter((b) => b.excerptOf === null).map((b) => {
  const code = b.code
    .replaceAll("from 'mtg-turn-engine/node'", `from '${entry('node')}'`)
    .replaceAll("from 'mtg-turn-engine/react'", `from '${entry('react/index')}'`)
    .replaceAll("from 'mtg-turn-engine/xstate'", `from '${entry('xstate')}'`)
    .replaceAll("from 'mtg-turn-engine/conformance'", `from '${entry('conformance')}'`)
    .replaceAll("from 'mtg-turn-engine/server'", `from '${entry('server/index')}'`)
    .replaceAll("from 'mtg-turn-engine/client'", `from '${entry('client/index')}'`)
    .replaceAll("from 'mtg-turn-engine/sim'", `from '${entry('sim/index')}'`)
    .replaceAll("from 'mtg-turn-engine/cards'", `from '${entry('cards/index')}'`)
    // Import statements only (a message that names the import, in a string, stays as it is).
    .replaceAll("from 'mtg-turn-engine/table';", `from '${entry('tableEntry')}';`)
    .replaceAll("from 'mtg-turn-engine/variants';", `from '${entry('variants')}';`)
    .replaceAll("from 'mtg-turn-engine'", `from '${entry('index')}'`);
  const name = `${b.doc.replace(/\.md$/, '').replaceAll('/', '-')}-line-${b.line}`;
  return { ...b, where: `${b.doc} line ${b.line}`, file: join(dir, `${name}.mts`), code: `${code}\nexport {};\n` };
});

mkdirSync(dir, { recursive: true });
for (const f of files) writeFileSync(f.file, f.code);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The relay address the README gives (the token is printed by `npm run inspector`). */
const RELAY_URL = /ws:\/\/127\.0\.0\.1:4173\/relay\?token=<[^>]*>/;

/**
 * Runs `body` with the address of a relay started on a free port, while a page (a client
 * without the token, from the page's own origin) listens; returns what the page received.
 */
async function withRelay(body: (url: string) => Promise<void>): Promise<string[]> {
  const server = createServer((_req, res) => res.end('page'));
  const relay = attachRelay(server, { token: 'readme' });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  const page = new WebSocket(`ws://127.0.0.1:${port}/relay`, { headers: { Origin: `http://127.0.0.1:${port}` } });
  const received: string[] = [];
  page.on('message', (data) => received.push(data.toString()));
  await new Promise((done, fail) => (page.once('open', done), page.once('error', fail)));
  try {
    await body(`ws://127.0.0.1:${port}/relay?token=readme`);
    for (let i = 0; i < 50 && received.length === 0; i++) await new Promise((done) => setTimeout(done, 100));
  } finally {
    page.close();
    await relay.close();
    await new Promise<void>((done) => server.close(() => done()));
  }
  return received;
}

describe("the code blocks of the README and docs/", () => {
  it('keeps the README short: at most 20 KB (issue 21; the depth is in docs/)', () => {
    expect(Buffer.byteLength(text('README.md'))).toBeLessThanOrEqual(20_000);
  });

  it('has runnable blocks, and every skipped one says why', () => {
    expect(files.filter((f) => f.skip === null && f.doc === 'README.md').length).toBeGreaterThanOrEqual(2);
    expect(new Set(files.map((f) => f.doc)).size).toBeGreaterThan(1);
    for (const f of files) if (f.skip !== null) expect(f.skip.length).toBeGreaterThan(5);
  });

  for (const b of excerpts) {
    it(`the excerpt at ${b.doc} line ${b.line} is, line for line, part of ${b.excerptOf}`, () => {
      const source = readFileSync(join(root, b.excerptOf as string), 'utf8').split('\n').map((l) => l.trim());
      const missing = b.code.split('\n').map((l) => l.trim()).filter((l) => l !== '' && l !== '...' && l !== '// ...' && !source.includes(l));
      expect(missing).toEqual([]);
    });
  }

  it('type-check against the package types', () => {
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const flags = ['--noEmit', '--strict', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--target', 'ES2022', '--skipLibCheck', '--types', 'node'];
    let out = '';
    try {
      execFileSync('node', [tsc, ...flags, ...files.map((f) => f.file)], { cwd: root, encoding: 'utf8' });
    } catch (err) {
      out = String((err as { stdout?: string }).stdout ?? err);
    }
    expect(out.replaceAll(dir, 'blocks')).toBe('');
  });

  for (const f of files) {
    const url = RELAY_URL.exec(f.code)?.[0];
    if (url !== undefined) {
      it.skipIf(f.skip !== null)(`the block at ${f.where} publishes a game to a relay a page receives${f.skip === null ? '' : ` (skipped: ${f.skip})`}`, async () => {
        const received = await withRelay(async (relayUrl) => {
          const file = f.file.replace(/\.mts$/, '.relay.mts');
          writeFileSync(file, f.code.replace(url, relayUrl));
          await import(pathToFileURL(file).href);
        });
        expect(received.some((m) => m.includes('"@xstate.actor"'))).toBe(true);
      });
      continue;
    }
    it.skipIf(f.skip !== null)(`the block at ${f.where} runs${f.skip === null ? '' : ` (skipped: ${f.skip})`}`, async () => {
      await import(pathToFileURL(f.file).href);
    });
  }
});

/** The event literals (`{ type: ... }` in backticks) of a Markdown text. */
function eventExamples(markdown: string): string[] {
  return [...markdown.matchAll(/`(\{ type: '[A-Z_]+'[^`]*\})`/g)].map((m) => m[1]!);
}

/** Evaluates an event literal (TypeScript object syntax) and parses it as `send` does. */
function parseExample(literal: string): { type: string; parsed: ReturnType<typeof parseEvent> } {
  const value: unknown = new Function(`return (${literal});`)();
  return { type: (value as { type: string }).type, parsed: parseEvent(value) };
}

/** The ```json blocks of a Markdown text that are scenarios (they have `steps`), parsed. */
function scenarioBlocks(markdown: string): { line: number; scenario: unknown }[] {
  const lines = markdown.split('\n');
  const out: { line: number; scenario: unknown }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '```json') continue;
    const end = lines.findIndex((l, j) => j > i && l.trim() === '```');
    const body = lines.slice(i + 1, end).join('\n');
    i = end;
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      continue;
    }
    if (typeof value === 'object' && value !== null && 'steps' in value && 'setup' in value) out.push({ line: i + 1, scenario: value });
  }
  return out;
}

describe('the scenario examples of the README and docs/', () => {
  it('every ```json block that is a scenario passes on this engine', () => {
    const found = documents.flatMap((doc) => scenarioBlocks(text(doc)).map((b) => ({ ...b, doc })));
    expect(found.length).toBeGreaterThan(0);
    for (const { doc, line, scenario } of found) expect(runScenario(scenario as Scenario).failures, `${doc}:${line}`).toEqual([]);
  });
});

describe('the event examples of the README and docs/', () => {
  for (const doc of documents) {
    it(`every event example of ${doc} is an event of the contract`, () => {
      for (const literal of eventExamples(text(doc))) {
        const { parsed } = parseExample(literal);
        expect(parsed.ok ? 'ok' : parsed.message, literal).toBe('ok');
      }
    });
  }

  it('docs/api.md documents every method of Game (fork included, issue 22) and every field of TurnView', () => {
    const api = text('docs/api.md');
    const members = (file: string, iface: string) => {
      const source = text(file);
      const body = source.slice(source.indexOf(`export interface ${iface} {`), source.indexOf('\n}', source.indexOf(`export interface ${iface} {`)));
      return [...new Set([...body.matchAll(/^ {2}(\w+)[?<(:]/gm)].map((m) => m[1] as string))];
    };
    const methods = members('src/game/types.ts', 'Game');
    expect(methods).toContain('fork');
    expect(methods.filter((m) => !api.includes(`\`${m}(`))).toEqual([]);
    const fields = members('src/contract.ts', 'TurnView');
    expect(fields).toContain('landPlaysAllowedBy');
    expect(fields.filter((f) => !api.includes(`\`${f}\``))).toEqual([]);
  });

  it('docs/api.md has a one-line example of every turn-changing event (issue 11)', () => {
    const types = new Set(eventExamples(text('docs/api.md')).map((literal) => parseExample(literal).type));
    const turnChanging = ['ADD_EFFECT', 'REMOVE_EFFECT', 'REMOVE_FROM_STACK', 'PUT_ON_STACK', 'END_TURN', 'END_COMBAT', 'ADD_EXTRA_STEP', 'ADD_EXTRA_PHASE', 'REMOVE_FROM_COMBAT', 'SET_COMBAT_ABILITIES', 'ADD_ATTACKER', 'ADD_BLOCKER', 'CONTROL_PLAYER', 'LOSE', 'WIN', 'DRAW_GAME'];
    expect(turnChanging.filter((t) => !types.has(t))).toEqual([]);
  });
});
