/**
 * The Grand Melee coordinator (CR 807.4, 807.5): the turn markers of one game, each with its
 * own run of the turn chart (its own turn, stack and priority) and its own run of the marker
 * statechart (machines/grandMelee.machine.ts, compiled). Pure functions over immutable markers:
 * the Grand Melee logic (src/logic/grandMelee.ts) keeps the current list.
 *
 * - What the game shares (players, mana pools, hands, effects, extra turns, results, ...) is
 *   the same in every marker's context: after a marker's run changes it, every other marker
 *   follows (players who left leave each turn, CR 800.4a; then the shared fields are copied and
 *   that turn settles).
 * - When a turn is over its chart rests in `turnMarkerPassed`; the marker's statechart takes
 *   `TURN_OVER`, then `CHECK` until it may begin (807.4d), when the turn chart is sent
 *   `BEGIN_MARKER_TURN` and begins the next turn by its own turn order (807.4c).
 */
import type { MarkerContext, MarkerEvent, MarkerTable } from '../../machines/grandMelee.guards.js';
import type { EmittedEvent, PlayerId, TurnEvent } from '../contract.js';
import type { TurnContext } from '../state.js';
import { numberEvents, type GameHooksRuntime } from '../../machines/hooks.js';
import { adoptContext, CONTEXT_KEYS } from '../../machines/context.js';
import { designateForRemoval, extraTurnsAsTurnEnds, markerToTheRight } from '../rules/grandMelee.js';
import { nextTurn } from '../rules/turnOrder.js';
import { step, type CompiledState } from '../compiled/runtime.js';
import type { Plan } from '../compiled/link.js';
import { markerPlan } from '../compiled/plan.js';

/** A turn marker: its number, its statechart's state, its removals due and its turn's run of the turn chart. */
export interface Marker {
  readonly number: number;
  readonly life: 'takingTurn' | 'waiting';
  /** How many times it is designated for removal (CR 807.4e-g). */
  readonly removals: number;
  readonly turn: CompiledState;
}

/** An emitted event with the marker whose turn emitted it. */
export type Tagged = EmittedEvent & { turnMarker?: number };

/** The context fields every marker shares: the game, as opposed to its turns (CR 807.5: several stacks, one game). */
export const SHARED_FIELDS = ['players', 'manaPool', 'handSizes', 'extraTurns', 'skips', 'effects', 'dayNight', 'controlNext', 'stops', 'yields', 'reasons', 'result', 'rng', 'waitingToPhaseIn'] as const;
type SharedField = (typeof SHARED_FIELDS)[number];
export type Shared = Pick<TurnContext, SharedField>;

/** Events about the whole game: emitted once, by the turn that caused them (another marker's turn following the change emits echoes, dropped). */
const GAME_WIDE_EMITTED = new Set<string>(['playerLeft', 'effectEnded', 'gameOver']);

const isEcho = (e: EmittedEvent): boolean => GAME_WIDE_EMITTED.has(e.type);

/**
 * The hooks runtime of one step of marker `number`'s turn in a send whose events so far are
 * `out` (CONTRACT v3: `pending` holds the events as they are emitted, each once, `seq` and
 * `turnMarker` included). A marker's checkpoint is shown only its own turn's `pending`, so first
 * the events other markers emitted before it in this send are numbered (numbers follow the order
 * of emission), its own are tagged with its marker, as {@link tag} will tag them, and with
 * `echoes` (a turn following a player who left) the echoes of game-wide events, never emitted,
 * are left out.
 */
export function hooksFor(runtime: GameHooksRuntime | undefined, out: readonly EmittedEvent[], number: number, many: boolean, echoes = false): GameHooksRuntime | undefined {
  const check = runtime?.check;
  if (runtime === undefined || check === undefined) return runtime;
  const r = Object.create(runtime) as GameHooksRuntime;
  r.check = (ctx, about) => {
    numberEvents(runtime, out);
    if (many) tag(ctx.pending, number, true);
    return check(echoes && ctx.pending.some(isEcho) ? { ...ctx, pending: ctx.pending.filter((e) => !isEcho(e)) } : ctx, about);
  };
  return r;
}

/** A following turn's state with the echoes left in its `pending` taken out (they would reach a later checkpoint). */
function dropEchoes(turn: CompiledState): CompiledState {
  const pending = turn.context.pending;
  return pending.some(isEcho) ? { value: turn.value, context: { ...turn.context, pending: pending.filter((e) => !isEcho(e)) }, status: turn.status } : turn;
}

