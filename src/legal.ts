/**
 * `game.legalActions(player?)`: the decisions `send` would accept now, as templates with the
 * fields the caller must choose named in `choose`. Every template is checked against the
 * legality table (src/rules/legality.ts) with its choices filled in the plainest way, so a
 * listed template is always accepted.
 */
import type { Awaiting, PlayerId, TurnEvent } from './contract.js';
import type { TurnContext } from './state.js';
import { decider } from './rules/control.js';
import { unitOf } from './rules/units.js';
import { violationOf } from './rules/legality.js';
import { awaitingOf, type SnapshotLike } from './view.js';

/** A decision of type `T` less the fields in `Chosen`, which the caller fills in (listed in `choose`). */
export type LegalActionTemplate<T extends TurnEvent['type'], Chosen extends string = never> = Omit<Extract<TurnEvent, { type: T }>, Chosen> & { choose: Chosen[] };

/**
 * A decision that would be accepted now: the event less the fields in `choose` (drop
 * `choose` before sending). Discriminated by `type`.
 */
export type LegalAction =
  | LegalActionTemplate<'PASS_PRIORITY'>
  | LegalActionTemplate<'CAST_SPELL', 'id'>
  | LegalActionTemplate<'ACTIVATE_ABILITY', 'id'>
  | LegalActionTemplate<'PLAY_LAND'>
  | LegalActionTemplate<'DECLARE_ATTACKERS', 'attackers'>
  | LegalActionTemplate<'DECLARE_BLOCKERS', 'blockers'>
  | LegalActionTemplate<'DISCARD'>
  | LegalActionTemplate<'CHOOSE_DEFENDER', 'defender'>
  | LegalActionTemplate<'ORDER_BLOCKERS', 'order'>
  | LegalActionTemplate<'ORDER_ATTACKERS', 'order'>
  | LegalActionTemplate<'ORDER_TRIGGERS', 'order'>
  | LegalActionTemplate<'CHOOSE_STARTING_PLAYER', 'starting'>
  | LegalActionTemplate<'MULLIGAN'>
  | LegalActionTemplate<'KEEP'>
  | LegalActionTemplate<'BOTTOM'>
  | LegalActionTemplate<'OPENING_HAND_DONE'>
  | LegalActionTemplate<'ROLL_PLANAR_DIE'>
  | LegalActionTemplate<'CONCEDE'>;

/** The template less its `choose` (a new object the caller may fill in; object rest would take V8's slow path). */
function withoutChoose(action: LegalAction): Record<string, unknown> & { type: LegalAction['type']; player: PlayerId } {
  const out: Record<string, unknown> = {};
  for (const key in action) if (key !== 'choose') out[key] = (action as unknown as Record<string, unknown>)[key];
  return out as Record<string, unknown> & { type: LegalAction['type']; player: PlayerId };
}

/** A template with its choices filled in the plainest way (an unused id, no creatures, the first defender, the order as listed). */
export function plainestFill(action: LegalAction, awaiting: Awaiting | null, ctx: Pick<TurnContext, 'stack' | 'pendingTriggers'>): TurnEvent {
  const rest = withoutChoose(action);
  switch (rest.type) {
    case 'CAST_SPELL':
    case 'ACTIVATE_ABILITY': {
      let n = ctx.stack.length + ctx.pendingTriggers.length;
      const taken = new Set([...ctx.stack.map((o) => o.id), ...ctx.pendingTriggers.map((t) => t.id)]);
      while (taken.has(`object-${n}`)) n++;
      rest.id = `object-${n}`;
      return rest as TurnEvent;
    }
    case 'DECLARE_ATTACKERS':
      rest.attackers = [];
      return rest as TurnEvent;
    case 'DECLARE_BLOCKERS':
      rest.blockers = [];
      return rest as TurnEvent;
    case 'CHOOSE_DEFENDER':
      rest.defender = awaiting?.kind === 'chooseDefender' ? (awaiting.defenders[0] ?? '') : '';
      return rest as TurnEvent;
    case 'ORDER_BLOCKERS':
      rest.order = awaiting?.kind === 'orderBlockers' ? [...awaiting.blockers] : [];
      return rest as TurnEvent;
    case 'ORDER_ATTACKERS':
      rest.order = awaiting?.kind === 'orderAttackers' ? [...awaiting.attackers] : [];
      return rest as TurnEvent;
    case 'CHOOSE_STARTING_PLAYER':
      rest.starting = rest.player;
      return rest as TurnEvent;
    case 'ORDER_TRIGGERS':
      rest.order = awaiting?.kind === 'orderTriggers' ? [...awaiting.triggers] : [];
      return rest as TurnEvent;
    default:
      return rest as TurnEvent;
  }
}

