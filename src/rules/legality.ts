/**
 * What makes each event illegal now: one table, read by the engine before an event reaches
 * the chart (so refusals change nothing and say why), by the refusal messages and by
 * `legalActions`. The chart's guards are adapters over the same rules functions.
 * Each entry returns the violated rule and a message saying what to do instead, or null.
 */
import type { Awaiting, PlayerId, TurnEvent } from '../contract.js';
import type { TurnContext } from '../state.js';
import { violation, type Violation } from '../errors.js';
import { discardDue } from './cleanup.js';
import { attackablePlayers, attackViolation, blockViolation, isInCombat, orderViolation } from './combat.js';
import { byViolation } from './control.js';
import { MAX_CONTROL_EFFECTS, MAX_EFFECTS, MAX_PENDING_EXTRA_TURNS, MAX_PENDING_SKIPS, MAX_STACK } from './limits.js';
import { spendViolation } from './mana.js';
import { mayMulligan, startingCandidates } from './pregame.js';
import { priorityViolation } from './priority.js';
import { addPhases, addStep, getsOnThisTurn, kindOf, kindOfStep, newPhase } from './schedule.js';
import { castViolation, landViolation, sorceryTimingViolation } from './timing.js';
import { unitOf } from './units.js';
import { planarDieCost } from './teams.js';

type EventOf<T extends TurnEvent['type']> = Extract<TurnEvent, { type: T }>;
type Check<T extends TurnEvent['type']> = (ctx: TurnContext, awaiting: Awaiting | null, e: EventOf<T>) => Violation | null;

/** A player who has left can no longer do anything (CR 800.4a). */
function inGame(ctx: Pick<TurnContext, 'players'>, player: PlayerId, field = 'player'): Violation | null {
  return ctx.players.includes(player) ? null : violation('800.4a', `${field} ${player} has left the game`);
}

/** The starting player must be one the variant allows (CR 904.6: the archenemy; 809.4: an emperor). */
function startingViolation(ctx: Pick<TurnContext, 'players' | 'teams' | 'variant'>, starting: PlayerId): Violation | null {
  const candidates = startingCandidates(ctx);
  if (candidates === null || candidates.includes(starting)) return null;
  return ctx.variant === 'archenemy'
    ? violation('904.6', `the archenemy takes the first turn, not ${starting}`)
    : violation('809.4', `an emperor goes first (${candidates.join(', ')}), not ${starting}`);
}

/** A decision must be awaited from that player (or be one of the decisions priority allows). */
function awaited(awaiting: Awaiting | null, kind: Awaiting['kind'], player: PlayerId, rule: string, what: string, ctx?: Pick<TurnContext, 'teams' | 'variant'>): Violation | null {
  // CR 805.5, 805.10: with shared team turns any member of the awaited team decides for it.
  if (awaiting?.kind === kind && (awaiting.player === player || (ctx !== undefined && unitOf(ctx, awaiting.player) === unitOf(ctx, player)))) return null;
  const now = awaiting === null ? 'nothing is awaited' : `the game awaits ${awaiting.kind} from ${awaiting.player}`;
  return violation(rule, `${what} by ${player} is not awaited now: ${now}`);
}

/** Ids on the stack are unique (and among the triggers waiting to be put on it, or to be ordered first, 603.3b). */
function stackIdViolation(ctx: Pick<TurnContext, 'stack' | 'pendingTriggers' | 'triggerOrder'>, ids: readonly string[]): Violation | null {
  // No id (a check that reported no trigger): nothing to look through.
  if (ids.length === 0) return stackLimitViolation(ctx, 0);
  // One id (a spell or ability, the usual case): a look through the lists, no set built.
  if (ids.length === 1) return stackIdTaken(ctx, ids[0] as string) ? duplicateId(ids[0] as string) : stackLimitViolation(ctx, 1);
  const taken = new Set([...ctx.stack.map((o) => o.id), ...ctx.pendingTriggers.map((t) => t.id), ...(ctx.triggerOrder?.batch ?? []).map((t) => t.id)]);
  for (const id of ids) {
    if (taken.has(id)) return duplicateId(id);
    taken.add(id);
  }
  return stackLimitViolation(ctx, ids.length);
}

