/**
 * The turn logic of Grand Melee (CR 807): the turn markers of src/grandMelee/coordinator.ts,
 * each marker's turn a run of the compiled plan, behind the same gate as every game (schema,
 * players, game over, the legality table).
 *
 * An event goes to the turn it is for: a player decision to the turn that awaits it from that
 * player, host events about a turn to that turn, game-wide ones to the first running turn
 * (every turn then follows), players leaving to one turn that the others follow. A player with
 * decisions in several turns names the `turnMarker` (807.5b), and so does the host for a turn
 * event that fits several turns.
 */
import { initialContext } from '../../machines/turn.effects.js';
import { FRESH_SEND, isFreshSend } from '../../machines/context.js';
import type { EmittedEvent, Trigger, TurnEvent, TurnView } from '../contract.js';
import { ErrorCode } from '../errors.js';
import { refusal, seatOrGameOverRefusal, atTableEventRefusal, type Refusal } from '../gate.js';
import { legalActionsOf, type LegalAction } from '../legal.js';
import { nextStopOver, type Decision, type NextStop } from '../nextStop.js';
import { FULL_FORMAT, PERSISTED_ENGINE, type PersistedFull } from '../persistence/format.js';
import { GAME_WIDE, LEAVING, READS_AWAITING, violationOf } from '../events/index.js';
import { initialHolders, priorityPlayers } from '../rules/grandMelee.js';
import { seatDistance } from '../rules/teams.js';
import { unitOf } from '../rules/units.js';
import { parseEvent } from '../schemas.js';
import { awaitingOf } from '../view.js';
import { initialState, sendStep, snapshotOf, step, type CompiledState, type StepResult } from '../compiled/runtime.js';
import { turnPlan } from '../compiled/plan.js';
import { coordinate, inCloneOrder, isTakingTurn, hooksFor, SHARED_FIELDS, sharedOf, tag, withTurn, type Marker, type Tagged } from '../grandMelee/coordinator.js';
import { meleeView } from '../grandMelee/view.js';
import type { TurnLogic } from '../game/logic.js';
import { compiledStateOf } from './single.js';

/** The events routed to the turns that take them. */
type Routed = { marker: Marker; event: TurnEvent }[];


const snap = (m: Marker) => snapshotOf(turnPlan, m.turn);
const illegal = (message: string, rule: string): Refusal => ({ ok: false, error: { code: ErrorCode.ILLEGAL_ACTION, message, rule } });
const invalid = (message: string): Refusal => ({ ok: false, error: { code: ErrorCode.INVALID_EVENT, message } });

/** The turn marker number an event names (`turnMarker`), undefined, or a refusal. */
function namedMarker(raw: unknown, field = 'event.turnMarker'): number | undefined | Refusal {
  const n = typeof raw === 'object' && raw !== null ? (raw as { turnMarker?: unknown }).turnMarker : undefined;
  if (n === undefined) return undefined;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 1 ? n : invalid(`${field}: must be a turn marker's number (an integer from 1)`);
}

// What is awaited is worked out only for the rows that read it (READS_AWAITING), as the gate of a single turn does.
const check = (m: Marker, e: TurnEvent) => violationOf(m.turn.context, READS_AWAITING.has(e.type) ? awaitingOf(snap(m)) : null, e);

/** One turn taking an event, or the refusal its legality gives. */
function only(m: Marker, event: TurnEvent): Routed | Refusal {
  const v = check(m, event);
  return v !== null ? illegal(v.message, v.rule) : [{ marker: m, event }];
}

/** The running turns whose stack a player may use (807.5a), or the nearest one when none. */
function stacksFor(player: string, running: Marker[]): Marker[] {
  const mine = running.filter((m) => priorityPlayers(m.turn.context).includes(player));
  if (mine.length > 0) return mine;
  const ctx = running[0]?.turn.context;
  if (ctx === undefined) return [];
  const near = [...running].sort((a, b) => seatDistance(ctx, player, a.turn.context.turnOwner) - seatDistance(ctx, player, b.turn.context.turnOwner));
  return near.slice(0, 1);
}

