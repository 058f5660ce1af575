/**
 * `npm run bench`: the engine against a hand-written reducer, boardgame.io and raw XState,
 * on the same scripted workloads, in one run. Prints a table and writes bench/results.json.
 * See the README, section Performance.
 *
 *   npm run bench                      # full run: 7 runs, about 2.5 minutes on 2 cores
 *   npm run bench -- --quick           # 3 shorter runs, under a minute
 *   npm run bench -- --runs 9 --min-ms 400 --out /tmp/results.json
 *   npm run bench -- --wall            # wall-clock time instead of this process's CPU time
 *   npm run bench -- --no-coverage     # do not time the model-based coverage run
 *   npm run bench -- --only persistence  # only the persisted game's figures (size, persist, restore)
 *   npm run bench -- --only api        # only the engine and the compiled runtime alone (ratios.engineVsRuntimeAlone)
 *   npm run bench -- --only bundle     # only the browser bundle's gzipped bytes (bundleGzipBytes)
 *   npm run bench -- --only sim        # only the simulation figures (issue 34, bench/sim.ts: `sim`)
 *   npm run bench -- --only parity     # only the engine and the hand-written reducer, workload by workload (ratios.byWorkload)
 *
 * Issue 21 (point 8, the host's path) adds: a no-op checkpoint hook against no hook
 * (`ratios.withHook`; `ratios.withViewHook` for a no-op hook that declares `(view, pending)`),
 * a burst of 1,000 and 10,000 triggers in one checkpoint (bench/hostPath.ts), 64 players in Grand
 * Melee against a free-for-all (`ratios.grandMelee64`, time per event) and createGame with 64.
 * Issue 22 (point 1) adds `refusal`: µs per KB of refused input far past every bound (bench/refusal.ts).
 *
 * Issue 23 adds `seekMs`: ms per `replayGame(recording, { until })` to a version drawn at random in
 * a recorded 1,000-turn game (from the nearest of the snapshots kept every 256 versions).
 * `--only seek` measures that figure alone and writes it into the existing results file.
 *
 * Run with --expose-gc (the npm script does) so that heap figures are taken after a full GC.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isDeepStrictEqual } from 'node:util';
import { createActor } from 'xstate';
import { CompiledGame, createGame, createInterpreterGame, initialContext, initialState as compiledInitial, playout, replayGame, restoreGame, seededRandom, sendStep, snapshotOf, toInput, turnMachine, turnPlan, viewOf, type Game } from './engine.js';
import { boardgameioView, playBareReducer, playClient } from './boardgameio.js';
import { batchFor, fmt, fmtStat, stat, table, timePerCall, type Clock, type Stat } from './measure.js';
import { checkBurst, time64, timeBurst } from './hostPath.js';
import { refusalRows, timeRefusals } from './refusal.js';
import { initialState, reduce, reducerView } from './reducer.js';
import { simFigures } from './sim.js';
import { recordedGame, workloads, type Workload } from './workloads.js';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    runs: { type: 'string' },
    'min-ms': { type: 'string' },
    out: { type: 'string' },
    'no-coverage': { type: 'boolean', default: false },
    wall: { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
const ONLY = ['seek', 'persistence', 'api', 'bundle', 'sim', 'parity'];
if (args.only !== undefined && !ONLY.includes(args.only)) throw new Error(`--only: the parts measured alone are ${ONLY.map((o) => `'${o}'`).join(', ')}; got '${args.only}'`);
const RUNS = Number(args.runs ?? (args.quick ? 3 : 7));
const MIN_MS = Number(args['min-ms'] ?? (args.quick ? 100 : 300));
/** CPU time by default: on a shared machine, time spent waiting for a core is not the engine's. */
const CLOCK: Clock = args.wall ? 'wall' : 'cpu';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = args.out ?? fileURLToPath(new URL('./results.json', import.meta.url));
const gc = (globalThis as { gc?: () => void }).gc;

/** One implementation: plays a whole workload, from a new game to its last event. */
type Impl = (w: Workload) => void;

const input = (players: string[]) => ({
  players,
  startingPlayer: players[0] as string,
  rules: 'current' as const,
  maxHandSize: 7,
  handSize: 7,
  attack: 'all' as const,
  orderTriggers: 'host' as const,
  pregame: false,
  variant: 'freeForAll' as const,
  teams: null,
  seed: 1,
});

const IMPLS: Record<string, Impl> = {
  engine: (w) => {
    const game = createGame({ players: w.players });
    for (const e of w.events) game.send(e);
  },
  // The reference Game on XState's interpreter behind the same gate (src/interpreter.ts).
  'engine on XState': (w) => {
    const game = createInterpreterGame({ players: w.players });
    for (const e of w.events) game.send(e);
  },
  // What the engine does with an event once its gate has accepted it: the compiled step alone (no parsing, no legality table, no listeners).
  'compiled runtime alone': (w) => void playRuntime(w),
  'engine + no-op hook': (w) => {
    const game = createGame({ players: w.players, hooks: { checkpoint: () => undefined } });
    for (const e of w.events) game.send(e);
  },
  // A hook that does nothing with the view and the pending events but read a number of each.
  'engine + no-op hook (view, pending)': (w) => {
    const game = createGame({ players: w.players, hooks: { checkpoint: (view, pending) => void (view.turn + pending.length) } });
    for (const e of w.events) game.send(e);
  },
  'raw XState': (w) => {
    const actor = createActor(turnMachine, { input: input(w.players) }).start();
    for (const e of w.events) actor.send(e);
  },
  reducer: (w) => {
    let s = initialState(w.players);
    for (const e of w.events) s = reduce(s, e);
  },
  'boardgame.io reducer': (w) => void playBareReducer(w.players, w.events),
  'boardgame.io Client': (w) => void playClient(w.players, w.events),
};