function stackIdTaken(ctx: Pick<TurnContext, 'stack' | 'pendingTriggers' | 'triggerOrder'>, id: string): boolean {
  for (const o of ctx.stack) if (o.id === id) return true;
  for (const t of ctx.pendingTriggers) if (t.id === id) return true;
  for (const t of ctx.triggerOrder?.batch ?? []) if (t.id === id) return true;
  return false;
}

function duplicateId(id: string): Violation {
  return violation('405.1', `an object with id ${id} is already on the stack (or waiting to be put on it); ids on the stack are unique`);
}

function stackLimitViolation(ctx: Pick<TurnContext, 'stack' | 'pendingTriggers'>, adding: number): Violation | null {
  return ctx.stack.length + ctx.pendingTriggers.length + adding > MAX_STACK ? violation('405.1', `the stack would hold more than MAX_STACK = ${MAX_STACK} objects`) : null;
}

function inCombatPhase(ctx: Pick<TurnContext, 'phase' | 'combat'>, what: string): Violation | null {
  return ctx.phase === 'combat' && ctx.combat !== null ? null : violation('506.4', `${what} needs a combat phase; this is the ${ctx.phase} phase`);
}

const first = (...checks: (() => Violation | null)[]): Violation | null => {
  for (const c of checks) {
    const v = c();
    if (v !== null) return v;
  }
  return null;
};

