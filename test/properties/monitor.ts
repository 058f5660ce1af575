/**
 * Plays a random game and checks every event against the contract: `send` never throws and
 * answers `{ ok: true }` or `{ ok: false, error: { code, message } }`; a refusal leaves
 * `persist()` and `view()` byte-identical; the view keeps its invariants; the steps follow
 * the turn table's successor list; and a game restored from its JSON has the same future.
 * Shared by the property tests (test/properties/) and the soak run (bench/soak.ts).
 */
import { ErrorCode, createGame, restoreGame, type EmittedEvent, type Game, type SendResult, type TurnView } from '../../src/index.js';
import { TurnEventSchema } from '../../src/schemas.js';
import { seededRandom } from '../../src/simulation.js';
import { DECISIONS, makeHostHook, plan, planPass, type Choice, type GameSetup, type Planned } from './arbitraries.js';
import { BlockTracker, acceptedEventProblem, takeNextTurn, turnOrderModel } from './oracles.js';
import { firstStepProblem, lastStepProblem, successorProblem, type StepToken } from './turnTable.js';

const CODES = new Set<string>(Object.values(ErrorCode));
const DECISION_KIND: Record<string, string> = DECISIONS;

/** Counts of what a game did. */
export interface GameStats {
  events: number;
  refused: number;
  turns: number;
}

/** Thrown when a property fails: says which event broke which invariant. */
export class InvariantError extends Error {}

function fail(message: string): never {
  throw new InvariantError(message);
}

const show = (v: unknown): string => {
  try {
    const s = JSON.stringify(v);
    return s === undefined ? String(v) : s.length > 300 ? `${s.slice(0, 300)}...` : s;
  } catch {
    return Object.prototype.toString.call(v);
  }
};

/** Nothing may ever be added to Object.prototype. */
export function prototypeProblem(): string | null {
  const probe = {} as Record<string, unknown>;
  // Pollution by assignment adds enumerable keys; none are there in a clean runtime.
  if (probe.polluted !== undefined || Object.keys(Object.prototype).length > 0) return `Object.prototype was polluted: ${Object.keys(Object.prototype).join(', ')}`;
  return null;
}

