/**
 * What refusing bad input costs (issue 22, point 1): microseconds per KB of refused input, for
 * inputs far past every bound, at each boundary: events sent with `send` (a megabyte of
 * attackers, of triggers, of unknown keys; ten million holes; a 1 MB id; 10,000 levels of
 * nesting), createGame's options (a megabyte of players, ten million teams) and a checkpoint
 * hook's result (a megabyte of events, ten million triggers). The size of an input is that of
 * its JSON text (a hole counts as `null,`). A refusal must take well under a millisecond per KB:
 * lengths are checked before any entry is read, so the larger the input, the less per KB.
 *
 *   node --import tsx bench/refusal.ts            # prints the figures (needs `npm run build`)
 *   node --import tsx bench/refusal.ts --write    # and records them as `refusal` in bench/results.json
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createGame, type Game } from './engine.js';
import { fmt, fmtStat, stat, table, timePerCall, type Clock, type Stat } from './measure.js';

/** One refused input: how to refuse it once, its size in bytes, and the code it must get. */
interface Refused {
  name: string;
  bytes: number;
  code: string;
  refuse: () => string;
}

const holes = (length: number): unknown[] => {
  const a: unknown[] = [];
  a.length = length;
  return a;
};
/** A list of `n` copies of `entry`, and its size as JSON. */
const copies = (entry: unknown, n: number) => ({ list: Array.from({ length: n }, () => structuredClone(entry)), bytes: 2 + n * (JSON.stringify(entry).length + 1) });
const MB = 1024 * 1024;
/** How many copies of `entry` make about a megabyte of JSON. */
const perMB = (entry: unknown) => Math.ceil(MB / (JSON.stringify(entry).length + 1));
const HOLES = 10_000_000;
const HOLE_BYTES = 2 + HOLES * 5;