/** The table: for every event type, what makes it illegal now. */
export const LEGALITY: { [T in TurnEvent['type']]: Check<T> } = {
  // The events most games send chain their checks with `??`, as `first` does (a check runs only
  // when the ones before it pass), without a closure per check.
  PASS_PRIORITY: (ctx, _a, e) => priorityViolation(ctx, e.player, '117.3d', 'pass priority') ?? byViolation(ctx, e.player, e.by),
  CAST_SPELL: (ctx, _a, e) => castViolation(ctx, e.player, e.speed, 'spell') ?? byViolation(ctx, e.player, e.by) ?? stackIdViolation(ctx, [e.id]),
  ACTIVATE_ABILITY: (ctx, _a, e) => castViolation(ctx, e.player, e.speed, 'ability') ?? byViolation(ctx, e.player, e.by) ?? stackIdViolation(ctx, [e.id]),
  PLAY_LAND: (ctx, _a, e) => landViolation(ctx, e.player) ?? byViolation(ctx, e.player, e.by),
  DECLARE_ATTACKERS: (ctx, a, e) =>
    awaited(a, 'declareAttackers', e.player, '508.1', 'a declaration of attackers', ctx) ?? byViolation(ctx, e.player, e.by) ?? attackViolation(ctx, e.player, e.attackers),
  DECLARE_BLOCKERS: (ctx, a, e) =>
    awaited(a, 'declareBlockers', e.player, '509.1', 'a declaration of blockers', ctx) ?? byViolation(ctx, e.player, e.by) ?? blockViolation(ctx, e.player, e.blockers),
  DISCARD: (ctx, a, e) =>
    awaited(a, 'discard', e.player, '514.1', 'a discard') ??
    byViolation(ctx, e.player, e.by) ??
    (e.count === discardDue(ctx) ? null : violation('514.1', `${e.player} must discard exactly ${discardDue(ctx)} card(s), not ${e.count}`)),
  CHOOSE_DEFENDER: (ctx, a, e) =>
    first(
      () => awaited(a, 'chooseDefender', e.player, '507.1', 'a choice of the defending player', ctx),
      () => byViolation(ctx, e.player, e.by),
      () =>
        a?.kind === 'chooseDefender' && a.defenders.includes(e.defender)
          ? null
          : violation('507.1', `${e.defender} cannot be chosen as the defending player (choose one of ${a?.kind === 'chooseDefender' ? a.defenders.join(', ') : 'nobody'})`),
    ),
  ORDER_BLOCKERS: (ctx, a, e) =>
    first(
      () => awaited(a, 'orderBlockers', e.player, '509.2', 'a damage assignment order of blockers', ctx),
      () => byViolation(ctx, e.player, e.by),
      () => (a?.kind === 'orderBlockers' && a.attacker === e.attacker ? null : violation('509.2', `the order awaited is for attacker ${a?.kind === 'orderBlockers' ? a.attacker : '?'}, not ${e.attacker}`)),
      () => orderViolation(a?.kind === 'orderBlockers' ? a.blockers : [], e.order, '509.2'),
    ),
  ORDER_ATTACKERS: (ctx, a, e) =>
    first(
      () => awaited(a, 'orderAttackers', e.player, '509.3', 'a damage assignment order of attackers'),
      () => byViolation(ctx, e.player, e.by),
      () => (a?.kind === 'orderAttackers' && a.blocker === e.blocker ? null : violation('509.3', `the order awaited is for blocker ${a?.kind === 'orderAttackers' ? a.blocker : '?'}, not ${e.blocker}`)),
      () => orderViolation(a?.kind === 'orderAttackers' ? a.attackers : [], e.order, '509.3'),
    ),
  ORDER_TRIGGERS: (ctx, a, e) =>
    first(
      () => awaited(a, 'orderTriggers', e.player, '603.3b', 'an order of triggered abilities', ctx),
      () => byViolation(ctx, e.player, e.by),
      () => orderViolation(a?.kind === 'orderTriggers' ? a.triggers : [], e.order, '603.3b'),
    ),
  CHOOSE_STARTING_PLAYER: (ctx, a, e) =>
    first(
      () => awaited(a, 'chooseStartingPlayer', e.player, '103.1', 'a choice of the starting player'),
      () => byViolation(ctx, e.player, e.by),
      () => inGame(ctx, e.starting, 'starting'),
      () => startingViolation(ctx, e.starting),
    ),
  MULLIGAN: (ctx, a, e) =>
    first(
      () => awaited(a, 'mulligan', e.player, '103.5', 'a mulligan'),
      () => byViolation(ctx, e.player, e.by),
      () => (mayMulligan(ctx, e.player) ? null : violation('103.5', `${e.player} has no cards left to mulligan: another mulligan would put more than their whole hand on the bottom`)),
    ),
  KEEP: (ctx, a, e) => first(() => awaited(a, 'mulligan', e.player, '103.5', 'keeping a hand'), () => byViolation(ctx, e.player, e.by)),
  BOTTOM: (ctx, a, e) =>
    first(
      () => awaited(a, 'bottom', e.player, '103.5', 'putting cards on the bottom'),
      () => byViolation(ctx, e.player, e.by),
      () => (a?.kind === 'bottom' && a.count === e.count ? null : violation('103.5', `${e.player} must put exactly ${a?.kind === 'bottom' ? a.count : 0} card(s) on the bottom, not ${e.count}`)),
    ),
  OPENING_HAND_DONE: (ctx, a, e) => first(() => awaited(a, 'openingHandActions', e.player, '103.6', 'the end of opening hand actions'), () => byViolation(ctx, e.player, e.by)),
  ROLL_PLANAR_DIE: (ctx, _a, e) =>
    first(
      () => (ctx.variant === 'planechase' ? null : violation('901.9', 'the planar die is rolled only in a Planechase game')),
      () => priorityViolation(ctx, e.player, '901.9', 'roll the planar die'),
      () => byViolation(ctx, e.player, e.by),
      () => sorceryTimingViolation(ctx, e.player, '901.9'),
      () => ((ctx.manaPool[e.player] ?? 0) >= planarDieCost(ctx) ? null : violation('901.9', `rolling the planar die again this turn costs ${planarDieCost(ctx)} mana; ${e.player}'s pool holds ${ctx.manaPool[e.player] ?? 0}`)),
    ),
  // CR 723.6: the controller of another player can't make that player concede; `by`, when given, is the player.
  CONCEDE: (ctx, _a, e) => inGame(ctx, e.player) ?? (e.by === undefined || e.by === e.player ? null : violation('723.6', `${e.by} cannot make ${e.player} concede: only ${e.player} can`)),
  TRIGGER: (ctx, _a, e) => stackIdViolation(ctx, e.triggers.filter((t) => ctx.players.includes(t.controller)).map((t) => t.id)),
  HAND_SIZE: (ctx, _a, e) => inGame(ctx, e.player),
  ADD_MANA: (ctx, _a, e) => inGame(ctx, e.player),
  SPEND_MANA: (ctx, _a, e) => spendViolation(ctx, e.player, e.amount),
  ADD_EXTRA_TURN: (ctx, _a, e) =>
    first(
      () => inGame(ctx, e.player),
      () => (ctx.extraTurns.length < MAX_PENDING_EXTRA_TURNS ? null : violation('500.7', `at most MAX_PENDING_EXTRA_TURNS = ${MAX_PENDING_EXTRA_TURNS} extra turns can be pending at once`)),
    ),
  ADD_EXTRA_COMBAT: (ctx, _a, e) => {
    if (ctx.phase === 'ending' || ctx.phase === 'pregame') return violation('500.8', `an additional combat phase cannot be added during the ${ctx.phase} phase: no phase of this turn comes after it`);
    const added = addPhases(ctx, [newPhase('combat', true), newPhase('main', true)], e.after);
    return 'rule' in added ? added : null;
  },
  ADD_EXTRA_STEP: (ctx, _a, e) => {
    if (e.player !== undefined && !ctx.players.includes(e.player)) return inGame(ctx, e.player);
    if (ctx.phase === 'pregame') return violation('500.9', 'no step can be added before the game has begun');
    if (e.after !== undefined && e.before !== undefined) return violation('500.9', 'name `after` or `before`, not both');
    if (!getsOnThisTurn(ctx, e.player)) return null; // CR 500.10a: nothing is added
    if (e.afterPhase !== undefined) {
      const added = addPhases(ctx, [newPhase(kindOfStep(e.step), true, e.step)], e.afterPhase);
      return 'rule' in added ? added : null;
    }
    const added = addStep(ctx, e.step, e.before !== undefined ? { before: e.before } : e.after !== undefined ? { after: e.after } : {});
    return 'rule' in added ? added : null;
  },
  ADD_EXTRA_PHASE: (ctx, _a, e) => {
    if (e.player !== undefined && !ctx.players.includes(e.player)) return inGame(ctx, e.player);
    if (ctx.phase === 'pregame') return violation('500.8', 'no phase can be added before the game has begun');
    if (!getsOnThisTurn(ctx, e.player)) return null; // CR 500.10a: nothing is added
    const added = addPhases(ctx, [newPhase(kindOf(e.phase), true)], e.after);
    return 'rule' in added ? added : null;
  },
  SKIP_NEXT: (ctx, _a, e) =>
    first(
      () => inGame(ctx, e.player),
      () => ((ctx.skips[e.player]?.[e.what] ?? 0) < MAX_PENDING_SKIPS ? null : violation('614.10a', `at most MAX_PENDING_SKIPS = ${MAX_PENDING_SKIPS} skips of the same thing can be pending for one player`)),
    ),
  ADD_EFFECT: (ctx, _a, e) => {
    if (ctx.effects.some((x) => x.id === e.id)) return violation('613.7', `an effect with id ${e.id} is already in force; remove it first or use another id`);
    if (ctx.effects.length >= MAX_EFFECTS) return violation('613.7', `at most MAX_EFFECTS = ${MAX_EFFECTS} effects can be in force at once`);
    if (e.controller !== undefined && !ctx.players.includes(e.controller)) return inGame(ctx, e.controller, 'controller');
    if (e.duration === 'untilYourNextTurn' && e.controller === undefined) return violation('611.2b', "an 'untilYourNextTurn' effect needs a controller");
    return null;
  },
  REMOVE_EFFECT: (ctx, _a, e) => (ctx.effects.some((x) => x.id === e.id) ? null : violation('611.2', `no effect with id ${e.id} is in force`)),
  REMOVE_FROM_STACK: (ctx, _a, e) => (ctx.stack.some((o) => o.id === e.id) ? null : violation('405.1', `no object with id ${e.id} is on the stack`)),
  PUT_ON_STACK: (ctx, _a, e) => first(() => inGame(ctx, e.object.controller, 'object.controller'), () => stackIdViolation(ctx, [e.object.id])),
  END_TURN: (ctx) => (ctx.phase === 'pregame' ? violation('724.1', 'the game has not begun: there is no turn to end') : null),
  END_COMBAT: () => null,
  BEGIN_MARKER_TURN: () => violation('807.4d', 'BEGIN_MARKER_TURN is the Grand Melee coordinator\'s own event'),
  REMOVE_FROM_COMBAT: (ctx, _a, e) =>
    first(
      () => inCombatPhase(ctx, 'removing a creature from combat'),
      () => (isInCombat(ctx.combat, e.id) ? null : violation('506.4', `${e.id} is not attacking or blocking`)),
    ),
  SET_COMBAT_ABILITIES: (ctx, _a, e) =>
    first(
      () => inCombatPhase(ctx, 'changing a creature in combat'),
      () => (isInCombat(ctx.combat, e.id) ? null : violation('506.4', `${e.id} is not attacking or blocking`)),
    ),
  ADD_ATTACKER: (ctx, _a, e) =>
    first(
      () => inCombatPhase(ctx, 'putting a creature onto the battlefield attacking'),
      () => (ctx.activePlayer === null ? violation('800.4j', 'there is no active player to attack for') : null),
      () => (isInCombat(ctx.combat, e.id) ? violation('508.4', `${e.id} is already in combat`) : null),
      () => (attackablePlayers(ctx).includes(e.defender) ? null : violation('508.4', `${e.defender} cannot be attacked in this combat`)),
    ),
  ADD_BLOCKER: (ctx, _a, e) =>
    first(
      () => inCombatPhase(ctx, 'putting a creature onto the battlefield blocking'),
      () => (ctx.combat?.attackers.some((a) => a.id === e.attacker) ? null : violation('509.4', `${e.attacker} is not an attacking creature`)),
      () => {
        const defender = ctx.combat?.attackers.find((a) => a.id === e.attacker)?.defender;
        return defender === undefined || ctx.players.includes(defender) ? null : violation('800.4a', `${e.attacker} attacks ${defender}, who has left the game: nobody can block it`);
      },
      () => (ctx.combat?.attackers.some((a) => a.id === e.id) ? violation('509.4', `${e.id} is attacking and cannot block`) : null),
      () => (ctx.combat?.blockers.find((b) => b.id === e.id)?.blocking.includes(e.attacker) ? violation('509.4', `${e.id} is already blocking ${e.attacker}`) : null),
    ),
  CONTROL_PLAYER: (ctx, _a, e) =>
    first(
      () => inGame(ctx, e.controller, 'controller'),
      () => inGame(ctx, e.player),
      // CR 723.9: a player may be given control of themselves (the latest effect wins, 723.1a).
      () => (ctx.controlNext.length < MAX_CONTROL_EFFECTS ? null : violation('723.1', `at most MAX_CONTROL_EFFECTS = ${MAX_CONTROL_EFFECTS} control effects can be pending`)),
    ),
  LOSE: (ctx, _a, e) => inGame(ctx, e.player),
  WIN: (ctx, _a, e) => inGame(ctx, e.player),
  DRAW_GAME: () => null,
  SET_DAY_NIGHT: () => null,
  SET_STOPS: (ctx, _a, e) => inGame(ctx, e.player),
  YIELD: (ctx, _a, e) => inGame(ctx, e.player),
};