/** A workload through the compiled runtime alone (src/compiled/runtime.ts sendStep), with the options createGame gives it. */
function playRuntime(w: Workload) {
  let state = compiledInitial(turnPlan, toInput({ players: w.players, seed: 1 }), initialContext).state;
  for (const e of w.events) state = sendStep(turnPlan, state, e).state;
  return state;
}

/**
 * The fields of the view that the hand-written reducer and boardgame.io model (the engine's
 * view has grown since: schedule, effects, decidedBy, stops, teams ...): they must agree on these.
 */
function core(v: unknown): unknown {
  const view = v as Record<string, unknown> & { awaiting: { kind: string; player: string } | null; gameOver: { winners: string[] } | null };
  const pick = ['turn', 'activePlayer', 'phase', 'step', 'priority', 'stack', 'landsPlayed', 'manaPool', 'players', 'handSizes', 'rules'];
  return {
    ...Object.fromEntries(pick.map((k) => [k, view[k]])),
    awaiting: view.awaiting === null ? null : { kind: view.awaiting.kind, player: view.awaiting.player },
    gameOver: view.gameOver === null ? null : [...view.gameOver.winners],
  };
}

/** The equivalence check: the reducer after every event, the others at the end, show the engine's view (on the fields they model). */
function checkEquivalence(w: Workload): void {
  const game = createGame({ players: w.players });
  let s = initialState(w.players);
  const same = (i: number, what: string, x: unknown, y: unknown) => {
    const a = core(x);
    const b = core(y);
    if (!isDeepStrictEqual(a, b)) throw new Error(`${w.name}: after event ${i} the ${what} view differs from the engine's:\n${JSON.stringify(b)}\n${JSON.stringify(a)}`);
  };
  same(-1, 'reducer', reducerView(s), game.view());
  w.events.forEach((e, i) => {
    const result = game.send(e);
    if (!result.ok) throw new Error(`${w.name}: the engine refused event ${i}: ${result.error.message}`);
    const next = reduce(s, e);
    if (next === s) throw new Error(`${w.name}: the reducer refused event ${i}: ${JSON.stringify(e)}`);
    s = next;
    same(i, 'reducer', reducerView(s), game.view());
  });
  const end = game.view();
  const actor = createActor(turnMachine, { input: input(w.players) }).start();
  for (const e of w.events) actor.send(e);
  same(w.events.length, 'raw XState', viewOf(actor.getSnapshot(), w.events.length), end);
  const onXState = createInterpreterGame({ players: w.players });
  for (const e of w.events) onXState.send(e);
  if (!isDeepStrictEqual(onXState.view(), end)) throw new Error(`${w.name}: the engine on XState and the compiled engine end in different views`);
  const alone = playRuntime(w);
  if (!isDeepStrictEqual(viewOf(snapshotOf(turnPlan, alone), end.version, end.seq), end)) {
    throw new Error(`${w.name}: the compiled runtime alone and the engine end in different views`);
  }
  same(w.events.length, 'boardgame.io reducer', boardgameioView(playBareReducer(w.players, w.events, true)), end);
  same(w.events.length, 'boardgame.io Client', boardgameioView(playClient(w.players, w.events, true)), end);
}

/** Events per second of each implementation on each workload: runs interleaved, so noise hits all alike. */
function throughput(list: Workload[]): Record<string, Record<string, number[]>> {
  const samples: Record<string, Record<string, number[]>> = {};
  for (const w of list) for (const impl of Object.keys(IMPLS)) ((samples[w.name] ??= {})[impl] = []);
  // Warm-up: long enough for V8 to optimise each implementation's hot paths.
  for (const w of list) for (const [name, play] of Object.entries(IMPLS)) timePerCall(() => play(w), name.startsWith('boardgame.io') ? 0 : MIN_MS, CLOCK);
  for (let r = 0; r < RUNS; r++) {
    for (const w of list) {
      for (const [name, play] of Object.entries(IMPLS)) {
        const ms = timePerCall(() => play(w), MIN_MS, CLOCK);
        samples[w.name]?.[name]?.push((w.events.length / ms) * 1000);
      }
    }
  }
  return samples;
}

/** A 2-player game in the combat damage step of a busy turn: attackers, blockers and first strike. */
function midCombatGame(w: Workload): Game {
  const game = createGame({ players: w.players });
  for (const e of w.events) {
    game.send(e);
    const v = game.view();
    if (v.turn >= 3 && v.step === 'combatDamage' && (v.combat?.blockers.length ?? 0) > 0) return game;
  }
  throw new Error('the workload never reaches a combat damage step with blockers');
}

/**
 * Resident set growth while `count` new 2-player games are alive (after a full GC), measured in
 * a fresh Node process on the built package: in this process the benchmarks before it have
 * already grown (and may release) memory, which makes an RSS difference meaningless.
 */
function rssOf(count: number): number {
  const index = new URL('../dist/src/index.js', import.meta.url).href;
  const script = `const { createGame } = await import(${JSON.stringify(index)});
gc(); const before = process.memoryUsage().rss; const games = [];
for (let i = 0; i < ${count}; i++) games.push(createGame({ players: ['A', 'B'] }));
gc(); const after = process.memoryUsage().rss; if (games.length !== ${count}) throw new Error('unreachable');
process.stdout.write(String(after - before));`;
  const child = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`measuring RSS failed: ${child.stderr}`);
  return Number(child.stdout);
}

