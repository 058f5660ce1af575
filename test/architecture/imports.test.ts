/**
 * The layers of the code (issue 21, docs/architecture.md): no import circle anywhere in
 * src/ and machines/ (type-only imports included: a circle of types is still a circle of
 * meaning), the vocabulary at the ground floor (src/contract.ts imports nothing), the rules
 * reading only the vocabulary and each other, and the main entry importing nothing of xstate
 * (CONTRACT v3, "Package": the chart's plan is compiled at build time; the actor is on
 * `mtg-turn-engine/xstate`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every module of src/ and machines/ with the modules of src/ and machines/ it imports (static imports and re-exports). */
export function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of [...sources('src'), ...sources('machines')]) {
    const text = readFileSync(join(root, file), 'utf8');
    const deps: string[] = [];
    for (const m of text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+'(\.[^']+)'/gms)) {
      const target = relative(root, resolve(root, dirname(file), (m[1] as string).replace(/\.js$/, '.ts')));
      const file2 = [target, target.replace(/\.ts$/, '.tsx'), join(target.replace(/\.ts$/, ''), 'index.ts')].find((t) => {
        try {
          return statSync(join(root, t)).isFile();
        } catch {
          return false;
        }
      });
      if (file2 !== undefined) deps.push(file2);
    }
    graph.set(file, deps);
  }
  return graph;
}

/** The import circles of a graph (each as the list of modules around it), found by depth-first search. */
export function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (state.get(next) === undefined) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (state.get(node) === undefined) visit(node);
  return found;
}

/** The packages a module imports by name (static imports and re-exports, `import type` included), each with the module. */
export function packageImports(): { file: string; pkg: string; typeOnly: boolean }[] {
  const found: { file: string; pkg: string; typeOnly: boolean }[] = [];
  for (const file of [...sources('src'), ...sources('machines')]) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(/^\s*(import|export)\s(type\s)?[^;]*?\sfrom\s+'([^.'][^']*)'/gms)) {
      const spec = m[3] as string;
      const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string);
      found.push({ file, pkg, typeOnly: m[2] !== undefined });
    }
  }
  return found;
}

/** CONTRACT v3, "Serving games": the packages of the table server and client, optional peer dependencies of the package. */
const SERVING_PACKAGES = ['@colyseus/core', '@colyseus/ws-transport', '@colyseus/schema', '@colyseus/redis-presence', '@colyseus/redis-driver', 'colyseus.js', 'pg', '@electric-sql/pglite', 'ioredis'];

describe('the table server and client stay apart (issue 25)', () => {
  const imports = packageImports();

  it('nothing outside src/server, src/client and the command line imports Colyseus, pg, PGlite or ioredis', () => {
    const allowed = (file: string) => file.startsWith('src/server/') || file.startsWith('src/client/') || file.startsWith('src/cli/');
    expect(imports.filter((i) => SERVING_PACKAGES.includes(i.pkg) && !allowed(i.file)).map((i) => `${i.file} -> ${i.pkg}`)).toEqual([]);
  });

  it('the client imports nothing of the server and no server package (it runs in a browser)', () => {
    const graph = importGraph();
    const client = [...graph].filter(([file]) => file.startsWith('src/client/'));
    expect(client.flatMap(([file, deps]) => deps.filter((d) => d.startsWith('src/server/') || d.startsWith('src/cli/')).map((d) => `${file} -> ${d}`))).toEqual([]);
    const serverPackages = SERVING_PACKAGES.filter((p) => p !== 'colyseus.js');
    expect(imports.filter((i) => i.file.startsWith('src/client/') && (serverPackages.includes(i.pkg) || i.pkg.startsWith('node:'))).map((i) => `${i.file} -> ${i.pkg}`)).toEqual([]);
  });

  it('the command line loads the server only when `serve` runs (no static import of it or of its packages)', () => {
    const graph = importGraph();
    const cli = [...graph].filter(([file]) => file.startsWith('src/cli/'));
    expect(cli.flatMap(([file, deps]) => deps.filter((d) => d.startsWith('src/server/') || d.startsWith('src/client/')).map((d) => `${file} -> ${d}`))).toEqual([]);
    expect(imports.filter((i) => i.file.startsWith('src/cli/') && SERVING_PACKAGES.includes(i.pkg) && !i.typeOnly).map((i) => `${i.file} -> ${i.pkg}`)).toEqual([]);
  });

  it('bundles the main entry with none of them', async () => {
    const result = await build({ entryPoints: [join(root, 'src/index.ts')], bundle: true, format: 'esm', platform: 'browser', write: false, metafile: true, logLevel: 'silent' });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((i) => SERVING_PACKAGES.some((p) => i.includes(`node_modules/${p}/`)) || i.includes('src/server/') || i.includes('src/client/'))).toEqual([]);
  });
});

describe('the layers of the code (issue 21)', () => {
  const graph = importGraph();

  it('has no import circle in src/ or machines/', () => {
    expect(circles(graph).map((c) => c.join(' -> '))).toEqual([]);
  });

  it('finds a circle when there is one (the check itself works)', () => {
    expect(circles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c', 'a']]);
  });

  it('puts the vocabulary at the ground floor: src/contract.ts imports nothing, src/state.ts only the contract', () => {
    expect(graph.get('src/contract.ts')).toEqual([]);
    expect(graph.get('src/state.ts')).toEqual(['src/contract.ts']);
  });

  it('has the rules read only the vocabulary, the errors and each other (never the chart or the API)', () => {
    const allowed = (dep: string) => dep.startsWith('src/rules/') || ['src/contract.ts', 'src/state.ts', 'src/errors.ts'].includes(dep);
    const outside = [...graph].filter(([file]) => file.startsWith('src/rules/')).flatMap(([file, deps]) => deps.filter((d) => !allowed(d)).map((d) => `${file} -> ${d}`));
    expect(outside).toEqual([]);
  });

  it('bundles the main entry for the browser with nothing of xstate (the actor is on mtg-turn-engine/xstate)', async () => {
    const result = await build({ entryPoints: [join(root, 'src/index.ts')], bundle: true, format: 'esm', platform: 'browser', write: false, metafile: true, logLevel: 'silent' });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((i) => /node_modules\/xstate\//.test(i))).toEqual([]);
    expect(inputs.some((i) => i.includes('machines/turn.machine.ts'))).toBe(false);
    // The subpath does carry XState: the check itself sees it.
    const sub = await build({ entryPoints: [join(root, 'src/xstate.ts')], bundle: true, format: 'esm', platform: 'browser', write: false, metafile: true, logLevel: 'silent' });
    expect(Object.keys(sub.metafile.inputs).some((i) => /node_modules\/xstate\//.test(i))).toBe(true);
  });

  it('a host calling createGame and restoreGame bundles none of the tables only tools and tests read (issue 21: the browser bundle)', async () => {
    const entry = "import { createGame, restoreGame } from './src/index.ts';\nrestoreGame(JSON.parse(JSON.stringify(createGame({ players: ['A', 'B'] }).persist())));\n";
    const result = await build({ stdin: { contents: entry, resolveDir: root, sourcefile: 'host.js', loader: 'js' }, bundle: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent' });
    const text = result.outputFiles[0]?.text ?? '';
    expect(text).toContain('function createGame(');
    // Tables the command line, the model and the tests read, built at load.
    const unread = ['EVENT_SCHEMAS', 'TurnEventSchema', 'HOST_EFFECT_TYPES', 'CHANGES_LATER', 'ERA_NAMES'].filter((name) => new RegExp(`\\b${name}\\b`).test(text));
    expect(unread).toEqual([]);
  });
});