/** An event no state of the turn chart handles: the turn settles (its eventless transitions) after a shared change. */
const SETTLE = { type: 'xstate.settle' } as unknown as TurnEvent;

/** Most rounds of following and passing markers after one event. */
const MAX_ROUNDS = 256;

// sharedOf and sameShared name the fields of SHARED_FIELDS one by one (a loop over the names reads them slowly, and they run for every marker after every event).
export function sharedOf(ctx: TurnContext): Shared {
  return {
    players: ctx.players,
    manaPool: ctx.manaPool,
    handSizes: ctx.handSizes,
    extraTurns: ctx.extraTurns,
    skips: ctx.skips,
    effects: ctx.effects,
    dayNight: ctx.dayNight,
    controlNext: ctx.controlNext,
    stops: ctx.stops,
    yields: ctx.yields,
    reasons: ctx.reasons,
    result: ctx.result,
    rng: ctx.rng,
    waitingToPhaseIn: ctx.waitingToPhaseIn,
  };
}

/** Whether a context holds exactly the shared fields given (by identity: contexts are never changed once published). */
export function sameShared(ctx: TurnContext, shared: Shared): boolean {
  return (
    ctx.players === shared.players &&
    ctx.manaPool === shared.manaPool &&
    ctx.handSizes === shared.handSizes &&
    ctx.extraTurns === shared.extraTurns &&
    ctx.skips === shared.skips &&
    ctx.effects === shared.effects &&
    ctx.dayNight === shared.dayNight &&
    ctx.controlNext === shared.controlNext &&
    ctx.stops === shared.stops &&
    ctx.yields === shared.yields &&
    ctx.reasons === shared.reasons &&
    ctx.result === shared.result &&
    ctx.rng === shared.rng &&
    ctx.waitingToPhaseIn === shared.waitingToPhaseIn
  );
}

/** Whether the marker's turn is running (not over, not waiting). */
export function isTakingTurn(m: Marker): boolean {
  return m.life === 'takingTurn' && m.turn.value !== 'turnMarkerPassed';
}

/** The player holding a marker: the active player's seat while the turn runs, else who takes its next turn (CR 807.4c). */
export function holderOf(m: Marker): PlayerId {
  const ctx = m.turn.context;
  if (m.life === 'takingTurn' && m.turn.value !== 'turnMarkerPassed') return ctx.turnOwner;
  if (ctx.players.length === 0) return ctx.turnOwner;
  // Who takes the next turn is a function of the context (never changed in place): found once per context.
  let holder = nextHolders.get(ctx);
  if (holder === undefined) nextHolders.set(ctx, (holder = nextTurn(ctx).player));
  return holder;
}
const nextHolders = new WeakMap<TurnContext, PlayerId>();

/**
 * Where every marker is, for the marker statechart's guards. The same table as the last one
 * when nothing in it moved (most events move no marker): a waiting marker checked again with
 * it gets the answer it got (markerStepper).
 */
export function tableOf(markers: readonly Marker[]): MarkerTable {
  const ctx = (markers[0] as Marker).turn.context;
  const last = lastTableOf;
  if (last !== null && last.seats === ctx.seats && last.players === ctx.players && sameRows(last.markers, markers)) return last;
  const rows = markers.map((m) => ({ number: m.number, holder: holderOf(m), takingTurn: isTakingTurn(m), removals: m.removals }));
  return (lastTableOf = { seats: ctx.seats, players: ctx.players, markers: rows });
}
let lastTableOf: MarkerTable | null = null;

/** Whether a table's rows are where the markers are (no rows made to compare). */
function sameRows(rows: MarkerTable['markers'], markers: readonly Marker[]): boolean {
  if (rows.length !== markers.length) return false;
  for (let i = 0; i < rows.length; i++) {
    const x = rows[i] as MarkerTable['markers'][number];
    const m = markers[i] as Marker;
    if (x.number !== m.number || x.removals !== m.removals || x.takingTurn !== isTakingTurn(m) || x.holder !== holderOf(m)) return false;
  }
  return true;
}

type Life = 'takingTurn' | 'passing' | 'waiting' | 'removed';

/** A marker's statechart at rest: its state and context. */
export interface MarkerChartState {
  value: Life;
  context: MarkerContext;
}

/**
 * How a marker's statechart takes an event: the compiled plan of machines/grandMelee.machine.ts.
 * The model of src/model/markers.ts replaces it while it walks, with an actor that XState's
 * inspection observes (the same chart, microstep by microstep).
 */
