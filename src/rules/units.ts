/**
 * Whose turn it is and who holds priority, as distinct from who plays: with shared team turns
 * (CR 805: Two-Headed Giant 810, Archenemy 904) turns and priority belong to teams, each
 * represented by its primary player (805.2); otherwise to players. Turn order, priority and
 * APNAP order work on these units.
 * CR 805.2, 805.4, 805.5, 805.7, 805.8, 805.10.
 */
import type { PlayerId } from '../contract.js';
import type { ExtraTurn, TurnContext } from '../state.js';

type UnitContext = Pick<TurnContext, 'teams' | 'variant'>;

/** Whether the game uses shared team turns (CR 805; 810, 904.2). */
export function sharesTurns(ctx: UnitContext): boolean {
  return ctx.teams !== null && (ctx.variant === 'twoHeadedGiant' || ctx.variant === 'archenemy');
}

/** The unit a player takes turns and holds priority with: their team's primary player (805.2), or themselves. */
export function unitOf(ctx: UnitContext, player: PlayerId): PlayerId {
  if (!sharesTurns(ctx)) return player;
  const team = ctx.teams?.find((t) => t.players.includes(player));
  return team?.players[0] ?? player;
}

/**
 * The player in the game who stands for a unit (CR 805.2, 800.4a): the unit itself while its
 * player is in the game; with shared team turns, once the team's first player has left (in
 * Archenemy a player leaves alone, 904), its first member still in the game. The view and the
 * emitted events name this player, so a host never sees a player who left as holding priority.
 */
export function representative(ctx: UnitContext & Pick<TurnContext, 'players'>, unit: PlayerId): PlayerId {
  if (!sharesTurns(ctx) || ctx.players.includes(unit)) return unit;
  return membersOf(ctx, unit)[0] ?? unit;
}

/** The members of a unit still in the game, in seat order. */
export function membersOf(ctx: UnitContext & Pick<TurnContext, 'players'>, unit: PlayerId): PlayerId[] {
  if (!sharesTurns(ctx)) return ctx.players.includes(unit) ? [unit] : [];
  return ctx.players.filter((p) => unitOf(ctx, p) === unit);
}

/**
 * The seating of the units, for turn order and priority: the primaries of the teams (in the
 * order of their first seats) and those still in the game, or the players themselves.
 */
export function unitSeating(ctx: UnitContext & Pick<TurnContext, 'seats' | 'players'>): Pick<TurnContext, 'seats' | 'players'> {
  if (!sharesTurns(ctx)) return ctx;
  const seats: PlayerId[] = [];
  for (const p of ctx.seats) {
    const u = unitOf(ctx, p);
    if (!seats.includes(u)) seats.push(u);
  }
  const players = seats.filter((u) => ctx.players.some((p) => unitOf(ctx, p) === u));
  return { seats, players };
}

/** The context with the units' seating, for the turn order and priority rules. */
export function byUnits<T extends UnitContext & Pick<TurnContext, 'seats' | 'players'>>(ctx: T): T {
  return sharesTurns(ctx) ? { ...ctx, ...unitSeating(ctx) } : ctx;
}

type PriorityContext = UnitContext & Pick<TurnContext, 'players' | 'influence' | 'turnOwner' | 'stack' | 'seats'>;

/** The rules only Grand Melee plays by (CR 807), in src/rules/grandMelee.ts. */
export interface GrandMeleeRules {
  /** CR 807.5a: the context restricted to the players who get priority for its stack. */
  circle<T extends PriorityContext>(ctx: T): T;
  /** CR 807.4i-j: the extra turn a turn marker begins next, taken out of `list`, or undefined. */
  extraTurn(ctx: Pick<TurnContext, 'seats' | 'players'> & Partial<Pick<TurnContext, 'turnOwner'>>, list: ExtraTurn[], rotation: PlayerId): ExtraTurn | undefined;
}

/**
 * Set by src/rules/grandMelee.ts as it loads: only a game given the grandMelee module plays Grand
 * Melee, so a host without it bundles none of these rules (issue 33).
 */
let grandMeleeRules: GrandMeleeRules | null = null;

/** Called once by src/rules/grandMelee.ts as it loads. */
export function setGrandMeleeRules(rules: GrandMeleeRules): void {
  grandMeleeRules = rules;
}

/** The Grand Melee rules, for a context whose variant is 'grandMelee'. */
export function meleeRules(): GrandMeleeRules {
  if (grandMeleeRules === null) throw new Error('CR 807: a Grand Melee game needs the grandMelee module');
  return grandMeleeRules;
}

/** The context for the priority rules: by units (CR 805), restricted to the players who get priority for this stack in Grand Melee (807.5a). */
export function byPriority<T extends PriorityContext>(ctx: T): T {
  return ctx.variant === 'grandMelee' ? meleeRules().circle(ctx) : byUnits(ctx);
}