/** The checks on one view, alone and against the view before it. */
export function viewProblem(view: TurnView, setup: GameSetup, prev: TurnView | null): string | null {
  const inGame = (p: string | null) => p === null || view.players.includes(p);
  if (!view.players.every((p) => setup.players.includes(p))) return `players ${show(view.players)} are not all seats`;
  if (setup.players.filter((p) => view.players.includes(p)).join('\u0000') !== view.players.join('\u0000')) return 'players are out of turn order';
  if (!inGame(view.priority)) return `priority ${view.priority} is not in the game`;
  if (!inGame(view.activePlayer)) return `activePlayer ${view.activePlayer} is not in the game`;
  const a = view.awaiting;
  if (a !== null && !inGame(a.player)) return `awaiting.player ${a.player} is not in the game`;
  if (a === null && view.priority !== null) return 'priority is set while nothing is awaited';
  if (a !== null && a.kind === 'priority' && view.priority !== a.player) return `awaiting priority from ${a.player} but priority is ${view.priority}`;
  if (a !== null && a.kind !== 'priority' && view.priority !== null) return `awaiting ${a.kind} and priority ${view.priority} are both set`;
  if ((a === null) !== (view.gameOver !== null)) return `awaiting is ${show(a)} while gameOver is ${show(view.gameOver)} (null only when the game is over)`;
  if (a?.kind === 'declareAttackers' && (view.step !== 'declareAttackers' || a.player !== view.activePlayer)) return 'declareAttackers awaited outside its step or not from the active player';
  if (a?.kind === 'declareBlockers' && (view.step !== 'declareBlockers' || !view.combat?.attackers.some((x) => x.defender === a.player))) return 'declareBlockers awaited from a player nobody attacks';
  if (a?.kind === 'discard' && (view.step !== 'cleanup' || a.player !== view.activePlayer || a.count !== (view.handSizes[a.player] ?? 0) - setup.maxHandSize || a.count < 1)) {
    return `discard of ${a.count} awaited, hand ${view.handSizes[a.player]}, maximum ${setup.maxHandSize}`;
  }
  const strayBlocker = view.combat?.blockers.find((b) => !view.players.includes(b.player));
  if (strayBlocker !== undefined && view.gameOver === null) return `blocker ${strayBlocker.id} of ${strayBlocker.player}, who left the game, is still in combat (CR 800.4a)`;
  const stray = view.stack.find((o) => !view.players.includes(o.controller));
  if (stray !== undefined) return `stack object ${stray.id} is controlled by ${stray.controller}, who is not in the game`;
  if (!Number.isInteger(view.landsPlayed) || view.landsPlayed < 0 || view.landsPlayed > 1) return `landsPlayed ${view.landsPlayed} exceeds the allowance of 1 (CR 305.2)`;
  if (Object.keys(view.manaPool).sort().join('\u0000') !== [...view.players].sort().join('\u0000')) return `manaPool keys ${show(Object.keys(view.manaPool))} are not the players`;
  for (const [p, n] of Object.entries(view.manaPool)) if (!Number.isSafeInteger(n) || n < 0) return `${p}'s mana pool is ${n}`;
  for (const [p, n] of Object.entries(view.handSizes)) if (!Number.isSafeInteger(n) || n < 0) return `${p}'s hand size is ${n}`;
  if (view.rules !== setup.rules) return `rules changed to ${view.rules}`;
  if (view.gameOver !== null && (view.players.length !== 1 || show(view.gameOver.winners) !== show(view.players))) return `gameOver ${show(view.gameOver)} with players ${show(view.players)}`;
  if (view.gameOver === null && view.players.length < 2) return 'a live game with fewer than two players';
  if (prev !== null) {
    if (view.turn < prev.turn) return `turn went from ${prev.turn} back to ${view.turn}`;
    if (!view.players.every((p) => prev.players.includes(p))) return 'a player came back into the game';
    if (prev.gameOver !== null && show(view) !== show(prev)) return 'the view changed after the game was over';
  }
  return null;
}

/** Follows `turnBegan` / `stepBegan` through a game and checks them against the successor list. */
class StepTracker {
  turn: number;
  last: StepToken;
  constructor(
    view: TurnView,
    private readonly seats: number,
  ) {
    this.turn = view.turn;
    this.last = `${view.phase}/${view.step}` as StepToken;
  }

  /** Skip effects were pending at some point of this turn (CR 614.10). */
  skipsThisTurn = false;
  /** Phases were added to this turn (CR 500.8). */
  addedThisTurn = false;

  /** Checks what one accepted event emitted; `before` is the view before it. */
  check(emitted: readonly EmittedEvent[], before: TurnView, after: TurnView): string | null {
    const skipsBefore = Object.keys(before.schedule.skips).length > 0;
    if (skipsBefore || before.skippedThisTurn.some((s) => s.rule === '614.10')) this.skipsThisTurn = true;
    if (before.schedule.extraPhases.length > 0) this.addedThisTurn = true;
    let fresh = false;
    for (const e of emitted) {
      const skipsPending = this.skipsThisTurn;
      const addedPhases = this.addedThisTurn;
      if (e.type === 'turnBegan') {
        if (e.turn !== this.turn + 1) return `turnBegan ${e.turn} after turn ${this.turn}: turns must rise by exactly one`;
        const end = lastStepProblem(this.last, { skipsPending, addedPhases });
        if (end !== null) return `turn ${this.turn}: ${end}`;
        if (!after.players.includes(e.activePlayer) && !before.players.includes(e.activePlayer)) return `turn ${e.turn} began for ${e.activePlayer}, who is not in the game`;
        this.turn = e.turn;
        // Added phases end with their turn; skip effects wait for the turn they apply to.
        this.addedThisTurn = false;
        this.skipsThisTurn = skipsBefore;
        fresh = true;
      } else if (e.type === 'stepBegan') {
        if (e.turn !== this.turn) return `stepBegan of turn ${e.turn} during turn ${this.turn}`;
        const token = `${e.phase}/${e.step}` as StepToken;
        const problem = fresh
          ? firstStepProblem(token, { skipsPending, addedPhases })
          : successorProblem(this.last, token, { turn: this.turn, seats: this.seats, skipsPending, addedPhases });
        if (problem !== null) return `turn ${this.turn}: ${problem}`;
        this.last = token;
        fresh = false;
      }
    }
    if (after.turn !== this.turn) return `the view shows turn ${after.turn} but the last turnBegan was ${this.turn}`;
    if (`${after.phase}/${after.step}` !== this.last) return `the view shows ${after.phase}/${after.step} but the last stepBegan was ${this.last}`;
    return null;
  }
}

