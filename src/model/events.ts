/**
 * The events the model offers in each state: the players' decisions (from `legalActions`, with
 * the payloads that change where the turn goes: attacks, blocks, first strike, double blocks),
 * the host's events that change the turn (effects, extra steps and phases, ending the turn,
 * control, stops), and refused variants (a pass from a player without priority, a sorcery at
 * the wrong time) that generated scenarios check are refused.
 */
import type { Effect, TurnEvent } from '../contract.js';
import type { MachineEvent, TurnContext } from '../state.js';
import { CHANGES_LATER, PLAINEST } from '../events/index.js';
import { plainestFill, legalActionsOf, type LegalAction } from '../legal.js';
import { awaitingOf } from '../view.js';
import { STEPS_OF_PHASE as STEP_ORDER } from '../rules/schedule.js';
import { playerAt, type ModelSnapshot } from './abstraction.js';
import { sharesTurns, unitOf } from '../rules/units.js';
import { accepts, type TurnSnapshot } from './snapshot.js';

/** Creature ids of the model: `<player>-<n>`. */
function creature(player: string, n: number): string {
  return `${player}-${n}`;
}

function snapshotLike(snapshot: TurnSnapshot) {
  return { status: snapshot.status, context: snapshot.context, hasTag: (tag: string) => snapshot.hasTag(tag as never) };
}

/** Attack declarations: none, one creature, one with first strike, two at one defender, one at each of two. */
function attacks(action: Extract<LegalAction, { type: 'DECLARE_ATTACKERS' }>, defenders: readonly string[]): TurnEvent[] {
  const { choose: _c, ...base } = action;
  const [first, second] = defenders;
  const me = base.player;
  const out: TurnEvent[] = [{ ...base, attackers: [] }];
  if (first === undefined) return out;
  out.push(
    { ...base, attackers: [{ id: creature(me, 1), defender: first }] },
    { ...base, attackers: [{ id: creature(me, 1), defender: first, firstStrike: true }] },
    { ...base, attackers: [{ id: creature(me, 1), defender: first }, { id: creature(me, 2), defender: first }] },
  );
  if (second !== undefined) out.push({ ...base, attackers: [{ id: creature(me, 1), defender: first }, { id: creature(me, 2), defender: second }] });
  return out;
}

/** Block declarations: none, one blocker, with first strike, two on one attacker, one on two attackers. */
function blocks(action: Extract<LegalAction, { type: 'DECLARE_BLOCKERS' }>, ctx: TurnContext): TurnEvent[] {
  const { choose: _c, ...base } = action;
  const me = base.player;
  const attacking = (ctx.combat?.attackers ?? []).map((a) => a.id);
  const [a1, a2] = attacking;
  const out: TurnEvent[] = [{ ...base, blockers: [] }];
  if (a1 === undefined) return out;
  out.push(
    { ...base, blockers: [{ id: creature(me, 1), attacker: a1 }] },
    { ...base, blockers: [{ id: creature(me, 1), attacker: a1, firstStrike: true }] },
    { ...base, blockers: [{ id: creature(me, 1), attacker: a1 }, { id: creature(me, 2), attacker: a1 }] },
  );
  if (a2 !== undefined) out.push({ ...base, blockers: [{ id: creature(me, 1), attacker: a1 }, { id: creature(me, 1), attacker: a2 }] });
  return out;
}

/** The players' decisions: every legal action, with the payload variants that matter to the turn. */
export function decisionEvents(snapshot: TurnSnapshot): TurnEvent[] {
  const like = snapshotLike(snapshot);
  const ctx = snapshot.context;
  const awaiting = awaitingOf(like);
  const out: TurnEvent[] = [];
  for (const action of legalActionsOf(like)) {
    if (action.type === 'CONCEDE') continue;
    if (action.type === 'DECLARE_ATTACKERS') out.push(...attacks(action, awaiting?.kind === 'declareAttackers' ? awaiting.defenders : []));
    else if (action.type === 'DECLARE_BLOCKERS') out.push(...blocks(action, ctx));
    else if (action.type === 'CAST_SPELL' || action.type === 'ACTIVATE_ABILITY') {
      const filled = plainestFill(action, awaiting, ctx) as Extract<TurnEvent, { type: 'CAST_SPELL' }>;
      out.push(filled);
      if (filled.speed === 'instant') out.push({ ...filled, speed: 'sorcery' });
    } else out.push(plainestFill(action, awaiting, ctx));
  }
  return out;
}