function deep(depth: number): unknown {
  let v: unknown = 'x';
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** The code of a refused send (or 'accepted'). */
function sendCode(game: Game, event: unknown): string {
  const r = game.send(event);
  return r.ok ? 'accepted' : r.error.code;
}

/** The code createGame throws (or 'created'). */
function createCode(options: unknown): string {
  try {
    createGame(options as never);
    return 'created';
  } catch (err) {
    return (err as { code?: string }).code ?? 'threw';
  }
}

/** Every refused input the figure is taken over, each made once (a refusal reads it, never changes it). */
export function refusedInputs(): Refused[] {
  const game = createGame({ players: ['A', 'B'] });
  const event = (name: string, value: unknown, bytes: number): Refused => ({ name: `send: ${name}`, bytes, code: 'INVALID_EVENT', refuse: () => sendCode(game, value) });
  const attacker = { id: 'creature-0001', defender: 'B' };
  const trigger = { id: 'trigger-0001', controller: 'A' };
  const attackers = copies(attacker, perMB(attacker));
  const triggers = copies(trigger, perMB(trigger));
  const junkKeys = Object.fromEntries(Array.from({ length: perMB({ k0000000: 0 }) }, (_, i) => [`k${String(i).padStart(7, '0')}`, 0]));
  const mbId = 'x'.repeat(MB);
  const players = copies('player-0001', perMB('player-0001'));
  // A hook that returns what `answer` holds (nothing while the game is made).
  let answer: unknown;
  const hooked = createGame({ players: ['A', 'B'], hooks: { checkpoint: () => answer as never } });
  const hook = (name: string, result: unknown, bytes: number): Refused => ({
    name: `hook result: ${name}`,
    bytes,
    code: 'HOOK_FAILED',
    refuse: () => {
      answer = result;
      const code = sendCode(hooked, { type: 'PASS_PRIORITY', player: 'A' });
      answer = undefined;
      return code;
    },
  });
  const holeyPlayers = { players: holes(HOLES) };
  const holeyTeams = { players: ['A', 'B'], teams: holes(HOLES) };
  const mana = { type: 'ADD_MANA', player: 'A', amount: 1 };
  const events = copies(mana, perMB(mana));
  return [
    event('1 MB of attackers', { type: 'DECLARE_ATTACKERS', player: 'A', attackers: attackers.list }, attackers.bytes),
    event('10,000,000 holes as attackers', { type: 'DECLARE_ATTACKERS', player: 'A', attackers: holes(HOLES) }, HOLE_BYTES),
    event('1 MB of triggers', { type: 'TRIGGER', triggers: triggers.list }, triggers.bytes),
    event('10,000,000 holes as blockers', { type: 'DECLARE_BLOCKERS', player: 'B', blockers: holes(HOLES) }, HOLE_BYTES),
    event('a 1 MB id', { type: 'CAST_SPELL', player: 'A', id: mbId, speed: 'instant' }, MB + 60),
    event('1 MB of unknown keys (speed wrong)', { type: 'CAST_SPELL', player: 'A', id: 's', speed: 'fast', ...junkKeys }, JSON.stringify(junkKeys).length + 60),
    event('10,000 levels of nesting in a list', { type: 'ORDER_TRIGGERS', player: 'A', order: deep(10_000) }, 20_000 + 50),
    { name: 'createGame: 1 MB of players', bytes: players.bytes, code: 'INVALID_OPTIONS', refuse: () => createCode({ players: players.list }) },
    { name: 'createGame: 10,000,000 holes as players', bytes: HOLE_BYTES, code: 'INVALID_OPTIONS', refuse: () => createCode(holeyPlayers) },
    { name: 'createGame: 10,000,000 holes as teams', bytes: HOLE_BYTES, code: 'INVALID_OPTIONS', refuse: () => createCode(holeyTeams) },
    hook('1 MB of events', { events: events.list }, events.bytes),
    hook('10,000,000 holes as triggers', { triggers: holes(HOLES) }, HOLE_BYTES),
  ];
}

/** Checks that every input is refused with its code (not timed). */
export function checkRefusals(inputs = refusedInputs()): void {
  for (const input of inputs) {
    const code = input.refuse();
    if (code !== input.code) throw new Error(`${input.name}: expected ${input.code}, got ${code}`);
  }
}

/** The figures: µs per KB of each input (median of `runs`), and the worst input's, run by run. */
export function timeRefusals(runs: number, minMs: number, clock: Clock) {
  const inputs = refusedInputs();
  checkRefusals(inputs);
  const perInput = inputs.map((input) => {
    const perKB = () => (timePerCall(() => void input.refuse(), minMs, clock) * 1000) / (input.bytes / 1024);
    perKB();
    return { name: input.name, bytes: input.bytes, samples: Array.from({ length: runs }, perKB) };
  });
  const worst = stat(Array.from({ length: runs }, (_, r) => Math.max(...perInput.map((p) => p.samples[r] as number))));
  return {
    /** µs per KB of refused input, the worst input of each run: a refusal must take well under 1,000 (a millisecond per KB). */
    microsPerKB: worst,
    byInput: Object.fromEntries(perInput.map((p) => [p.name, { bytes: p.bytes, microsPerKB: stat(p.samples) }])) as Record<string, { bytes: number; microsPerKB: Stat }>,
  };
}

/** The rows of the bench table. */
export function refusalRows(figures: ReturnType<typeof timeRefusals>): string[][] {
  return [
    ['µs per KB of refused input (worst input: events, options, hook results)', fmtStat(figures.microsPerKB), '≤ 100', String(figures.microsPerKB.median <= 100)],
    ...Object.entries(figures.byInput).map(([name, f]) => [`  ${name} (${fmt(f.bytes / 1024)} KB)`, fmtStat(f.microsPerKB), '', '']),
  ];
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const quick = process.argv.includes('--quick');
  const figures = timeRefusals(quick ? 3 : 5, quick ? 50 : 200, 'cpu');
  console.log(table(['figure', 'median (min–max)', 'target', 'met'], refusalRows(figures)));
  if (process.argv.includes('--write')) {
    const out = fileURLToPath(new URL('./results.json', import.meta.url));
    const results = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>;
    results.refusal = figures;
    writeFileSync(out, JSON.stringify(results, null, 2) + '\n');
    console.log(`recorded as refusal in ${out}`);
  }
}
