/**
 * `mtg-turn-engine simulate`: a game of random but legal actions, printed as a turn log.
 */
import { parseArgs } from 'node:util';
import type { EmittedEvent } from '../contract.js';
import { seatsOf, simulate } from '../simulation.js';
import { playInspected } from './live.js';
import { describeEmitted, describeSent, describeStart } from './log.js';
import type { Command } from './command.js';
import { checkRecordingPath, writeRecordingFile } from './recordingFiles.js';

function intOption(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be a whole number from ${min} to ${max}; got '${value}'`);
  return n;
}

export const simulateCommand: Command = {
  summary: 'play a game of random legal actions and print the turn log',
  usage: 'simulate [--players 2-8] [--turns N] [--rules current|m10|classic] [--variant NAME] [--pregame] [--concede] [--seed N] [--quiet] [--record FILE] [--inspect [--relay URL] | --stately [--port N]] [--delay MS]',
  options: [
    '--players <n>      players, 2 to 8 (default 2; a variant sets its own: Two-Headed Giant 4, Archenemy 4, Emperor 6, Grand Melee 10, and refuses another --players)',
    '--turns <n>        stop after this many turns (default 3; 1000 with --concede)',
    "--rules <era>      'current' (default), 'm10' or 'classic'",
    "--variant <name>   'freeForAll' (default), 'twoHeadedGiant', 'archenemy', 'emperor', 'planechase' or 'grandMelee' (10 players, two turn markers)",
    '--pregame          begin with the pregame: starting player, mulligans (CR 103)',
    '--concede          conceding is among the random legal actions, so the game plays to its end (a winner)',
    '--seed <n>         the seed of the random actions and of the game (default 1)',
    '--quiet            print only the summary',
    '--record <file>    write the game\'s recording (JSON, game.recording()) to this file, for `replay`',
    '--inspect          stream the game to the inspector relay (with --relay <url>, default ws://127.0.0.1:4173/relay); a free-for-all, without --variant, --pregame or --concede',
    "--stately          serve the game to Stately's inspector (with --port <n>, default 8080; binds 127.0.0.1, with the relay's checks)",
    '--delay <ms>       with --inspect or --stately, the pause between actions (default 400)',
  ],
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        players: { type: 'string' },
        turns: { type: 'string' },
        rules: { type: 'string' },
        variant: { type: 'string' },
        pregame: { type: 'boolean', default: false },
        concede: { type: 'boolean', default: false },
        seed: { type: 'string' },
        quiet: { type: 'boolean', default: false },
        record: { type: 'string' },
        inspect: { type: 'boolean', default: false },
        relay: { type: 'string' },
        stately: { type: 'boolean', default: false },
        port: { type: 'string' },
        delay: { type: 'string' },
      },
    });
    const rules = values.rules ?? 'current';
    if (rules !== 'current' && rules !== 'm10' && rules !== 'classic') throw new Error(`--rules must be current, m10 or classic; got '${rules}'`);
    const VARIANTS = ['freeForAll', 'twoHeadedGiant', 'archenemy', 'emperor', 'planechase', 'grandMelee'] as const;
    const variant = values.variant ?? 'freeForAll';
    if (!VARIANTS.includes(variant as never)) throw new Error(`--variant must be one of ${VARIANTS.join(', ')}; got '${variant}'`);
    const players = intOption(values.players, 'players', 2, 8) ?? 2;
    // A variant seats its own players: a --players that does not fit is refused, not ignored.
    const seated = seatsOf(variant as (typeof VARIANTS)[number], players).players.length;
    if (values.players !== undefined && seated !== players) throw new Error(`--players ${players} does not fit --variant ${variant}, which is played by ${seated} players here: leave out --players`);
    const turns = intOption(values.turns, 'turns', 1, 1_000_000) ?? (values.concede ? 1000 : 3);
    const seed = intOption(values.seed, 'seed', 0, 2 ** 32 - 1) ?? 1;
    const print = (line: string | null) => {
      if (!values.quiet && line !== null) console.log(line);
    };
    if (values.inspect || values.stately) {
      // A live game for an inspector: see live.ts. It is a free-for-all without the pregame.
      if (values.record !== undefined) throw new Error(`--record: not with --${values.stately ? 'stately' : 'inspect'} (a live game is not recorded; record a simulation without it)`);
      const unplayed = (['variant', 'pregame', 'concede'] as const).filter((o) => values[o] !== undefined && values[o] !== false);
      if (unplayed.length > 0) throw new Error(`--${unplayed.join(', --')}: not played with --${values.stately ? 'stately' : 'inspect'} (the live game is a free-for-all without the pregame)`);
      const delayMs = intOption(values.delay, 'delay', 0, 60_000) ?? 400;
      const target = values.stately
        ? ({ kind: 'stately', port: intOption(values.port, 'port', 1, 65_535) ?? 8080 } as const)
        : ({ kind: 'relay', url: values.relay ?? 'ws://127.0.0.1:4173/relay' } as const);
      console.log(`mtg-turn-engine simulate --${values.stately ? 'stately' : 'inspect'}: ${players} players, ${turns} turns, '${rules}' rules, seed ${seed}, ${delayMs} ms per action`);
      const { events, view } = await playInspected({ players, turns, rules, seed, delayMs, target, print: (line) => print(line) });
      console.log(`${events} events sent; stopped in turn ${view.turn}, ${view.phase}/${view.step}`);
      return 0;
    }
    // A --record file that could not be written is refused before the game is played.
    if (values.record !== undefined) await checkRecordingPath(values.record, '--record');
    const pending: EmittedEvent[] = [];
    console.log(`mtg-turn-engine simulate: ${variant === 'freeForAll' ? `${players} players` : variant}, ${turns} turns, '${rules}' rules${values.pregame ? ', with the pregame' : ''}${values.concede ? ', players may concede' : ''}, seed ${seed}`);
    const summary = simulate({
      players,
      turns,
      rules,
      variant: variant as (typeof VARIANTS)[number],
      pregame: values.pregame,
      allowConcede: values.concede,
      seed,
      ...(values.record === undefined ? {} : { game: { record: true } }),
      onStart: (game) => print(describeStart(game.view())),
      // What an event caused is printed after the line of the event itself.
      onEmit: (e) => pending.push(e),
      onSend: (event, ok, view) => {
        print(describeSent(event, ok, view));
        for (const e of pending.splice(0)) print(describeEmitted(e));
      },
    });
    const view = summary.game.view();
    console.log('\nSummary');
    console.log(`  turns played: ${Math.min(view.turn, turns)}${view.turn > turns ? '' : ` (stopped in turn ${view.turn}, ${view.phase}/${view.step})`}`);
    if (view.turns !== undefined) console.log(`  turn markers (CR 807.4): ${view.turns.map((t) => `${t.turnMarker}: ${t.player}, turn ${t.turn}${t.waiting ? ' (waiting)' : ''}`).join('; ')}`);
    console.log(`  events sent: ${summary.events} (${summary.refused} refused), objects resolved: ${summary.resolved}`);
    console.log(`  players: ${view.players.join(', ')}; hand sizes: ${Object.entries(view.handSizes).map(([p, n]) => `${p}=${n}`).join(', ')}`);
    console.log(`  winner: ${summary.winners?.join(', ') ?? 'none (the game goes on)'}`);
    // The engine's speed: the time of game.send alone, not of the random choices, legalActions or the printing.
    const seconds = summary.sendMs / 1000;
    console.log(`  the engine: ${summary.events} events in ${seconds.toFixed(3)} s of game.send (${Math.round(summary.events / Math.max(seconds, 1e-6)).toLocaleString('en-US')} events/s)`);
    if (values.record !== undefined) {
      const recording = summary.game.recording();
      await writeRecordingFile(values.record, `${JSON.stringify(recording)}\n`, '--record');
      console.log(`  recording: ${recording.inputs.length - 1} accepted sends written to ${values.record} (mtg-turn-engine replay ${values.record})`);
    }
    return 0;
  },
};
