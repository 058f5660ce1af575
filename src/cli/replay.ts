/**
 * `mtg-turn-engine replay FILE [--until N] [--scenario]`: replays a recorded game
 * (`simulate --record FILE`, or any `game.recording()` saved as JSON) and prints its log as
 * `simulate` does; with `--scenario`, prints the recording's scenario JSON on stdout instead
 * (CONTRACT v3, "Recordings"). A file that is not a recording, or does not replay, is refused
 * with the field named, exit code 2.
 */
import { parseArgs } from 'node:util';
import { ErrorCode, TurnEngineError } from '../errors.js';
import { recordingToScenario } from '../recording/scenario.js';
import { runReplay } from '../recording/replay.js';
import { allModules } from '../allModules.js';
import { describeEmitted, describeSent, describeStart } from './log.js';
import { printable, type Command } from './command.js';
import { readRecordingFile } from './recordingFiles.js';

/** A version from the command line: a whole number from 0. */
function versionOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isSafeInteger(n) || n < 0) throw new Error(`--until must be a version, a whole number from 0; got '${printable(value)}'`);
  return n;
}

/** Runs a replay, naming the option `--until` where the API names `options.until`. */
function untilChecked<T>(replay: () => T): T {
  try {
    return replay();
  } catch (err) {
    if (err instanceof TurnEngineError && err.code === ErrorCode.INVALID_OPTIONS) throw new Error(err.message.replace(/^options\.until/, '--until'));
    throw err;
  }
}

export const replayCommand: Command = {
  summary: 'replay a recorded game (simulate --record) and print its log, or its scenario',
  usage: 'replay <file> [--until N] [--scenario] [--quiet]',
  options: [
    '<file>             a recording: the JSON of game.recording() (simulate --record writes one)',
    '--until <n>        stop at this version (default: the last one recorded)',
    '--scenario         print the recorded game as a scenario (JSON, on stdout) instead of its log',
    '--quiet            print only the summary',
  ],
  async run(args) {
    const { positionals, values } = parseArgs({
      args,
      allowPositionals: true,
      options: { until: { type: 'string' }, scenario: { type: 'boolean', default: false }, quiet: { type: 'boolean', default: false } },
    });
    if (positionals.length !== 1) throw new Error(`name one recording file${positionals.length > 1 ? `; got ${positionals.length}` : ''}`);
    const file = positionals[0] as string;
    const until = versionOption(values.until);
    const recording = await readRecordingFile(file);
    if (values.scenario) {
      const scenario = untilChecked(() => recordingToScenario(recording, until === undefined ? {} : { until }));
      process.stdout.write(`${JSON.stringify(scenario, null, 2)}\n`);
      return 0;
    }
    const print = (line: string | null) => {
      if (!values.quiet && line !== null) console.log(line);
    };
    let sends = 0;
    const game = untilChecked(() => runReplay(recording, until === undefined ? { use: allModules } : { until, use: allModules }, ({ event, events, game: g }) => {
      const view = g.view();
      if (event === null) {
        console.log(`mtg-turn-engine replay: ${printable(file)}: ${view.players.length} players, '${view.rules}' rules, from version ${view.version}`);
        print(describeStart(view));
        return;
      }
      sends++;
      print(describeSent(event as unknown as Record<string, unknown>, true, view));
      for (const e of events) print(describeEmitted(e));
    }));
    const view = game.view();
    console.log('\nSummary');
    console.log(`  replayed ${sends} sends to version ${view.version}: turn ${view.turn}, ${view.phase}/${view.step}`);
    console.log(`  players: ${view.players.join(', ')}; winner: ${view.gameOver?.winners.join(', ') || 'none (the game goes on)'}`);
    return 0;
  },
};