/** A skip effect of each kind the turn has (CR 614.10). */
const SKIPS: readonly Effect[] = [
  { kind: 'skip', what: 'main' },
  { kind: 'skip', what: 'end' },
];

const PHASES = ['beginning', 'precombatMain', 'combat', 'postcombatMain', 'ending'] as const;

/** Whether the event adds the next of the effects that skip every phase, in order, after the ones before it. */
function isNextPhaseSkipForAll(ctx: TurnContext, event: TurnEvent): boolean {
  if (event.type !== 'ADD_EFFECT' || !event.id.startsWith('skip-every-')) return false;
  const have = ctx.effects.map((e) => e.id);
  const i = PHASES.findIndex((p) => `skip-every-${p}` === event.id);
  return have.length === i && PHASES.slice(0, i).every((p, j) => have[j] === `skip-every-${p}`);
}

/** The host's events that change the turn, each once, with ids that do not clash. */
export function hostEvents(ctx: TurnContext): TurnEvent[] {
  const active = ctx.activePlayer ?? (ctx.players[0] as string);
  const next = playerAt(ctx, 1);
  // Who takes the next turn: the next player, or with shared team turns the next team's primary player (CR 805.4).
  const nextTurnPlayer = sharesTurns(ctx) ? (ctx.seats.map((_, i) => playerAt(ctx, i + 1)).find((p) => unitOf(ctx, p) !== unitOf(ctx, active)) ?? next) : next;
  const serial = ctx.nextObjectId;
  const top = ctx.stack[ctx.stack.length - 1];
  const attacker = ctx.combat?.attackers[0];
  const effect = ctx.effects[0];
  const events: TurnEvent[] = [
    { type: 'TRIGGER', triggers: [{ id: `trigger-${serial}`, controller: active }] },
    { type: 'TRIGGER', triggers: [{ id: `trigger-${serial}`, controller: active }, { id: `trigger-${serial + 1}`, controller: active }] },
    { type: 'HAND_SIZE', player: active, size: ctx.maxHandSize + 1 },
    { type: 'ADD_MANA', player: active, amount: 1 },
    { type: 'SPEND_MANA', player: active, amount: 1 },
    { type: 'ADD_EXTRA_TURN', player: next },
    { type: 'ADD_EXTRA_COMBAT' },
    { type: 'ADD_EXTRA_STEP', step: 'upkeep', after: 'upkeep' },
    // CR 500.10: a step "after this phase" comes in an added phase of its own, whose other steps are passed over.
    { type: 'ADD_EXTRA_STEP', step: 'upkeep', afterPhase: 'beginning' },
    { type: 'ADD_EXTRA_STEP', step: 'endOfCombat', afterPhase: 'combat' },
    { type: 'ADD_EXTRA_STEP', step: 'end', afterPhase: 'postcombatMain' },
    { type: 'ADD_EXTRA_PHASE', phase: 'combat', after: 'postcombatMain' },
    { type: 'SKIP_NEXT', player: active, what: 'declareAttackers' },
    { type: 'SKIP_NEXT', player: nextTurnPlayer, what: 'draw' },
    ...SKIPS.map((e, i): TurnEvent => ({ type: 'ADD_EFFECT', id: `effect-${serial}-${i}`, effect: e, duration: 'endOfTurn' })),
    { type: 'ADD_EFFECT', id: `effect-${serial}-turns`, effect: { kind: 'skip', what: 'turn' }, duration: 'untilRemoved' },
    { type: 'ADD_EFFECT', id: `effect-${serial}-hand`, effect: { kind: 'maxHandSize', set: null }, duration: 'untilYourNextTurn', controller: active },
    { type: 'PUT_ON_STACK', object: { id: `copy-${serial}`, controller: active, kind: 'copy' } },
    { type: 'END_TURN' },
    { type: 'END_COMBAT' },
    { type: 'CONTROL_PLAYER', controller: next, player: active },
    { type: 'SET_DAY_NIGHT', value: 'day' },
    { type: 'SET_STOPS', player: next, stops: [] },
    ...ctx.players.filter((p) => p !== active).map((player): TurnEvent => ({ type: 'YIELD', player, until: 'endOfTurn' })),
    { type: 'CONCEDE', player: next },
    { type: 'CONCEDE', player: active },
    // Every phase skipped for everyone, one effect after another: turns with nothing in them end in a draw (CR 104.4b).
    ...PHASES.map((phase): TurnEvent => ({ type: 'ADD_EFFECT', id: `skip-every-${phase}`, effect: { kind: 'skip', what: phase }, duration: 'untilRemoved' })),
    { type: 'LOSE', player: active },
    { type: 'WIN', player: active },
    { type: 'DRAW_GAME' },
  ];
  if (top !== undefined) events.push({ type: 'REMOVE_FROM_STACK', id: top.id, reason: 'countered' });
  if (effect !== undefined) events.push({ type: 'REMOVE_EFFECT', id: effect.id });
  if (attacker !== undefined) {
    events.push(
      { type: 'REMOVE_FROM_COMBAT', id: attacker.id },
      { type: 'SET_COMBAT_ABILITIES', id: attacker.id, firstStrike: true },
      { type: 'ADD_ATTACKER', id: `${attacker.id}-token`, defender: attacker.defender },
      { type: 'ADD_BLOCKER', id: `${attacker.defender}-flash`, attacker: attacker.id },
    );
  }
  return events;
}