/** The gzipped size of the browser bundle of the main entry (`npm run bundle:size`). */
function bundleGzipBytes(): { bytes: number | null; reason?: string } {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts?: Record<string, string> };
  if (pkg.scripts?.['bundle:size'] === undefined) return { bytes: null, reason: 'no `bundle:size` npm script on this branch' };
  const run = spawnSync('npm', ['run', '--silent', 'bundle:size'], { cwd: ROOT, encoding: 'utf8' });
  const bytes = Number(/(\d+)\s*$/.exec(run.stdout ?? '')?.[1]);
  return run.status === 0 && Number.isFinite(bytes) ? { bytes } : { bytes: null, reason: `npm run bundle:size exited with ${run.status}` };
}

function heapPerGame(make: () => unknown, count: number): number {
  if (gc === undefined) return NaN;
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const games: unknown[] = [];
  for (let i = 0; i < count; i++) games.push(make());
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  if (games.length !== count) throw new Error('unreachable');
  return (after - before) / count;
}

/**
 * The model-based coverage run: timed only where the branch has a `coverage` npm script
 * (another issue adds it). This is the hook: add the script and its time is recorded here.
 */
function coverageRun(): { available: boolean; seconds?: number; reason?: string } {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts?: Record<string, string> };
  if (pkg.scripts?.coverage === undefined) return { available: false, reason: 'no `coverage` npm script on this branch' };
  if (args['no-coverage']) return { available: false, reason: 'skipped (--no-coverage)' };
  const start = performance.now();
  const run = spawnSync('npm', ['run', '--silent', 'coverage'], { cwd: ROOT, stdio: 'ignore' });
  const seconds = (performance.now() - start) / 1000;
  return run.status === 0 ? { available: true, seconds } : { available: false, reason: `npm run coverage exited with ${run.status}` };
}

// Small operations are timed in batches (bench/measure.ts timePerCall): one clock read costs about 2.4 µs.
const batched = (once: () => void, minMs: number) => {
  const batch = batchFor(once, 1, CLOCK);
  return stat(Array.from({ length: RUNS }, () => timePerCall(once, minMs, CLOCK, batch) * 1000));
};

/** The persisted game's figures (issue 23: at most 1 KiB): its size in JSON, and the time of persist() and restoreGame. */
function persistenceFigures(game: Game) {
  const json = JSON.stringify(game.persist());
  const persistedBytesMidCombat = Buffer.byteLength(json);
  const plain = JSON.parse(json) as unknown;
  // Warm-up: restoring takes about a second of calls before V8 has optimised zod's and XState's paths.
  timePerCall(() => restoreGame(JSON.parse(JSON.stringify(game.persist()))), args.quick ? 500 : 1500, CLOCK);
  const persistUs = batched(() => game.persist(), MIN_MS / 2);
  const restoreUs = batched(() => restoreGame(plain), MIN_MS / 2);
  const restoreRoundTripUs = batched(() => restoreGame(JSON.parse(JSON.stringify(game.persist()))), MIN_MS / 2);
  return { persistedBytesMidCombat, plain, persistUs, restoreUs, restoreRoundTripUs };
}

/** The rows of the persisted game's figures in the printed table. */
function persistenceRows(f: ReturnType<typeof persistenceFigures>): string[][] {
  return [
    ['persisted bytes, 2 players mid-combat', fmt(f.persistedBytesMidCombat), '≤ 1024', String(f.persistedBytesMidCombat <= 1024)],
    ['µs per persist()', fmtStat(f.persistUs), '', ''],
    ['µs per restoreGame(object)', fmtStat(f.restoreUs), '', ''],
    ['µs per JSON round trip + restoreGame', fmtStat(f.restoreRoundTripUs), '', ''],
  ];
}

/**
 * Issue 23, seek: ms per `replayGame(recording, { until })` to a version drawn at random in a
 * recorded 1,000-turn game (each run's mean; the median of the runs is `seekMs`). Each replay is
 * checked to show the version it was asked for.
 */
function seek(): { seekMs: Stat; seekRecording: { turns: number; versions: number; snapshots: number; bytes: number } } {
  const turns = 1000;
  const { recording } = recordedGame(turns);
  const last = recording.inputs.length - 1;
  const random = seededRandom(23);
  const once = () => {
    const until = Math.floor(random() * (last + 1));
    if (replayGame(recording, { until }).view().version !== until) throw new Error(`replayGame did not stop at version ${until}`);
  };
  timePerCall(once, MIN_MS, CLOCK);
  const seekMs = stat(Array.from({ length: RUNS }, () => timePerCall(once, MIN_MS, CLOCK)));
  return { seekMs, seekRecording: { turns, versions: last, snapshots: recording.snapshots.length, bytes: Buffer.byteLength(JSON.stringify(recording)) } };
}

/** `--only seek`: the seek figure alone, written into the existing results file (the other figures are kept). */
function onlySeek(): void {
  const figures = seek();
  console.log(table(['figure', 'median (min–max)', 'target', 'met'], [['ms per replayGame seek, 1,000-turn recording', fmtStat(figures.seekMs), '≤ 5', String(figures.seekMs.median <= 5)]]));
  console.log(`recording: ${figures.seekRecording.versions.toLocaleString('en-US')} versions, ${figures.seekRecording.snapshots} snapshots, ${figures.seekRecording.bytes.toLocaleString('en-US')} bytes of JSON`);
  const results = JSON.parse(readFileSync(OUT, 'utf8')) as Record<string, unknown>;
  writeFileSync(OUT, JSON.stringify({ ...results, seekMs: figures.seekMs.median, seekMsStats: figures.seekMs, seekRecording: figures.seekRecording }, null, 2) + '\n');
  console.log(`wrote seekMs to ${OUT}`);
}

