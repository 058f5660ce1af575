/**
 * Recorded random games for the acceptance of issue 23 ("Recorded games"): seeded random games
 * of every setup of the lockstep (test/runtime/lockstep.ts `setupOf`: every variant, era,
 * pregame, players ordering triggers, attack options), with checkpoint hooks that stay quiet,
 * report triggers and state-based actions, return host events, or fail now and then, played
 * with `record: true`. What a host sees at every version is kept beside the recording: the
 * view, the events each send emitted and `persist()`. A restore in the middle of a game starts a
 * new recording (`restoreGame(p, { record: true })`), so restored games are recorded too.
 */
import { isDeepStrictEqual } from 'node:util';
import { createGame, recordingToScenario, replayGame, restoreGame, runScenario, type CheckpointResult, type EmittedEvent, type Game, type GameOptions, type Recording, type TurnView } from '../../src/index.js';
import { runReplay } from '../../src/recording/replay.js';
import { seededRandom } from '../../src/simulation.js';
import { setupOf } from '../runtime/lockstep.js';
import { fill, hostEvent, refusedEvent, sharesTurns } from './harness.js';

type Random = () => number;

function pick<T>(r: Random, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)] as T;
}

/** A checkpoint hook of one of four kinds: quiet, reporting, returning host events, or failing now and then (as the lockstep's). */
function hookOf(kind: number, r: Random): NonNullable<GameOptions['hooks']>['checkpoint'] {
  let serial = 0;
  return (view: TurnView) => {
    if (kind === 0) return undefined;
    const roll = r();
    if (kind === 3 && roll < 0.01) throw new Error('host failure');
    if (kind === 3 && roll < 0.015) return { triggers: [{ id: 'bad', controller: 'nobody' }] };
    if (roll < 0.05) return { triggers: [{ id: `h${serial++}`, controller: pick(r, view.players) }] };
    if (roll < 0.08 && view.step === 'cleanup') return { stateBasedActions: true };
    if (kind >= 2 && roll < 0.12) return { events: [hostEvent(view, r, 100_000 + serial++)] } as CheckpointResult;
    return undefined;
  };
}

/** What a host saw of one recorded game (from its start or a restore): at every version, its view, persist() and the events of the send that made it. */
export interface Segment {
  recording: Recording;
  views: string[];
  persisted: string[];
  /** The events of each input: createGame's own first (none for a restore). */
  events: string[];
}

/** Plays recorded game `n` of `length` sends; returns each recorded stretch of it. `long`: no restores and no concessions (a game that crosses snapshots). */
export function playRecorded(n: number, length = 110, long = false): Segment[] {
  const setup = setupOf(n);
  const r = seededRandom(setup.seed);
  const hookKind = n % 5 === 4 ? -1 : n % 4;
  const hooks = hookKind < 0 ? undefined : { checkpoint: hookOf(hookKind, seededRandom(setup.seed + 1)) };
  const played: { game: Game; views: string[]; persisted: string[]; events: string[] }[] = [];
  const startEvents: EmittedEvent[] = [];
  let game: Game;
  try {
    game = createGame({ ...setup, record: true, ...(hooks === undefined ? {} : { hooks }), listeners: { '*': (e) => void startEvents.push(e) } });
  } catch {
    return []; // a hook that failed in createGame: no game, no recording
  }
  const begin = (g: Game, events: EmittedEvent[]) => void played.push({ game: g, views: [JSON.stringify(g.view())], persisted: [JSON.stringify(g.persist())], events: [JSON.stringify(events)] });
  begin(game, startEvents);
  for (let i = 0; i < length; i++) {
    const view = game.view();
    if (view.gameOver !== null) break;
    const roll = r();
    if (roll < 0.03 && !long) {
      game = restoreGame(JSON.parse(JSON.stringify(game.persist())), { record: true, ...(hooks === undefined ? {} : { hooks }) });
      begin(game, []);
      continue;
    }
    let event: unknown;
    if (roll < 0.74) {
      const actions = game.legalActions().filter((a) => a.type !== 'CONCEDE' || (!long && r() < 0.01));
      if (actions.length === 0) break;
      const pass = actions.find((a) => a.type === 'PASS_PRIORITY');
      event = fill(pass !== undefined && r() < 0.7 ? pass : pick(r, actions), view, r, i, sharesTurns(setup));
    } else if (roll < 0.93) {
      event = hostEvent(view, r, i);
      if (view.turns !== undefined && r() < 0.7) event = { ...(event as object), turnMarker: pick(r, view.turns).turnMarker };
    } else if (roll < 0.99 || long) event = refusedEvent(view, r);
    else event = { type: 'CONCEDE', player: pick(r, view.players) };
    const result = game.send(event as never);
    const now = played[played.length - 1] as (typeof played)[number];
    if (result.ok) {
      now.views.push(JSON.stringify(game.view()));
      now.persisted.push(JSON.stringify(game.persist()));
      now.events.push(JSON.stringify(result.events));
    }
  }
  return played.map(({ game: g, ...seen }) => ({ recording: JSON.parse(JSON.stringify(g.recording())) as Recording, ...seen }));
}

/**
 * The differences between a recorded stretch and its replays (empty: none): replayed from its
 * start with no hook, every version's view, persist() and emitted events are the original's
 * (byte for byte); replayGame to its end and to a version chosen at random (from the nearest
 * snapshot) shows the view and persist() of that version; and, for a game made by createGame,
 * its scenario passes through the project's runner.
 */
export function differences(segment: Segment, r: Random, scenario = true): string[] {
  const out: string[] = [];
  const { recording } = segment;
  const heard: EmittedEvent[] = [];
  runReplay(recording, { listeners: { '*': (e) => void heard.push(e) } }, ({ index, events, game }) => {
    const view = JSON.stringify(game.view());
    if (view !== segment.views[index]) out.push(`input ${index}: the view differs`);
    if (JSON.stringify(game.persist()) !== segment.persisted[index]) out.push(`input ${index}: persist() differs`);
    if (index > 0 && JSON.stringify(events) !== segment.events[index]) out.push(`input ${index}: the emitted events differ`);
  });
  const all = segment.events.flatMap((e) => JSON.parse(e) as EmittedEvent[]);
  if (JSON.stringify(heard) !== JSON.stringify(all)) out.push('the listeners heard other events');
  const last = segment.views.length - 1;
  for (const index of [last, Math.floor(r() * segment.views.length)]) {
    const start = JSON.parse(segment.views[0] as string).version as number;
    const game = replayGame(recording, { until: start + index });
    if (JSON.stringify(game.view()) !== segment.views[index]) out.push(`replayGame until ${start + index}: the view differs`);
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(game.persist())), JSON.parse(segment.persisted[index] as string))) out.push(`replayGame until ${start + index}: persist() differs`);
  }
  if (scenario && recording.from === 'options') {
    const result = runScenario(recordingToScenario(recording));
    if (!result.ok) out.push(`its scenario fails: step ${result.failures[0]?.stepIndex}: ${result.failures[0]?.message}`);
  }
  return out;
}