/** Events the rules refuse in most states: a pass from a player without priority, a land out of turn. */
function refusedProbes(ctx: TurnContext): TurnEvent[] {
  const holder = ctx.priority;
  const other = ctx.players.find((p) => p !== holder) ?? (ctx.players[0] as string);
  return [
    { type: 'PASS_PRIORITY', player: other },
    { type: 'PLAY_LAND', player: other },
    { type: 'CAST_SPELL', player: other, id: `probe-${ctx.nextObjectId}`, speed: 'sorcery' },
  ];
}

/**
 * The concrete events offered in a state: decisions, host events and refused probes. The
 * traversal follows only some of them (`followsEvent`); generated scenarios send the refused
 * ones with `reject`.
 */
export function modelEvents(snapshot: TurnSnapshot): MachineEvent[] {
  if (snapshot.status !== 'active') return [];
  // CR 807.4c-d: a Grand Melee turn that is over waits for the coordinator to begin the next.
  const coordinator: MachineEvent[] = snapshot.value === 'turnMarkerPassed' ? [{ type: 'BEGIN_MARKER_TURN' }] : [];
  return [...coordinator, ...decisionEvents(snapshot), ...hostEvents(snapshot.context), ...refusedProbes(snapshot.context)];
}

/**
 * Whether the state is where the traversal lets the host change the turn: a quiet upkeep with
 * the active player holding priority and nothing on the stack. From there, each host event is
 * followed by the plainest game to its end, which walks every transition the change leads to.
 */
function isAnchor(snapshot: ModelSnapshot): boolean {
  const ctx = snapshot.context;
  return ctx.turn === 1 && ctx.step === 'upkeep' && ctx.priority === ctx.activePlayer && ctx.passed.length === 0 && ctx.stack.length === 0 && ctx.pendingTriggers.length === 0;
}

/** Whether a step still to come in this phase was added (it does not follow the phase's steps in order, CR 500.1, 500.9). */
function hasExtraStep(ctx: TurnContext): boolean {
  const order: readonly string[] = (STEP_ORDER as Record<string, readonly string[]>)[ctx.phase] ?? [];
  let last = order.indexOf(ctx.step);
  for (const s of ctx.steps) {
    const i = order.indexOf(s.step);
    if (i <= last) return true;
    last = i;
  }
  return false;
}

/**
 * Whether a state carries something a host made (an effect, an extra turn, a pending skip,
 * mana, a player who left, control, stops or yields, day or night): from there the model
 * follows only the plainest game.
 */