function resultProblem(result: unknown): string | null {
  if (typeof result !== 'object' || result === null) return `send returned ${show(result)}`;
  const r = result as Record<string, unknown>;
  if (r.ok === true) return Object.keys(r).length === 1 ? null : `send returned ${show(result)}`;
  if (r.ok !== false || Object.keys(r).length !== 2) return `send returned ${show(result)}`;
  const e = r.error as Record<string, unknown> | null;
  if (typeof e !== 'object' || e === null) return `send returned error ${show(e)}`;
  if (typeof e.code !== 'string' || !CODES.has(e.code)) return `unknown error code ${show(e.code)}`;
  if (typeof e.message !== 'string' || e.message.length === 0) return `error without a message: ${show(e)}`;
  const extra = Object.keys(e).filter((k) => k !== 'code' && k !== 'message' && k !== 'rule');
  if (extra.length > 0 || (e.rule !== undefined && typeof e.rule !== 'string')) return `error has unexpected fields: ${show(e)}`;
  return null;
}

function expectationProblem(p: Planned, result: SendResult, before: TurnView): string | null {
  if (before.gameOver !== null) {
    if (result.ok) return 'an event was accepted after the game was over';
    return result.error.code === 'GAME_OVER' || result.error.code === 'INVALID_EVENT' ? null : `after the game was over: ${result.error.code}`;
  }
  const event = p.event as Record<string, unknown> | null;
  const type = typeof event === 'object' && event !== null ? event.type : undefined;
  // Oracles that hold whatever the choice meant to do.
  if (result.ok && typeof type === 'string' && type in DECISION_KIND) {
    const a = before.awaiting;
    if (a === null || a.player !== event?.player || a.kind !== DECISION_KIND[type]) return `${type} from ${String(event?.player)} accepted while awaiting ${show(a)}`;
  }
  if (result.ok && typeof event?.player === 'string' && !before.players.includes(event.player)) return `an event from ${event.player}, who left, was accepted`;
  const why = result.ok ? 'accepted' : `${result.error.code}: ${result.error.message}`;
  switch (p.expect) {
    case 'any':
      return null;
    case 'accept':
      return result.ok ? null : `expected acceptance (${p.why}), got ${why}`;
    case 'accept-or-cap':
      return result.ok || result.error.code === 'LOOP_LIMIT' ? null : `expected acceptance or LOOP_LIMIT (${p.why}), got ${why}`;
    case 'refuse':
      if (TurnEventSchema.safeParse(p.event).success) return null;
      return !result.ok && result.error.code === 'INVALID_EVENT' ? null : `expected INVALID_EVENT (${p.why}), got ${why}`;
    default:
      return !result.ok && result.error.code === p.expect ? null : `expected ${p.expect} (${p.why}), got ${why}`;
  }
}

/** Decisions whose acceptance depends only on type, player and speed: legalActions lists exactly the accepted ones. */
const FIXED_DECISIONS = new Set(['PASS_PRIORITY', 'CAST_SPELL', 'ACTIVATE_ABILITY', 'PLAY_LAND', 'CONCEDE']);

function legalityOracle(event: unknown): boolean {
  return typeof event === 'object' && event !== null && FIXED_DECISIONS.has((event as { type?: string }).type as string) && TurnEventSchema.safeParse(event).success;
}