/**
 * Events per second of `a` and `b` over `ws`, RUNS times: each run plays every workload through
 * both alternately (the order flipped each round), so that on a machine shared with other work
 * both see the same slowdowns, until each has had at least 4 × MIN_MS of CPU time.
 */
function alternately(a: Impl, b: Impl, ws: Workload[]): [number, number][] {
  const events = ws.reduce((n, w) => n + w.events.length, 0);
  const runs: [number, number][] = [];
  for (let r = 0; r < RUNS; r++) {
    let aMs = 0;
    let bMs = 0;
    let rounds = 0;
    while (aMs < 4 * MIN_MS || bMs < 4 * MIN_MS) {
      for (const w of ws) {
        const first = rounds % 2 === 0;
        if (!first) bMs += timePerCall(() => b(w), 0, CLOCK);
        aMs += timePerCall(() => a(w), 0, CLOCK);
        if (first) bMs += timePerCall(() => b(w), 0, CLOCK);
      }
      rounds++;
    }
    runs.push([(rounds * events * 1000) / aMs, (rounds * events * 1000) / bMs]);
  }
  return runs;
}

/**
 * The API path's share (the full run and `--only api`): the engine and the compiled runtime
 * alone on the four workloads, timed one workload at a time and alternately (the order flipped each round), so that on a machine shared
 * with other work both see the same slowdowns (timed 300 ms apart, as the full run times every
 * implementation, their ratio swings by ±0.05 there). Each run lasts at least 4 × MIN_MS of CPU
 * time per implementation.
 */
function timeApiPath(list: Workload[]): { overall: Record<'engine' | 'compiled runtime alone', Stat>; ratio: Stat } {
  const engine = IMPLS.engine as Impl;
  const alone = IMPLS['compiled runtime alone'] as Impl;
  // Warm-up: long enough for V8 to optimise both paths.
  for (const w of list) for (const play of [engine, alone]) timePerCall(() => play(w), MIN_MS, CLOCK);
  const runs = alternately(engine, alone, list).map(([e, a]) => ({ engine: e, alone: a }));
  const overall = { engine: stat(runs.map((x) => x.engine)), 'compiled runtime alone': stat(runs.map((x) => x.alone)) };
  return { overall, ratio: stat(runs.map((x) => x.engine / x.alone)) };
}

/**
 * `--only api`: {@link timeApiPath}; `ratios.engineVsRuntimeAlone` is written into the existing
 * results file with the events per second of both (the other figures are kept).
 */
function onlyApi(list: Workload[]): void {
  const { overall, ratio } = timeApiPath(list);
  console.log(table(['implementation', 'all workloads, events per second'], Object.entries(overall).map(([k, v]) => [k, fmtStat(v)])));
  console.log('\n' + table(['figure', 'median (min–max)', 'target', 'met'], [['engine ÷ compiled runtime alone (API path within 20%)', fmtStat(ratio), '≥ 0.8', String(ratio.median >= 0.8)]]));
  const results = JSON.parse(readFileSync(OUT, 'utf8')) as { ratios?: Record<string, unknown>; ratioStats?: Record<string, unknown> } & Record<string, unknown>;
  writeFileSync(OUT, JSON.stringify({ ...results, ratios: { ...results.ratios, engineVsRuntimeAlone: ratio.median }, ratioStats: { ...results.ratioStats, engineVsRuntimeAlone: ratio }, apiPath: { eventsPerSecond: overall, settings: { runs: RUNS, minMsPerRun: 4 * MIN_MS, clock: CLOCK, interleaved: 'one workload at a time' }, date: new Date().toISOString() } }, null, 2) + '\n');
  console.log(`wrote ratios.engineVsRuntimeAlone to ${OUT}`);
}

/**
 * The engine and the hand-written reducer side by side (issue 34's `ratios.byWorkload`): each
 * workload through each, alternately (the order flipped each round), each run at least
 * 4 × MIN_MS of CPU time per implementation and workload, one workload at a time. The full run
 * takes its `byWorkload` from here too (its interleaved runs time each implementation 300 ms
 * apart, which swings a ratio of two near ones; that figure is kept beside it).
 */
function timeParity(list: Workload[]): Record<string, { engine: Stat; reducer: Stat; ratio: Stat }> {
  const engine = IMPLS.engine as Impl;
  const reducer = IMPLS.reducer as Impl;
  for (const w of list) for (const play of [engine, reducer]) timePerCall(() => play(w), MIN_MS, CLOCK);
  const perWorkload: Record<string, { engine: Stat; reducer: Stat; ratio: Stat }> = {};
  for (const w of list) {
    const runs = alternately(engine, reducer, [w]).map(([e, r]) => ({ engine: e, reducer: r }));
    perWorkload[w.name] = { engine: stat(runs.map((x) => x.engine)), reducer: stat(runs.map((x) => x.reducer)), ratio: stat(runs.map((x) => x.engine / x.reducer)) };
  }
  return perWorkload;
}

/**
 * `--only parity` (issue 34): the engine and the hand-written reducer alone, side by side in one
 * run: after the equivalence check, each workload through each, alternately (the order flipped
 * each round), each run at least 4 × MIN_MS of CPU time per implementation and workload.
 * `ratios.byWorkload` is written into the existing results file (the other figures are kept).
 */