export function hostMade(ctx: TurnContext): boolean {
  return (
    ctx.effects.length > 0 ||
    ctx.extraTurns.length > 0 ||
    Object.keys(ctx.skips).length > 0 ||
    Object.values(ctx.manaPool).some((m) => m > 0) ||
    ctx.players.length < ctx.seats.length ||
    Object.keys(ctx.controlledBy).length > 0 ||
    ctx.controlNext.length > 0 ||
    Object.values(ctx.stops).some((s) => s !== null) ||
    Object.keys(ctx.yields).length > 0 ||
    ctx.dayNight !== null ||
    ctx.phases.some((p) => p.extra === true) ||
    hasExtraStep(ctx) ||
    ctx.stack.some((o) => o.kind === 'copy')
  );
}

/**
 * Which offered events the traversal follows (`filterEvents`): only accepted ones; from a
 * quiet state every decision (one mulligan each at most) and triggers; from a state a host
 * made, the plainest decisions only. Every other host event is tried one step away from
 * every state the traversal reached (coverage.ts), which reaches each of their transitions.
 */
export function followsEvent(snapshot: ModelSnapshot, event: MachineEvent): boolean {
  if (snapshot.status !== 'active') return false;
  const s = snapshot as unknown as TurnSnapshot;
  if (!accepts(s, event)) return false;
  // CR 807.4c-d: where a Grand Melee turn is over, the coordinator begins the next (the host's events there change nothing new).
  if (s.value === 'turnMarkerPassed') return event.type === 'BEGIN_MARKER_TURN';
  const ctx = snapshot.context;
  // One mulligan each; the first seat may take a second (a multiplayer game's first mulligan is free, CR 103.5c).
  if (event.type === 'MULLIGAN') return (ctx.pregame?.mulligans[event.player] ?? 0) < (event.player === ctx.seats[0] ? 2 : 1);
  if (event.type === 'ROLL_PLANAR_DIE') return ctx.planarRolls === 0 && !hostMade(ctx);
  // What a host made can be undone: mana spent, an effect removed.
  if (event.type === 'SPEND_MANA' || event.type === 'REMOVE_EFFECT') return true;
  if (event.type === 'ADD_EFFECT' && event.id.startsWith('skip-every-')) return isNextPhaseSkipForAll(ctx, event) && (ctx.effects.length > 0 || isAnchor(snapshot));
  // What a host made is followed through turns 1 and 2, the plainest way.
  if (hostMade(ctx)) return ctx.turn <= 2 && PLAINEST.has(event.type) && isPlainest(event);
  // Objects on the stack are explored where turn 1 begins (priority works as anywhere else: the
  // chart passes it and resolves the stack at its root), and as a cleanup step discards (a
  // trigger then gives priority in cleanup, CR 514.3a).
  const empty = ctx.stack.length + ctx.pendingTriggers.length === 0 && ctx.passed.length === 0;
  const fresh = empty && ((ctx.turn === 1 && ctx.step === 'upkeep') || ctx.step === 'cleanup');
  if (event.type === 'TRIGGER') return fresh;
  // A hand over the maximum as the turn ends: the cleanup step's discard (CR 514.1).
  if (event.type === 'HAND_SIZE') return ctx.step === 'end' && ctx.stack.length === 0;
  // One object on the stack, cast by whoever holds priority first in a step; abilities and other speeds only one step away.
  if (event.type === 'CAST_SPELL') return fresh && event.speed === 'instant';
  if (event.type === 'ACTIVATE_ABILITY') return false;
  // Every attack and block is explored in turn 1's combat; later combats are fought the plainest way.
  if (event.type === 'DECLARE_ATTACKERS' || event.type === 'DECLARE_BLOCKERS') return ctx.turn === 1 || isPlainest(event);
  if (PLAINEST.has(event.type) || event.type === 'PLAY_LAND') return true;
  if (event.type === 'ADD_EFFECT') return isAnchor(snapshot) && event.effect.kind === 'skip' && (event.effect.what === 'main' || event.effect.what === 'end');
  return CHANGES_LATER.has(event.type) && isAnchor(snapshot);
}

/** The plainest payload of a decision: no attackers, no blockers (what `passUntil` sends). */
function isPlainest(event: MachineEvent): boolean {
  if (event.type === 'DECLARE_ATTACKERS') return event.attackers.length === 0;
  if (event.type === 'DECLARE_BLOCKERS') return event.blockers.length === 0;
  return true;
}