/** `legalActions` (before the event) listed a well-formed decision exactly when the game accepted it. */
function legalActionsProblem(event: unknown, templates: ReturnType<Game['legalActions']> | null, result: SendResult): string | null {
  if (templates === null) return null;
  const e = event as { type: string; player: string; speed?: string };
  const listed = templates.some((t) => t.type === e.type && t.player === e.player && (t.speed === undefined || t.speed === e.speed));
  if (listed && !result.ok) return `legalActions listed ${e.type} from ${e.player}${e.speed ? ` (${e.speed})` : ''}, but it was refused`;
  if (!listed && result.ok) return `legalActions did not list ${e.type} from ${e.player}${e.speed ? ` (${e.speed})` : ''}, but it was accepted`;
  return null;
}

/** A game under watch: its view, its emitted events and its step tracker. */
class Watched {
  readonly emitted: EmittedEvent[] = [];
  readonly steps: StepTracker;
  readonly blocks: BlockTracker;
  constructor(
    readonly game: Game,
    readonly seats: readonly string[],
    /** The player of the last regular turn, for the turn order oracle. */
    public rotation: string,
  ) {
    game.on('*', (e) => this.emitted.push(e));
    this.steps = new StepTracker(game.view(), seats.length);
    this.blocks = new BlockTracker(seats);
  }
}

/** Each turn that began went to the player the rules say (CR 101.4, 500.7, 614.10, 800.4k). */
function turnOrderProblem(watched: Watched, before: TurnView, after: TurnView): string | null {
  const began = watched.emitted.filter((e) => e.type === 'turnBegan');
  if (began.length === 0) return null;
  const model = turnOrderModel(watched.rotation, before);
  for (const e of began) {
    const expected = takeNextTurn(model, watched.seats, after.players);
    if (e.type === 'turnBegan' && e.activePlayer !== expected) return `turn ${e.turn} went to ${e.activePlayer}, not ${expected}`;
  }
  watched.rotation = model.rotation;
  return null;
}

/** Options of {@link runGame}. */
export interface RunOptions {
  /** Called after every event (the soak run counts them). */
  onEvent?: (ok: boolean) => void;
  /** Called with a line per event, for replaying a counterexample by hand. */
  trace?: (line: string) => void;
}

