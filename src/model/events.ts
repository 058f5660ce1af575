/**
 * The events the model offers in each state: concrete payloads for every event type the
 * state's nodes accept, both accepted and refused ones (a refused event must leave the
 * state unchanged, which the generated tests check too).
 *
 * Payloads are kept few: one per outcome that changes the model state, and one refused
 * variant where the rules refuse something (a pass from a player without priority, a
 * sorcery outside a main phase, an illegal attack or block, a wrong discard count, a
 * concession from a player who already left).
 */
import type { TurnContext, TurnEvent } from '../../machines/turn.types.js';
import { awaitedDefender } from '../rules/combat.js';
import { discardDue } from '../rules/cleanup.js';
import { statePath } from '../view.js';
import { playerAt, seatOf, type ModelSnapshot } from './abstraction.js';

/** Creature ids of the model: `<player>-<n>`. */
function creature(player: string, n: number): string {
  return `${player}-${n}`;
}

/** The other players still in the game, in turn order after the active seat. */
function opponents(ctx: TurnContext, of: string | null): string[] {
  return ctx.players.filter((p) => p !== of).sort((a, b) => seatOf(ctx, a) - seatOf(ctx, b));
}

function declareAttackersEvents(ctx: TurnContext, active: string): TurnEvent[] {
  const [first, second] = opponents(ctx, active);
  if (first === undefined) return [];
  const events: TurnEvent[] = [
    { type: 'DECLARE_ATTACKERS', player: active, attackers: [] },
    { type: 'DECLARE_ATTACKERS', player: active, attackers: [{ id: creature(active, 1), defender: first }] },
    { type: 'DECLARE_ATTACKERS', player: active, attackers: [{ id: creature(active, 1), defender: first, firstStrike: true }] },
    // Refused: a player cannot attack themselves (CR 508.1b).
    { type: 'DECLARE_ATTACKERS', player: active, attackers: [{ id: creature(active, 1), defender: active }] },
  ];
  if (second !== undefined) {
    events.push({
      type: 'DECLARE_ATTACKERS',
      player: active,
      attackers: [
        { id: creature(active, 1), defender: first },
        { id: creature(active, 2), defender: second },
      ],
    });
  }
  return events;
}

function declareBlockersEvents(ctx: TurnContext): TurnEvent[] {
  const defender = awaitedDefender(ctx);
  if (defender === null) return [];
  const attacker = ctx.combat?.attackers.find((a) => a.defender === defender);
  const events: TurnEvent[] = [
    { type: 'DECLARE_BLOCKERS', player: defender, blockers: [] },
    // Refused: the blocked creature is not attacking (CR 509.1a).
    { type: 'DECLARE_BLOCKERS', player: defender, blockers: [{ id: creature(defender, 1), attacker: 'nobody' }] },
  ];
  if (attacker !== undefined) {
    events.push(
      { type: 'DECLARE_BLOCKERS', player: defender, blockers: [{ id: creature(defender, 1), attacker: attacker.id }] },
      { type: 'DECLARE_BLOCKERS', player: defender, blockers: [{ id: creature(defender, 1), attacker: attacker.id, firstStrike: true }] },
    );
  }
  return events;
}

/**
 * The concrete events offered in a state. `createTestModel` asks this for the event types
 * the state's nodes accept (`getAllOwnEventDescriptors`); every type gets at least one payload.
 */