/** CR 807.5b: each trigger goes on the stack its entry names, or the one stack its controller may use. */
function routeTriggers(raw: unknown, event: Extract<TurnEvent, { type: 'TRIGGER' }>, running: Marker[]): Routed | Refusal {
  const entries = (raw as { triggers?: unknown[] }).triggers ?? [];
  const by = new Map<Marker, Trigger[]>();
  for (const [i, t] of event.triggers.entries()) {
    const named = namedMarker(entries[i], `event.triggers[${i}].turnMarker`);
    if (typeof named === 'object') return named;
    let m: Marker | undefined;
    if (named !== undefined) {
      m = running.find((x) => x.number === named);
      if (m === undefined) return illegal(`event.triggers[${i}].turnMarker: turn marker ${named} is not taking a turn`, '807.5b');
    } else {
      const stacks = stacksFor(t.controller, running);
      if (stacks.length > 1) return illegal(`trigger ${t.id}: ${t.controller} has priority for several stacks (turn markers ${stacks.map((x) => x.number).join(', ')}): name its turnMarker`, '807.5b');
      m = stacks[0];
    }
    if (m === undefined) return illegal('no turn is running', '807.5');
    by.set(m, [...(by.get(m) ?? []), t]);
  }
  const routed: Routed = [];
  for (const [marker, triggers] of by) {
    const one = only(marker, { type: 'TRIGGER', triggers });
    if (!Array.isArray(one)) return one;
    routed.push(...one);
  }
  return routed;
}

/** Which turns take an event (CR 807.5b), or why none can. */
function route(markers: readonly Marker[], raw: unknown, event: TurnEvent): Routed | Refusal {
  const running = markers.filter(isTakingTurn);
  const named = namedMarker(raw);
  if (typeof named === 'object') return named;
  const firstRunning = running[0] ?? (markers[0] as Marker);
  // One turn decides who leaves (a WIN's losers depend on the range of influence, fixed as that
  // turn began, 801.2c, 801.14); the others follow it (the coordinator: players who left leave
  // every turn), so every turn agrees on who is still in the game.
  if (LEAVING.has(event.type)) return only(firstRunning, event);
  if (named !== undefined) {
    const m = markers.find((x) => x.number === named);
    if (m === undefined) return invalid(`event.turnMarker: there is no turn marker ${named} (markers: ${markers.map((x) => x.number).join(', ')})`);
    if (!isTakingTurn(m)) return illegal(`turn marker ${named} is waiting to begin its next turn`, '807.4d');
    return only(m, event);
  }
  if (GAME_WIDE.has(event.type)) return only(firstRunning, event);
  if (event.type === 'YIELD') return only(running.find((x) => x.turn.context.priority === event.player) ?? firstRunning, event);
  if (event.type === 'TRIGGER') return routeTriggers(raw, event, running);
  const candidates = event.type === 'PUT_ON_STACK' ? stacksFor(event.object.controller, running) : running;
  // A pass fits only the turns where its player's unit holds priority (PASS_PRIORITY's legality,
  // priorityViolation): the others are not asked (16 turn markers at 64 players, every pass).
  const fits = candidates.filter((m) => (event.type !== 'PASS_PRIORITY' || m.turn.context.priority === unitOf(m.turn.context, event.player)) && check(m, event) === null);
  if (fits.length === 1) return [{ marker: fits[0] as Marker, event }];
  if (fits.length > 1) {
    const who = 'player' in event && typeof event.player === 'string' ? `${event.player} can do this in several turns` : 'this event fits several turns';
    return illegal(`${who} (turn markers ${fits.map((m) => m.number).join(', ')}): name the turnMarker`, '807.5b');
  }
  const player = 'player' in event ? event.player : undefined;
  const best = candidates.find((m) => awaitingOf(snap(m))?.player === player) ?? candidates[0] ?? firstRunning;
  const v = check(best, event);
  return illegal(v?.message ?? 'no turn can take this event now', v?.rule ?? '807.5');
}