/** Plays `choices` on a new game of `setup`, checking every event. Throws an {@link InvariantError} on the first problem. */
export function runGame(setup: GameSetup, choices: readonly Choice[], options: RunOptions = {}): GameStats {
  const host = setup.hostTriggers ? makeHostHook() : null;
  const { hostTriggers: _h, ...createOptions } = setup;
  const main = new Watched(createGame({ ...createOptions, ...(host ? { hooks: { checkpoint: host.hook } } : {}) }), setup.players, setup.startingPlayer);
  let twin: Watched | null = null;
  let twinLeft = 0;
  const stats: GameStats = { events: 0, refused: 0, turns: 1 };
  let serial = 0;
  // Declarations made while passing along: random but legal, from a stream fixed by the game.
  const fight = seededRandom(setup.players.length * 7919 + setup.handSize * 31 + setup.maxHandSize);

  const step = (planned: Planned, label: string): void => {
    serial++;
    const game = main.game;
    const view = game.view();
    const beforeView = JSON.stringify(view);
    const beforePersist = JSON.stringify(game.persist());
    const templates = legalityOracle(planned.event) ? game.legalActions() : null;
    main.emitted.length = 0;
    let result: SendResult;
    try {
      result = game.send(planned.event);
    } catch (err) {
      return fail(`${label}: send threw ${String(err)} for ${show(planned.event)}`);
    }
    stats.events++;
    const where = `${label} (turn ${view.turn} ${view.phase}/${view.step}, awaiting ${show(view.awaiting)}): ${show(planned.event)} -> ${show(result)}`;
    const problem = resultProblem(result) ?? expectationProblem(planned, result, view) ?? legalActionsProblem(planned.event, templates, result) ?? prototypeProblem();
    if (problem !== null) fail(`${where}: ${problem}`);
    const after = game.view();
    if (!result.ok) {
      stats.refused++;
      if (JSON.stringify(after) !== beforeView) fail(`${where}: refused, but view() changed`);
      if (JSON.stringify(game.persist()) !== beforePersist) fail(`${where}: refused, but persist() changed`);
      if (main.emitted.length > 0) fail(`${where}: refused, but emitted ${show(main.emitted)}`);
    } else {
      const skipsPending = Object.keys(view.schedule.skips).length > 0 || view.schedule.extraPhases.length > 0;
      const stepProblem =
        main.steps.check(main.emitted, view, after) ??
        acceptedEventProblem(planned.event, view, after, main.emitted, setup) ??
        turnOrderProblem(main, view, after) ??
        main.blocks.check(planned.event, view, after, main.emitted, skipsPending);
      if (stepProblem !== null) fail(`${where}: ${stepProblem}; emitted ${show(main.emitted)}`);
    }
    const viewIssue = viewProblem(after, setup, view);
    if (viewIssue !== null) fail(`${where}: ${viewIssue}`);
    if (twin !== null) {
      twin.emitted.length = 0;
      const twinResult = twin.game.send(planned.event);
      if (JSON.stringify(twinResult) !== JSON.stringify(result)) fail(`${where}: the restored game answered ${show(twinResult)}`);
      if (JSON.stringify(twin.game.view()) !== JSON.stringify(after)) fail(`${where}: the restored game's view differs`);
      if (JSON.stringify(twin.game.persist()) !== JSON.stringify(game.persist())) fail(`${where}: the restored game's persist() differs`);
      if (JSON.stringify(twin.emitted) !== JSON.stringify(main.emitted)) fail(`${where}: the restored game emitted ${show(twin.emitted)}, not ${show(main.emitted)}`);
      if (--twinLeft <= 0) twin = null;
    }
    stats.turns = after.turn;
    options.onEvent?.(result.ok);
    options.trace?.(`${where}\n    emitted ${show(main.emitted)}\n    schedule ${show(after.schedule)}`);
  };

  for (const [i, choice] of choices.entries()) {
    const label = `choice ${i} (${choice.kind})`;
    if (choice.kind === 'restore') {
      const data = JSON.parse(JSON.stringify(main.game.persist())) as unknown;
      const hooks = host ? { hooks: { checkpoint: makeHostHook(new Set(host.fired)).hook } } : {};
      let restored: Game;
      try {
        restored = restoreGame(data, hooks);
      } catch (err) {
        return fail(`${label}: restoreGame refused persist(): ${String(err)}`);
      }
      if (JSON.stringify(restored.view()) !== JSON.stringify(main.game.view())) fail(`${label}: the restored view differs`);
      if (JSON.stringify(restored.persist()) !== JSON.stringify(main.game.persist())) fail(`${label}: the restored persist() differs`);
      twin = new Watched(restored, setup.players, main.rotation);
      twinLeft = choice.span;
      continue;
    }
    if (choice.kind === 'passTo') {
      for (let n = 0; n < 60 && main.game.view().step !== choice.step; n++) {
        const planned = planPass(main.game.view(), setup, fight);
        if (planned === null) break;
        step(planned, `${label} #${n}`);
      }
      continue;
    }
    if (choice.kind === 'timing') {
      for (let n = 0; n < choice.times; n++) {
        const planned = plan({ ...choice, seed: choice.seed + n }, main.game, main.game.view(), setup, serial);
        if (planned !== null) step(planned, `${label} #${n}`);
      }
      continue;
    }
    if (choice.kind === 'pass') {
      for (let n = 0; n < choice.times; n++) {
        const planned = planPass(main.game.view(), setup, fight);
        if (planned === null) break;
        step(planned, `${label} #${n}`);
      }
      continue;
    }
    const planned = plan(choice, main.game, main.game.view(), setup, serial);
    if (planned !== null) step(planned, label);
  }
  return stats;
}