/** The decisions a player makes while holding priority (CR 117.1). */
const PRIORITY_ACTIONS: readonly TurnEvent['type'][] = ['PASS_PRIORITY', 'CAST_SPELL', 'ACTIVATE_ABILITY', 'PLAY_LAND', 'ROLL_PLANAR_DIE'];

/**
 * The decisions that answer something else the game awaits (attackers, blockers, a discard,
 * an order, the pregame's choices). Their rows are the ones that read what the game awaits (the
 * table's second argument); the others ignore it, so the gate does not work it out for them
 * (test/rules/legality.test.ts checks this list against the table's rows).
 */
export const READS_AWAITING: ReadonlySet<TurnEvent['type']> = new Set<TurnEvent['type']>([
  'DECLARE_ATTACKERS',
  'DECLARE_BLOCKERS',
  'DISCARD',
  'CHOOSE_DEFENDER',
  'ORDER_BLOCKERS',
  'ORDER_ATTACKERS',
  'ORDER_TRIGGERS',
  'CHOOSE_STARTING_PLAYER',
  'MULLIGAN',
  'KEEP',
  'BOTTOM',
  'OPENING_HAND_DONE',
]);

/** The player decisions: everything else is a host event (or a setting). */
export const DECISIONS: ReadonlySet<TurnEvent['type']> = new Set([...PRIORITY_ACTIONS, ...READS_AWAITING]);

/** What makes an event illegal now, or null when it is allowed. */
export function violationOf(ctx: TurnContext, awaiting: Awaiting | null, e: TurnEvent): Violation | null {
  return (LEGALITY[e.type] as Check<typeof e.type>)(ctx, awaiting, e as never);
}