export const markerStepper = {
  next(state: MarkerChartState, event: MarkerEvent): MarkerChartState {
    // A waiting marker checked again with the same table (most events move no marker, and tableOf
    // then returns the last table) rests where it rested: the chart's guards read only the table and the marker's number.
    const answers = state.value === 'waiting' && event.type === 'CHECK' ? checksOf(event.table) : null;
    const known = answers?.get(state.context.number);
    if (known !== undefined) return { value: known, context: state.context };
    const out = step(markerPlan, { value: state.value, context: state.context as never, status: 'active' }, event as never);
    answers?.set(state.context.number, out.state.value as Life);
    return { value: out.state.value as Life, context: state.context };
  },
};

/** Where a waiting marker's CHECK with a table took it, by marker number. */
const checks = new WeakMap<MarkerTable, Map<number, Life>>();
function checksOf(table: MarkerTable): Map<number, Life> {
  let answers = checks.get(table);
  if (answers === undefined) checks.set(table, (answers = new Map()));
  return answers;
}

/** Sends an event to a marker's statechart; returns the state it rests in. */
export function markerTransition(m: Marker, life: Life, event: MarkerEvent): Life {
  return markerStepper.next({ value: life, context: { number: m.number } }, event).value;
}


/** A marker with another turn, life or removals: an object literal (a spread of a marker followed by a field takes V8's slow path, and this runs for every marker that follows a change). */
export function withTurn(m: Marker, turn: CompiledState, life: Marker['life'] = m.life, removals = m.removals): Marker {
  return { number: m.number, life, removals, turn };
}

/** Tags events with their marker when more than one turn marker is in the game (CONTRACT: `turnMarker`). */
export function tag(events: readonly EmittedEvent[], number: number, many: boolean): Tagged[] {
  // In place: the events the turn keeps as `pending` are the ones handed out (numbered once, CONTRACT v3 `seq`); they were made in this send.
  if (many) for (const e of events) e.turnMarker = number;
  return [...events];
}

/** A marker's turn follows a shared change made by another: the players who left leave it too, then it takes the shared fields and settles. */
function follow(m: Marker, source: TurnContext, shared: Shared, departed: readonly PlayerId[], plan: Plan, out: Tagged[], many: boolean, runtime: GameHooksRuntime | undefined): Marker {
  let turn = m.turn;
  for (const player of departed) {
    if (turn.status !== 'active' || !turn.context.players.includes(player)) continue;
    const r = step(plan, turn, { type: 'LOSE', player, reason: source.reasons[player] ?? 'lost' }, hooksFor(runtime, out, m.number, many, true));
    out.push(...tag(r.emitted.filter((e) => !isEcho(e)), m.number, many));
    turn = dropEchoes(r.state);
  }
  if (sameShared(turn.context, shared)) return turn === m.turn ? m : withTurn(m, turn);
  const synced: CompiledState = { value: turn.value, context: withShared(turn.context, shared), status: turn.status };
  const r = step(plan, synced, SETTLE, hooksFor(runtime, out, m.number, many));
  out.push(...tag(r.emitted, m.number, many));
  return withTurn(m, r.state);
}

/** Whether a context's fields are in the order of machines/context.ts cloneContext (always but in a restored game's first turns): then its one-literal copy is the same object as a spread. */
export function inCloneOrder(ctx: TurnContext): boolean {
  let i = 0;
  for (const key in ctx) if (key !== CONTEXT_KEYS[i++]) return false;
  return i === CONTEXT_KEYS.length;
}

/**
 * `{ ...ctx, ...shared }`, made faster: a copy of the context (one object literal when its
 * fields are in the usual order: a spread of an object this size takes V8's slow path), then
 * the shared fields stored into it one by one. Every shared field is a field of the context,
 * so the copy keeps the context's order of fields (which a restored game's persist() shows).
 */
function withShared(ctx: TurnContext, shared: Shared): TurnContext {
  const c = inCloneOrder(ctx) ? adoptContext(ctx) : { ...ctx };
  c.players = shared.players;
  c.manaPool = shared.manaPool;
  c.handSizes = shared.handSizes;
  c.extraTurns = shared.extraTurns;
  c.skips = shared.skips;
  c.effects = shared.effects;
  c.dayNight = shared.dayNight;
  c.controlNext = shared.controlNext;
  c.stops = shared.stops;
  c.yields = shared.yields;
  c.reasons = shared.reasons;
  c.result = shared.result;
  c.rng = shared.rng;
  c.waitingToPhaseIn = shared.waitingToPhaseIn;
  return c;
}