/**
 * One send's step of a marker's turn, the per-send counters at zero first: the runtime's own
 * (sendStep: one copy of the context, patched in place) when the context's fields are in the
 * engine's order, else, as before, a copy that keeps their order until the step's first patch copies it
 * (a restored game's first turns: persist() shows the order).
 */
function freshSendStep(turn: CompiledState, event: TurnEvent, runtime: Parameters<typeof step>[3]): StepResult {
  const ctx = turn.context;
  if (isFreshSend(ctx) || inCloneOrder(ctx)) return sendStep(turnPlan, turn, event, runtime);
  return step(turnPlan, { value: turn.value, context: { ...ctx, ...FRESH_SEND }, status: turn.status }, event, runtime);
}

/** The markers after a step of some of them, and every marker following (coordinate). */
function play(markers: readonly Marker[], routed: Routed, runtime: Parameters<typeof step>[3]): { state: Marker[]; emitted: Tagged[] } {
  const ctx = (markers.find(isTakingTurn) ?? (markers[0] as Marker)).turn.context;
  const emitted: Tagged[] = [];
  const many = markers.length > 1;
  let next = markers as Marker[];
  for (const { marker, event } of routed) {
    const current = next.find((m) => m.number === marker.number) as Marker;
    const r = freshSendStep(current.turn, event, hooksFor(runtime, emitted, marker.number, many));
    emitted.push(...tag(r.emitted, marker.number, many));
    next = next.map((m) => (m === current ? withTurn(m, r.state) : m));
  }
  return { state: coordinate(next, sharedOf(ctx), turnPlan, emitted, runtime), emitted };
}