function onlyParity(list: Workload[]): void {
  for (const w of list) checkEquivalence(w);
  const perWorkload = timeParity(list);
  console.log(table(['workload', 'engine events/s', 'reducer events/s', 'engine ÷ reducer', 'target', 'met'], Object.entries(perWorkload).map(([w, f]) => [w, fmtStat(f.engine), fmtStat(f.reducer), fmtStat(f.ratio), '≥ 1', String(f.ratio.median >= 1)])));
  console.log(`load average (1, 5, 15 min): ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
  const byWorkload = Object.fromEntries(Object.entries(perWorkload).map(([w, f]) => [w, f.ratio.median]));
  const results = JSON.parse(readFileSync(OUT, 'utf8')) as { ratios?: Record<string, unknown> } & Record<string, unknown>;
  writeFileSync(OUT, JSON.stringify({ ...results, ratios: { ...results.ratios, byWorkload }, parity: { perWorkload, settings: { runs: RUNS, minMsPerRun: 4 * MIN_MS, clock: CLOCK, interleaved: 'one workload at a time' }, date: new Date().toISOString() } }, null, 2) + '\n');
  console.log(`wrote ratios.byWorkload to ${OUT}`);
}

/** `--only bundle`: the gzipped browser bundle (`npm run bundle:size`), written into the existing results file. */
function onlyBundle(): void {
  const bundle = bundleGzipBytes();
  if (bundle.bytes === null) throw new Error(`bundle: ${bundle.reason}`);
  console.log(table(['figure', 'bytes', 'target', 'met'], [['bundle bytes gzipped', fmt(bundle.bytes), '≤ 40960', String(bundle.bytes <= 40960)]]));
  const results = JSON.parse(readFileSync(OUT, 'utf8')) as Record<string, unknown>;
  writeFileSync(OUT, JSON.stringify({ ...results, bundleGzipBytes: bundle.bytes }, null, 2) + '\n');
  console.log(`wrote bundleGzipBytes to ${OUT}`);
}

function main(): void {
  const started = performance.now();
  if (args.only === 'bundle') return onlyBundle();
  const list = workloads();
  if (args.only === 'api') return onlyApi(list);
  if (args.only === 'parity') return onlyParity(list);
  if (args.only === 'persistence') {
    const figures = persistenceFigures(midCombatGame(list.find((w) => w.name === 'busy-2p') as Workload));
    console.log(table(['figure', 'median (min–max)', 'target', 'met'], persistenceRows(figures)));
    // Written into the existing results file (the other figures are kept), as `--only seek` does.
    const results = JSON.parse(readFileSync(OUT, 'utf8')) as Record<string, unknown>;
    const { persistedBytesMidCombat, persistUs, restoreUs, restoreRoundTripUs } = figures;
    writeFileSync(OUT, JSON.stringify({ ...results, persistedBytesMidCombat, persistMicroseconds: persistUs, restoreMicroseconds: restoreUs, restoreRoundTripMicroseconds: restoreRoundTripUs }, null, 2) + '\n');
    console.log(`wrote the persisted game's figures to ${OUT}`);
    return;
  }
  for (const w of list) checkEquivalence(w);
  for (const kind of ['noParameters', 'viewAndPending'] as const) checkBurst(1000, kind);
  console.log(`equivalence: reducer, raw XState and boardgame.io end in the engine's views on all ${list.length} workloads`);

  // The API path first, on a collected heap, as `--only api` times it: after the interleaved runs
  // the heap holds every baseline's garbage, and the engine (which allocates more) pays for it.
  gc?.();
  const apiPath = timeApiPath(list);
  const samples = throughput(list);
  const perWorkload: Record<string, Record<string, Stat>> = {};
  for (const [w, impls] of Object.entries(samples)) perWorkload[w] = Object.fromEntries(Object.entries(impls).map(([k, v]) => [k, stat(v)]));

  // Overall events/s per run: all workloads' events over their summed time.
  const totalEvents = list.reduce((n, w) => n + w.events.length, 0);
  const overallRuns = (impl: string): number[] =>
    Array.from({ length: RUNS }, (_, r) => totalEvents / list.reduce((t, w) => t + w.events.length / (samples[w.name]?.[impl]?.[r] as number), 0));
  const overall: Record<string, Stat> = Object.fromEntries(Object.keys(IMPLS).map((k) => [k, stat(overallRuns(k))]));
  const ratioRuns = (a: string, b: string | string[]): number[] => {
    const engineRuns = overallRuns(a);
    const others = (Array.isArray(b) ? b : [b]).map(overallRuns);
    return engineRuns.map((x, r) => x / Math.max(...others.map((o) => o[r] as number)));
  };
  const ratios = {
    engineVsReducer: stat(ratioRuns('engine', 'reducer')),
    engineVsBoardgameio: stat(ratioRuns('engine', ['boardgame.io reducer', 'boardgame.io Client'])),
    engineVsRawXState: stat(ratioRuns('engine', 'raw XState')),
    rawXStateVsReducer: stat(ratioRuns('raw XState', 'reducer')),
    engineVsEngineOnXState: stat(ratioRuns('engine', 'engine on XState')),
    // The interleaved runs above time each implementation 300 ms apart: timed that way the ratio of
    // two near ones swings by ±0.05 on a shared machine, so the API path is timed apart (timeApiPath).
    engineVsRuntimeAloneInterleaved: stat(ratioRuns('engine', 'compiled runtime alone')),
    engineVsRuntimeAlone: apiPath.ratio,
    withHook: stat(ratioRuns('engine + no-op hook', 'engine')),
    withViewHook: stat(ratioRuns('engine + no-op hook (view, pending)', 'engine')),
  };

  const byWorkloadInterleaved = Object.fromEntries(
    list.map((w) => {
      const runs = samples[w.name] as Record<string, number[]>;
      return [w.name, stat((runs.engine as number[]).map((x, r) => x / ((runs.reducer as number[])[r] as number))).median];
    }),
  );
  // The engine against the reducer side by side, one workload at a time (as `--only parity`), on a collected heap.
  gc?.();
  const parity = timeParity(list);
  const byWorkload = Object.fromEntries(Object.entries(parity).map(([w, f]) => [w, f.ratio.median]));

  const busy2 = list.find((w) => w.name === 'busy-2p') as Workload;
  const game = midCombatGame(busy2);
  const { persistedBytesMidCombat, plain, persistUs, restoreUs, restoreRoundTripUs } = persistenceFigures(game);
  const GAMES = 10_000;
  const heapRuns = args.quick ? 1 : 3;
  const heapBytesPerGame = stat(Array.from({ length: heapRuns }, () => heapPerGame(() => createGame({ players: ['A', 'B'] }), GAMES)));
  const heapBytesPerGameMidCombat = stat(Array.from({ length: heapRuns }, () => heapPerGame(() => restoreGame(plain), GAMES)));
  // Where a new game's heap goes: its context alone, an XState snapshot, a started XState actor, the engine's Game.
  const actorOf = () => createActor(turnMachine, { input: input(['A', 'B']) }).start();
  const heapBreakdown = {
    context: heapPerGame(() => actorOf().getSnapshot().context, GAMES),
    xstateSnapshot: heapPerGame(() => actorOf().getSnapshot(), GAMES),
    xstateActor: heapPerGame(actorOf, GAMES),
    engineGame: heapBytesPerGame.median,
  };
  // Forks and playouts (issue 15): a fork of the mid-combat game; playouts of a new 2-player game's fork to turn 20.
  if (!(game instanceof CompiledGame)) throw new Error('createGame does not run the compiled runtime: no fork() figures');
  const forkMicros = batched(() => (game as InstanceType<typeof CompiledGame>).fork(), MIN_MS / 2);
  const fresh = createGame({ players: ['A', 'B'], seed: 1 }) as InstanceType<typeof CompiledGame>;
  let seed = 1;
  timePerCall(() => playout(fresh, { untilTurn: 20, seed: seed++ }), MIN_MS, CLOCK);
  const playoutsPerSecond = stat(Array.from({ length: RUNS }, () => 1000 / timePerCall(() => playout(fresh, { untilTurn: 20, seed: seed++ }), MIN_MS * 2, CLOCK)));
  // The host's path (issue 21, point 8): bursts of triggers in one checkpoint, 64 players.
  const burstRuns = args.quick ? 1 : 3;
  const bursts = {
    noParameters: { n1000: timeBurst(1000, 'noParameters', burstRuns, MIN_MS, CLOCK), n10000: timeBurst(10_000, 'noParameters', burstRuns, 0, CLOCK) },
    viewAndPending: { n1000: timeBurst(1000, 'viewAndPending', burstRuns, MIN_MS, CLOCK), n10000: timeBurst(10_000, 'viewAndPending', burstRuns, 0, CLOCK) },
  };
  const burstGrowth = (b: { n1000: Stat; n10000: Stat }) => b.n10000.median / b.n1000.median;
  const players64 = time64(RUNS, MIN_MS, CLOCK);
  // Issue 22, point 1: what refusing input far past every bound costs, per KB of it.
  const refusal = timeRefusals(args.quick ? 3 : 5, MIN_MS / 2, CLOCK);
  const rssBytesPer100kGames = rssOf(100_000);
  const bundle = bundleGzipBytes();
  const coverage = coverageRun();
  const seeking = seek();

  const rows = Object.keys(IMPLS).map((impl) => [
    impl,
    ...list.map((w) => fmt(perWorkload[w.name]?.[impl]?.median ?? NaN)),
    fmtStat(overall[impl] as Stat),
    fmt((overall.engine?.median ?? NaN) / (overall[impl]?.median ?? NaN)),
  ]);
  console.log(`\nevents per ${CLOCK === 'cpu' ? 'CPU ' : ''}second, median of ${RUNS} runs (min–max); ${list.map((w) => `${w.name}: ${w.events.length} events`).join(', ')}\n`);
  console.log(table(['implementation', ...list.map((w) => w.name), 'all workloads', 'engine ÷ it'], rows));
  console.log('\n' + table(['figure', 'median (min–max)', 'target', 'met'], [
    ['engine ÷ reducer (events/s)', fmtStat(ratios.engineVsReducer), '≥ 0.5', String(ratios.engineVsReducer.median >= 0.5)],
    ...Object.entries(parity).map(([w, f]) => [`  engine ÷ reducer, ${w} (side by side, one workload at a time)`, fmtStat(f.ratio), '≥ 1', String(f.ratio.median >= 1)]),
    ...Object.entries(byWorkloadInterleaved).map(([w, r]) => [`    the same from the interleaved runs above, ${w}`, fmt(r), '', '']),
    ['engine ÷ engine on XState', fmtStat(ratios.engineVsEngineOnXState), '', ''],
    ['engine ÷ compiled runtime alone (API path within 20%)', fmtStat(ratios.engineVsRuntimeAlone), '≥ 0.8', String(ratios.engineVsRuntimeAlone.median >= 0.8)],
    ['  the same from the interleaved runs above (each 300 ms apart)', fmtStat(ratios.engineVsRuntimeAloneInterleaved), '', ''],
    ['engine + no-op hook ÷ engine (events/s)', fmtStat(ratios.withHook), '≥ 0.8', String(ratios.withHook.median >= 0.8)],
    ['engine + no-op hook (view, pending) ÷ engine', fmtStat(ratios.withViewHook), '', ''],
    ['ms per burst of 1,000 triggers (no-op hook / (view, pending))', `${fmtStat(bursts.noParameters.n1000)} / ${fmtStat(bursts.viewAndPending.n1000)}`, '', ''],
    ['ms per burst of 10,000 triggers (no-op hook / (view, pending))', `${fmtStat(bursts.noParameters.n10000)} / ${fmtStat(bursts.viewAndPending.n10000)}`, '', ''],
    ['  10,000 ÷ 1,000 (linear: 10; quadratic: 100)', `${fmt(burstGrowth(bursts.noParameters))} / ${fmt(burstGrowth(bursts.viewAndPending))}`, 'O(N)', String(burstGrowth(bursts.noParameters) < 20)],
    ['µs per event, 64 players: free-for-all / Grand Melee', `${fmtStat(players64.freeForAllMicrosPerEvent)} / ${fmtStat(players64.grandMeleeMicrosPerEvent)}`, '', ''],
    ['  Grand Melee ÷ free-for-all (time per event)', fmtStat(players64.grandMeleeVsFreeForAll), '≤ 4', String(players64.grandMeleeVsFreeForAll.median <= 4)],
    ['µs per createGame, 64 players: free-for-all / Grand Melee', `${fmtStat(players64.createGameMicros.freeForAll)} / ${fmtStat(players64.createGameMicros.grandMelee)}`, '', ''],
    ['µs per fork() (in batches)', fmtStat(forkMicros), '≤ 5', String(forkMicros.median <= 5)],
    ...refusalRows(refusal),
    ['playouts to turn 20 per second', fmtStat(playoutsPerSecond), '≥ 400', String(playoutsPerSecond.median >= 400)],
    ['RSS bytes per 100,000 live games', fmt(rssBytesPer100kGames), '', ''],
    ['bundle bytes gzipped', bundle.bytes === null ? `n/a: ${bundle.reason}` : fmt(bundle.bytes), '≤ 40960', bundle.bytes === null ? '' : String(bundle.bytes <= 40960)],
    ['engine ÷ boardgame.io (faster of the two)', fmtStat(ratios.engineVsBoardgameio), '≥ 10', String(ratios.engineVsBoardgameio.median >= 10)],
    ['engine ÷ raw XState', fmtStat(ratios.engineVsRawXState), '', ''],
    ['raw XState ÷ reducer', fmtStat(ratios.rawXStateVsReducer), '', ''],
    ['heap bytes per live game (10,000 new games)', fmtStat(heapBytesPerGame), '≤ 2048', String(heapBytesPerGame.median <= 2048)],
    ['heap bytes per live game (10,000 mid-combat)', fmtStat(heapBytesPerGameMidCombat), '', ''],
    ['  of which: context / XState snapshot / actor', `${fmt(heapBreakdown.context)} / ${fmt(heapBreakdown.xstateSnapshot)} / ${fmt(heapBreakdown.xstateActor)}`, '', ''],
    ...persistenceRows({ persistedBytesMidCombat, plain, persistUs, restoreUs, restoreRoundTripUs }),
    ['ms per replayGame seek, 1,000-turn recording', fmtStat(seeking.seekMs), '≤ 5', String(seeking.seekMs.median <= 5)],
    ['model-based coverage run (s)', coverage.available ? fmt(coverage.seconds as number) : `n/a: ${coverage.reason}`, '', ''],
  ]));

  const median = <T extends Record<string, Stat>>(o: T) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v.median])) as Record<keyof T, number>;
  const results = {
    /** Medians (engine events/s divided by theirs); `ratioStats` has min, max and runs. */
    ratios: { ...median(ratios), grandMelee64: players64.grandMeleeVsFreeForAll.median, byWorkload, byWorkloadInterleaved },
    parity: { perWorkload: parity, settings: { runs: RUNS, minMsPerRun: 4 * MIN_MS, clock: CLOCK, interleaved: 'one workload at a time' } },
    ratioStats: ratios,
    /** Median heap bytes per live game; `heapBytesPerGameStats` has min, max and runs. */
    heapBytesPerGame: heapBytesPerGame.median,
    heapBytesPerGameStats: heapBytesPerGame,
    heapBytesPerGameMidCombat,
    heapBreakdown,
    /** Issue 15: µs per game.fork() (mid-combat, 2 players), playouts of a fork to turn 20 per second, RSS of 100,000 new games, the gzipped browser bundle. */
    forkMicros: forkMicros.median,
    forkMicrosStats: forkMicros,
    playoutsPerSecond: playoutsPerSecond.median,
    playoutsPerSecondStats: playoutsPerSecond,
    /** Issue 21, point 8: ms per burst of N triggers in one checkpoint, by hook; `growth` is 10,000's time ÷ 1,000's (linear: 10). */
    triggerBursts: {
      noParameters: { ...bursts.noParameters, growth: burstGrowth(bursts.noParameters) },
      viewAndPending: { ...bursts.viewAndPending, growth: burstGrowth(bursts.viewAndPending) },
    },
    /** Issue 21, point 8: 64 players, µs per event and per createGame; `ratios.grandMelee64` is the median of `grandMeleeVsFreeForAll`. */
    players64,
    /** Issue 22, point 1: µs per KB of refused input (the worst input of each run), and each input's. */
    refusal,
    rssBytesPer100kGames,
    bundleGzipBytes: bundle.bytes,
    ...(bundle.reason === undefined ? {} : { bundleGzipBytesNote: bundle.reason }),
    persistedBytesMidCombat,
    persistMicroseconds: persistUs,
    restoreMicroseconds: restoreUs,
    restoreRoundTripMicroseconds: restoreRoundTripUs,
    coverageRun: coverage,
    /** Issue 23: ms per replayGame(recording, { until }) to a random version of a recorded 1,000-turn game (median of the runs' means). */
    seekMs: seeking.seekMs.median,
    seekMsStats: seeking.seekMs,
    seekRecording: seeking.seekRecording,
    eventsPerSecond: { overall, perWorkload },
    apiPath: { eventsPerSecond: apiPath.overall, settings: { runs: RUNS, minMsPerRun: 4 * MIN_MS, clock: CLOCK, interleaved: 'one workload at a time' } },
    workloads: list.map((w) => ({ name: w.name, players: w.players.length, turns: w.turns, events: w.events.length })),
    equivalence: 'passed',
    settings: { runs: RUNS, minMsPerRun: MIN_MS, clock: CLOCK, gamesForHeap: GAMES, exposeGc: gc !== undefined },
    machine: { cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.availableParallelism(), memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version, platform: `${os.platform()} ${os.release()}` },
    date: new Date().toISOString(),
    seconds: (performance.now() - started) / 1000,
  };
  // The figures of `npm run bench:server` (bench/server.ts) stay: this run does not take them.
  const previous = existsSync(OUT) ? (JSON.parse(readFileSync(OUT, 'utf8')) as Record<string, unknown>) : {};
  writeFileSync(OUT, JSON.stringify(previous.server === undefined ? results : { ...results, server: previous.server }, null, 2) + '\n');
  console.log(`\nwrote ${OUT} in ${fmt(results.seconds)} s`);
}