/**
 * After an event: every marker follows the game-wide changes, turns that are over pass their
 * markers (or remove them), and waiting markers begin their turns when they may.
 */
export function coordinate(markers: readonly Marker[], before: Shared, plan: Plan, out: Tagged[], runtime: GameHooksRuntime | undefined): Marker[] {
  let ms = [...markers];
  let canonical = before;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const many = ms.length > 1;
    // 1. A turn changed the game: every other turn follows it.
    const i = ms.findIndex((m) => !sameShared(m.turn.context, canonical));
    if (i >= 0) {
      const source = (ms[i] as Marker).turn.context;
      const departed = source.players === canonical.players ? [] : canonical.players.filter((p) => !source.players.includes(p));
      canonical = sharedOf(source);
      ms = ms.map((m, j) => (j === i ? m : follow(m, source, canonical, departed, plan, out, many, runtime)));
      // CR 807.4e-f: markers designated for removal as players leave.
      if (departed.length > 0 && ms.length > 1) {
        const counts = designateForRemoval(source, tableOf(ms).markers, departed);
        ms = ms.map((m) => (counts[m.number] === m.removals ? m : withTurn(m, m.turn, m.life, counts[m.number] ?? m.removals)));
      }
      continue;
    }
    if ((ms[0] as Marker).turn.status !== 'active') break;
    // 2. A turn is over: its marker passes (807.4c), is kept for an extra turn (807.4i) or is removed (807.4g).
    const over = ms.find((m) => m.life === 'takingTurn' && m.turn.value === 'turnMarkerPassed');
    if (over !== undefined) {
      const table = tableOf(ms);
      const life = markerTransition(over, 'takingTurn', { type: 'TURN_OVER', table });
      if (life === 'removed') {
        ms = removeMarker(ms, over);
        continue;
      }
      // CR 807.4i: with another marker within three seats on the right, the player passes the marker and their extra turn waits for their next turn (a change to the game: the other turns follow it in the next round).
      const passed = withTurn(over, withMarkerExtraTurns(over.turn, extraTurnsAsTurnEnds(over.turn.context, table.markers, over.number)), 'waiting');
      // The marker just passed is checked first: its new holder begins before those who waited for it (807.4d).
      ms = [passed, ...ms.filter((m) => m !== over)];
      continue;
    }
    // 3. A waiting marker is removed (807.4g) or begins its turn when no marker is within three seats to its left (807.4d).
    let changed = false;
    // The markers do not move until one of them changes (then the loop ends): one table for all.
    let table: MarkerTable | null = null;
    for (const m of ms) {
      if (m.life !== 'waiting') continue;
      const life = markerTransition(m, 'waiting', { type: 'CHECK', table: (table ??= tableOf(ms)) });
      if (life === 'removed') {
        ms = removeMarker(ms, m);
        changed = true;
        break;
      }
      if (life === 'takingTurn') {
        const r = step(plan, m.turn, { type: 'BEGIN_MARKER_TURN' }, hooksFor(runtime, out, m.number, many));
        out.push(...tag(r.emitted, m.number, many));
        ms = ms.map((x) => (x === m ? withTurn(m, r.state, 'takingTurn') : x));
        changed = true;
        break;
      }
    }
    if (!changed) break;
  }
  // Usually in order already (a sort with a comparator costs more than the look).
  return ms.every((m, i) => i === 0 || (ms[i - 1] as Marker).number <= m.number) ? ms : ms.sort((a, b) => a.number - b.number);
}

/** A turn with other pending extra turns (the same turn when they are the same list). */
export function withMarkerExtraTurns(turn: CompiledState, extraTurns: TurnContext['extraTurns']): CompiledState {
  const ctx = turn.context;
  return extraTurns === ctx.extraTurns ? turn : { value: turn.value, context: withShared(ctx, { ...sharedOf(ctx), extraTurns }), status: turn.status };
}

/** CR 807.4g: a removed marker designated more than once passes the rest of its designations to the marker on its right. */
function removeMarker(ms: Marker[], removed: Marker): Marker[] {
  const rest = ms.filter((m) => m !== removed);
  if (removed.removals <= 1 || rest.length === 0) return rest;
  const right = markerToTheRight(removed.turn.context, tableOf(rest).markers, holderOf(removed));
  return rest.map((m) => (m.number === right?.number ? withTurn(m, m.turn, m.life, m.removals + removed.removals - 1) : m));
}