export const grandMeleeLogic: TurnLogic<readonly Marker[], Routed> = {
  popsOwnedStacks: true,

  /** CR 807.4b: each marker's holder begins turn 1 at the same time, marker 1 first. */
  getInitialSnapshot(input, runtime) {
    const holders = initialHolders(input.players, input.startingPlayer);
    const emitted: Tagged[] = [];
    const markers: Marker[] = holders.map((holder, i) => {
      const first = initialState(turnPlan, { ...input, startingPlayer: holder }, initialContext, hooksFor(runtime, emitted, i + 1, holders.length > 1));
      emitted.push(...tag(first.emitted, i + 1, holders.length > 1));
      return { number: i + 1, life: 'takingTurn', removals: 0, turn: first.state };
    });
    return { state: coordinate(markers, sharedOf((markers[0] as Marker).turn.context), turnPlan, emitted, runtime), emitted };
  },

  restoreSnapshot(p: PersistedFull) {
    let shared: Partial<Record<(typeof SHARED_FIELDS)[number], unknown>> | null = null;
    const markers: Marker[] = (p.markers ?? []).map((m: NonNullable<PersistedFull['markers']>[number]) => {
      const context = structuredClone(m.context);
      // The game's fields are one set of objects shared by every turn (checked equal by the
      // validation): the coordinator tells the turn that changed them by identity, as in a game
      // never persisted.
      if (shared === null) shared = Object.fromEntries(SHARED_FIELDS.map((k) => [k, context[k]]));
      else Object.assign(context, shared);
      return { number: m.number, life: m.life, removals: m.removals, turn: compiledStateOf(m.state, context, p.status, 'markers') };
    });
    return { state: markers, order: null };
  },

  getPersistedSnapshot(markers, version) {
    const first = markers[0] as Marker;
    return {
      engine: PERSISTED_ENGINE,
      format: FULL_FORMAT,
      version,
      status: first.turn.status,
      state: first.turn.value,
      context: first.turn.context,
      markers: markers.map((m) => ({ number: m.number, life: m.life, removals: m.removals, state: m.turn.value, context: m.turn.context })),
    };
  },

  gate(markers, raw) {
    const parsed = parseEvent(raw);
    if (!parsed.ok) return refusal(ErrorCode.INVALID_EVENT, parsed.message);
    const event = parsed.value;
    const first = markers.find(isTakingTurn) ?? (markers[0] as Marker);
    return atTableEventRefusal(event) ?? seatOrGameOverRefusal(first.turn.context, first.turn.status, event) ?? route(markers, raw, event);
  },

  transition(markers, routed, runtime) {
    return play(markers, routed, runtime);
  },

  view(markers, version, seq): TurnView {
    return meleeView(markers, version, seq);
  },

  /** Every decision in every running turn; with several markers each names its `turnMarker` (807.5b). */
  legalActions(markers, player): LegalAction[] {
    const first = markers[0] as Marker;
    if (first.turn.status !== 'active' || first.turn.context.result !== null) return [];
    const many = markers.length > 1;
    const out: LegalAction[] = [];
    for (const p of first.turn.context.players) {
      if (player !== undefined && p !== player) continue;
      for (const m of markers) {
        if (!isTakingTurn(m)) continue;
        for (const a of legalActionsOf(snap(m), p)) if (a.type !== 'CONCEDE') out.push(many ? ({ ...a, turnMarker: m.number } as LegalAction) : a);
      }
      out.push({ type: 'CONCEDE', player: p, choose: [] });
    }
    return out;
  },

  /**
   * The look ahead over every turn marker (CR 807.4): the decisions awaited now in every running
   * turn are answered first, then the next decision of the turn furthest behind (as passUntil
   * answers), the markers passing
   * and waiting as in play, within the contract's horizon (`players.length + 1` turns begun, every
   * marker's counted). Names the `turnMarker` when there are several.
   */
  nextStop(markers, player, runtime, fromNow): NextStop | null {
    const many = markers.length > 1;
    return nextStopOver<readonly Marker[], ReturnType<typeof snap>>(markers, player, {
      decisions(current) {
        const out: Decision<ReturnType<typeof snap>>[] = [];
        for (const m of current) {
          if (!isTakingTurn(m) || m.turn.context.result !== null) continue;
          const snapshot = snap(m);
          const awaiting = awaitingOf(snapshot);
          if (awaiting !== null) out.push(many ? { snapshot, awaiting, turnMarker: m.number } : { snapshot, awaiting });
        }
        // As passUntil answers (src/scenarios/runner.ts): the turn furthest behind first, then the lowest marker.
        return out.sort((a, b) => a.snapshot.context.turn - b.snapshot.context.turn || (a.turnMarker ?? 1) - (b.turnMarker ?? 1));
      },
      advance(current, decision, event) {
        const marker = current.find((m) => m.number === (decision.turnMarker ?? 1)) ?? (current[0] as Marker);
        const next = play(current, [{ marker, event }], runtime).state;
        return next.every((m, i) => m === current[i]) ? null : next;
      },
      turnsBegun: (current) => current.reduce((n, m) => n + m.turn.context.turn, 0),
    }, fromNow);
  },

  /** The first running turn (marker 1's once the game is over). */
  chartState(markers) {
    return (markers.find(isTakingTurn) ?? (markers[0] as Marker)).turn;
  },

  pending(markers): readonly EmittedEvent[] {
    // Usually no turn keeps any (a game without a checkpoint hook never does): no list made for every send.
    let only: readonly EmittedEvent[] | null = null;
    for (const m of markers) {
      const pending = m.turn.context.pending;
      if (pending.length === 0) continue;
      if (only !== null) return markers.flatMap((x) => x.turn.context.pending);
      only = pending;
    }
    return only ?? (markers[0] as Marker).turn.context.pending;
  },

  /** Issue 34: the generator is a shared field (one for the game): every turn's copy takes the new position. */
  reseed(markers, rng) {
    return markers.map((m) => withTurn(m, { value: m.turn.value, context: { ...m.turn.context, rng }, status: m.turn.status }));
  },
};