export function modelEvents(snapshot: ModelSnapshot): TurnEvent[] {
  const ctx = snapshot.context;
  const active = ctx.activePlayer;
  const actor = active ?? (ctx.players[0] as string);
  const holder = ctx.priority;
  const next = playerAt(ctx, 1);
  const notHolder = ctx.players.find((p) => p !== holder) ?? actor;
  const decider = holder ?? actor;
  const serial = ctx.stack.length + 1;
  const path = statePath(snapshot.value);
  const events: TurnEvent[] = [
    { type: 'PASS_PRIORITY', player: decider },
    { type: 'PASS_PRIORITY', player: notHolder },
    { type: 'CAST_SPELL', player: decider, id: `spell-${serial}`, speed: 'instant' },
    { type: 'CAST_SPELL', player: decider, id: `spell-${serial}`, speed: 'sorcery' },
    { type: 'ACTIVATE_ABILITY', player: decider, id: `ability-${serial}`, speed: 'instant' },
    { type: 'PLAY_LAND', player: actor },
    { type: 'TRIGGER', triggers: [{ id: `trigger-${serial}`, controller: actor }] },
    { type: 'HAND_SIZE', player: actor, size: ctx.maxHandSize + 1 },
    { type: 'ADD_MANA', player: actor, amount: 1 },
    { type: 'SPEND_MANA', player: actor, amount: 1 },
    { type: 'ADD_EXTRA_TURN', player: next },
    { type: 'ADD_EXTRA_COMBAT' },
    { type: 'ADD_EXTRA_COMBAT', followedByMain: false },
    { type: 'SKIP_NEXT', player: actor, what: 'combat' },
    { type: 'SKIP_NEXT', player: actor, what: 'declareAttackers' },
    { type: 'SKIP_NEXT', player: next, what: 'turn' },
    { type: 'CONCEDE', player: actor },
  ];
  const other = ctx.players.find((p) => p !== actor);
  if (other !== undefined) events.push({ type: 'CONCEDE', player: other });
  const departed = ctx.seats.find((p) => !ctx.players.includes(p));
  if (departed !== undefined) events.push({ type: 'CONCEDE', player: departed });
  if (path === 'combat.declareAttackers.declaring' && active !== null) events.push(...declareAttackersEvents(ctx, active));
  if (path === 'combat.declareBlockers.declaring') events.push(...declareBlockersEvents(ctx));
  if (path === 'ending.cleanup.discarding' && active !== null) {
    const due = discardDue(ctx);
    events.push({ type: 'DISCARD', player: active, count: due }, { type: 'DISCARD', player: active, count: due + 1 });
  }
  return events;
}

/** Host events that leave something pending for later in the turn (or later turns). */
const SCHEDULING_EVENTS: ReadonlySet<TurnEvent['type']> = new Set(['HAND_SIZE', 'ADD_MANA', 'ADD_EXTRA_TURN', 'ADD_EXTRA_COMBAT', 'SKIP_NEXT']);

/** The events of the plainest game: passing, declaring and discarding (what `passUntil` answers). */
const PLAIN_EVENTS: ReadonlySet<TurnEvent['type']> = new Set(['PASS_PRIORITY', 'DECLARE_ATTACKERS', 'DECLARE_BLOCKERS', 'DISCARD']);

/** The phases begun in a regular turn by each phase (CR 500.1): regular phases and main phases so far. */
const REGULAR_SHAPE: Readonly<Record<string, string>> = { beginning: '1/0', precombatMain: '2/1', combat: '3/1', postcombatMain: '4/2', ending: '5/2' };

/**
 * The host effects in a state: mana in a pool, an extra turn or phase pending or taken
 * this turn, a pending skip, a player who left the game.
 */
export function hostEffects(ctx: TurnContext): string[] {
  const out: string[] = [];
  if (Object.values(ctx.manaPool).some((m) => m > 0)) out.push('mana');
  if (ctx.extraTurns.length > 0) out.push('extraTurn');
  if (ctx.extraPhases.length > 0 || REGULAR_SHAPE[ctx.phase] !== `${ctx.regularPhases}/${Math.min(ctx.mainPhases, 2)}`) out.push('extraPhase');
  if (Object.keys(ctx.skips).length > 0) out.push('skip');
  if (ctx.players.length < ctx.seats.length) out.push('left');
  return out;
}

/**
 * Which offered events the traversal follows (`filterEvents`). The model explores the
 * priority, the stack and combat in full in a turn with no host effects; each host effect
 * on its own (not in combination), and from there the plainest game only (passes,
 * declarations, discards), plus spending the mana in a pool and one more concession
 * while a player has left.
 */
export function followsEvent(snapshot: ModelSnapshot, event: TurnEvent): boolean {
  // A finished game refuses everything (GAME_OVER); an actor no longer takes events.
  if (snapshot.status !== 'active') return false;
  const effects = hostEffects(snapshot.context);
  if (effects.length === 0) return true;
  if (event.type === 'SPEND_MANA') return effects.includes('mana');
  if (event.type === 'CONCEDE') return effects.length === 1 && effects[0] === 'left';
  if (SCHEDULING_EVENTS.has(event.type)) return false;
  return PLAIN_EVENTS.has(event.type);
}