/**
 * Issue 34: the simulation figures (bench/sim.ts), written into the results file as `sim` (the
 * other figures are kept); `--only sim` takes them alone, and the full run runs `--only sim` in a process of its own after everything else.
 */
async function onlySim(): Promise<void> {
  const f = await simFigures(RUNS, MIN_MS, CLOCK);
  console.log(
    table(
      ['figure', 'median (min–max)', 'target', 'met'],
      [
        ['playouts to turn 20 per second, one core', fmtStat(f.playoutsPerSecond), '', ''],
        [`speed-up from 1 to 2 workers (${f.workers.games} playouts to turn 20, a kept pool; ${f.workers.cores} cores)`, fmt(f.workers.speedUp), '≥ 1.8', String(f.workers.speedUp >= 1.8)],
        ['  ms with 1 worker (wall, a kept pool, warm)', fmtStat(f.workers.oneWorkerMs), '', ''],
        ['  ms with 2 workers (wall, a kept pool, warm)', fmtStat(f.workers.twoWorkersMs), '', ''],
        ['  runs with 1 / 2 workers (ms), 1-minute load before each', `${f.workers.runs.one.join(' ')} / ${f.workers.runs.two.join(' ')}; ${f.workers.runs.loadAverage1.join(' ')}`, '', ''],
        ...(f.workers.threadCpu === null ? [] : [['  threads\' CPU: 1 worker ÷ the busier of 2 (how the games divided)', `${fmt(f.workers.threadCpu.speedUp)} (${f.workers.threadCpu.oneMs.join(' ')} / ${f.workers.threadCpu.twoBusierMs.join(' ')} ms)`, '', '']]),
        ['  cold (simulate starts its threads each call): speed-up', fmt(f.workers.cold.speedUp), '', ''],
        ['  cold: ms with 1 / 2 workers', `${fmtStat(f.workers.cold.oneWorkerMs)} / ${fmtStat(f.workers.cold.twoWorkersMs)}`, '', ''],
        ['µs per fork({ seed })', fmtStat(f.forkSeedMicros), '≤ 1', String(f.forkSeedMicros.median <= 1)],
        ['µs per stateHash, after each send (2 players)', fmtStat(f.stateHashMicros), '≤ 2', String(f.stateHashMicros.median <= 2)],
        ['  the same states kept and hashed in order (timed directly)', fmtStat(f.stateHashWalkMicros), '≤ 2', String(f.stateHashWalkMicros.median <= 2)],
        ['µs per stateHash, a state never hashed (2 players)', fmtStat(f.stateHashColdMicros), '', ''],
      ],
    ),
  );
  console.log(`load average (1, 5, 15 min): ${f.loadAverage.before.join(', ')} before; ${f.loadAverage.after.join(', ')} after (${os.availableParallelism()} cores)`);
  const results = existsSync(OUT) ? (JSON.parse(readFileSync(OUT, 'utf8')) as Record<string, unknown>) : {};
  writeFileSync(OUT, JSON.stringify({ ...results, sim: { ...f, clock: CLOCK, when: new Date().toISOString() } }, null, 2) + '\n');
  console.log(`wrote sim to ${OUT}`);
}

if (args.only === 'seek') onlySeek();
else if (args.only === 'sim') await onlySim();
else {
  main();
  if (args.only === undefined) simInItsOwnProcess();
}

/**
 * The full run's simulation figures, taken by `--only sim` in a process of its own (with this
 * run's options): after the main part this process's heap holds every baseline's garbage and its
 * code has run the reducer, raw XState and boardgame.io, which slowed the playouts, forks and
 * hashes measured after them by up to half. Each part is measured as a host would run it.
 */
function simInItsOwnProcess(): void {
  const forwarded = [
    ...(args.quick ? ['--quick'] : []),
    ...(args.wall ? ['--wall'] : []),
    ...(args.runs === undefined ? [] : ['--runs', args.runs]),
    ...(args['min-ms'] === undefined ? [] : ['--min-ms', args['min-ms']]),
    ...(args.out === undefined ? [] : ['--out', args.out]),
  ];
  const run = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--only', 'sim', ...forwarded], { stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`bench --only sim (the simulation figures, in a process of their own) exited with ${run.status ?? run.signal}`);
}