/**
 * Whether a player may answer what is awaited: the awaited player, or with shared team turns
 * any member of their team, except for the decisions that are each player's own (discards,
 * mulligans, cards on the bottom, opening hand actions, a blocker's order of attackers, the
 * choice of the starting player).
 * CR 805.5, 805.7, 805.10.
 */
export function mayAnswer(ctx: Pick<TurnContext, 'teams' | 'variant'>, awaiting: Awaiting, p: PlayerId): boolean {
  if (awaiting.player === p) return true;
  const own = (['discard', 'mulligan', 'bottom', 'openingHandActions', 'orderAttackers', 'chooseStartingPlayer'] as const).some((k) => k === awaiting.kind);
  return !own && unitOf(ctx, awaiting.player) === unitOf(ctx, p);
}

/** The candidate templates for one player, before the legality check (the first is the plainest answer to what is awaited). */
export function candidates(ctx: TurnContext, awaiting: Awaiting | null, p: PlayerId): LegalAction[] {
  const who = whoOf(ctx, p);
  const out: LegalAction[] = [];
  if (awaiting !== null && mayAnswer(ctx, awaiting, p)) {
    switch (awaiting.kind) {
      case 'priority':
        out.push({ type: 'PASS_PRIORITY', ...who, choose: [] });
        for (const type of ['CAST_SPELL', 'ACTIVATE_ABILITY'] as const) {
          out.push({ type, ...who, speed: 'instant', choose: ['id'] }, { type, ...who, speed: 'sorcery', choose: ['id'] });
        }
        out.push({ type: 'PLAY_LAND', ...who, choose: [] }, { type: 'ROLL_PLANAR_DIE', ...who, choose: [] });
        break;
      case 'declareAttackers':
        out.push({ type: 'DECLARE_ATTACKERS', ...who, choose: ['attackers'] });
        break;
      case 'declareBlockers':
        out.push({ type: 'DECLARE_BLOCKERS', ...who, choose: ['blockers'] });
        break;
      case 'discard':
        out.push({ type: 'DISCARD', ...who, count: awaiting.count, choose: [] });
        break;
      case 'chooseDefender':
        out.push({ type: 'CHOOSE_DEFENDER', ...who, choose: ['defender'] });
        break;
      case 'orderBlockers':
        out.push({ type: 'ORDER_BLOCKERS', ...who, attacker: awaiting.attacker, choose: ['order'] });
        break;
      case 'orderAttackers':
        out.push({ type: 'ORDER_ATTACKERS', ...who, blocker: awaiting.blocker, choose: ['order'] });
        break;
      case 'chooseStartingPlayer':
        out.push({ type: 'CHOOSE_STARTING_PLAYER', ...who, choose: ['starting'] });
        break;
      case 'mulligan':
        out.push({ type: 'KEEP', ...who, choose: [] }, { type: 'MULLIGAN', ...who, choose: [] });
        break;
      case 'bottom':
        out.push({ type: 'BOTTOM', ...who, count: awaiting.count, choose: [] });
        break;
      case 'openingHandActions':
        out.push({ type: 'OPENING_HAND_DONE', ...who, choose: [] });
        break;
      case 'orderTriggers':
        out.push({ type: 'ORDER_TRIGGERS', ...who, choose: ['order'] });
        break;
    }
  }
  out.push({ type: 'CONCEDE', player: p, choose: [] });
  return out;
}

/** The player of a template, and who decides for them if someone else does (CR 723.5). */
function whoOf(ctx: TurnContext, p: PlayerId): { player: PlayerId; by?: PlayerId } {
  const by = decider(ctx, p);
  return by === p ? { player: p } : { player: p, by };
}

/** The first of {@link candidates} (the plainest answer to what is awaited), without building the others. */
export function plainestCandidate(ctx: TurnContext, awaiting: Awaiting | null, p: PlayerId): LegalAction {
  if (awaiting?.kind === 'priority' && mayAnswer(ctx, awaiting, p)) return { type: 'PASS_PRIORITY', ...whoOf(ctx, p), choose: [] };
  return candidates(ctx, awaiting, p)[0] as LegalAction;
}

/** The decisions that would be accepted now, from one player or every player in turn order. */
export function legalActionsOf(snapshot: SnapshotLike, player?: string): LegalAction[] {
  const ctx = snapshot.context;
  if (snapshot.status !== 'active' || ctx.result !== null) return [];
  const awaiting = awaitingOf(snapshot);
  const out: LegalAction[] = [];
  for (const p of ctx.players) {
    if (player !== undefined && p !== player) continue;
    for (const action of candidates(ctx, awaiting, p)) {
      if (violationOf(ctx, awaiting, plainestFill(action, awaiting, ctx)) === null) out.push(action);
    }
  }
  return out;
}
