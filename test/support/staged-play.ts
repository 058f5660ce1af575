/**
 * Plays games through the staged host (test/support/staged-host.ts) with a checkpoint hook that
 * fails at random: every send the hook fails is refused with HOOK_FAILED, changes nothing, and is
 * sent again until it is accepted (CONTRACT v3, "Every event exactly once", `hooks.settled`).
 */
import { createGame, ErrorCode, restoreGame, type CheckpointResult, type EmittedEvent, type Game, type GameHooks, type GameOptions, type SendResult, type Stop, type TurnEvent, type TurnView } from '../../src/index.js';
import { rng } from './cards.js';
import { cardOf, newTable, StagedHost, type Table } from './staged-host.js';

/** What the flaky hook throws: the sends it fails are sent again. */
export const INJECTED = 'injected failure';

/**
 * The host's hooks, with a checkpoint that fails at random: armed before each attempt, it throws at
 * the `at`-th call of that attempt, before carrying anything out or after (what it staged must be
 * dropped).
 */
export class FlakyHooks {
  injected = 0;
  private at = 0;
  private after = false;
  private calls = 0;
  readonly hooks: GameHooks;

  constructor(host: StagedHost, private readonly random: () => number, private readonly rate: number) {
    this.hooks = {
      checkpoint: (view: TurnView, pending: EmittedEvent[]): CheckpointResult | undefined => {
        if (++this.calls === this.at && !this.after) this.fail();
        const result = host.checkpoint(view, pending);
        if (this.calls === this.at) this.fail();
        return result;
      },
      settled: host.settled,
    };
  }

  private fail(): never {
    this.injected++;
    throw new Error(INJECTED);
  }

  /** Before an attempt: fail it (at one of its first three checkpoint calls) with probability `rate`. */
  arm(): void {
    this.calls = 0;
    this.at = this.random() < this.rate ? 1 + Math.floor(this.random() * 3) : 0;
    this.after = this.random() < 0.7;
  }
}

/** Whether a refusal is the flaky hook's (to be retried), not the host's own. */
export const isInjected = (r: SendResult): boolean => !r.ok && r.error.code === ErrorCode.HOOK_FAILED && r.error.message.includes(INJECTED);

/** A random player decision (or the concession of a player now and then), through the host's cards. */
export function chooseEvent(game: Game, host: StagedHost, random: () => number, concede: number): TurnEvent | null {
  const all = game.legalActions();
  if (all.length === 0) return null;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const concessions = all.filter((a) => a.type === 'CONCEDE');
  if (concessions.length > 0 && random() < concede) return pick(concessions) as TurnEvent;
  const view = game.view();
  const playable = (player: string, speed: string) => (host.table.hand[player] ?? []).filter((id) => {
    const card = cardOf(id);
    return card !== undefined && card.kind !== 'land' && (speed === 'sorcery' || card.kind === 'instant');
  });
  const actions = all.filter((a) => {
    if (a.type === 'CONCEDE' || a.type === 'ACTIVATE_ABILITY') return false; // the host's cards have no activated abilities
    if (a.type === 'CAST_SPELL') return random() < 0.4 && playable(a.player, a.speed).length > 0; // hands fill up, and discard
    if (a.type === 'PLAY_LAND') return (host.table.hand[a.player] ?? []).some((id) => cardOf(id)?.kind === 'land');
    return true;
  });
  const passes = actions.filter((a) => a.type === 'PASS_PRIORITY');
  const others = actions.filter((a) => a.type !== 'PASS_PRIORITY');
  const passChance = 0.5 + Math.min(0.4, view.stack.length * 0.1);
  const action = passes.length > 0 && (others.length === 0 || random() < passChance) ? passes[0] : pick(others);
  if (action === undefined) return null;
  const { choose: _choose, ...template } = action;
  const event: Record<string, unknown> = template;
  switch (action.type) {
    case 'CAST_SPELL':
      return { ...action, id: pick(playable(action.player, action.speed)) } as TurnEvent;
    case 'DECLARE_ATTACKERS': {
      const defenders = view.awaiting?.kind === 'declareAttackers' ? view.awaiting.defenders : [];
      const mine = host.creatures(action.player).filter(() => random() < 0.7);
      const attackers = defenders.length === 0 ? [] : mine.map((c) => ({ id: c.id, defender: pick(defenders), firstStrike: cardOf(c.id)?.firstStrike, doubleStrike: cardOf(c.id)?.doubleStrike }));
      return { ...template, attackers } as TurnEvent;
    }
    case 'DECLARE_BLOCKERS': {
      const attackers = view.combat?.attackers.filter((a) => a.defender === action.player) ?? [];
      const attacking = new Set(view.combat?.attackers.map((a) => a.id));
      const mine = host.creatures(action.player).filter((c) => !attacking.has(c.id) && random() < 0.6);
      return { ...template, blockers: attackers.length === 0 ? [] : mine.map((c) => ({ id: c.id, attacker: pick(attackers).id })) } as TurnEvent;
    }
    case 'CHOOSE_DEFENDER':
      return { ...template, defender: view.awaiting?.kind === 'chooseDefender' ? pick(view.awaiting.defenders) : '' } as TurnEvent;
    case 'ORDER_BLOCKERS':
      return { ...template, order: view.awaiting?.kind === 'orderBlockers' ? [...view.awaiting.blockers].reverse() : [] } as TurnEvent;
    case 'ORDER_ATTACKERS':
      return { ...template, order: view.awaiting?.kind === 'orderAttackers' ? [...view.awaiting.attackers].reverse() : [] } as TurnEvent;
    case 'ORDER_TRIGGERS':
      return { ...template, order: view.awaiting?.kind === 'orderTriggers' ? [...view.awaiting.triggers].reverse() : [] } as TurnEvent;
    case 'CHOOSE_STARTING_PLAYER':
      return { ...template, starting: pick(view.players) } as TurnEvent;
    default:
      return event as TurnEvent;
  }
}

/** How one game went. */
export interface Played {
  game: Game;
  host: StagedHost;
  options: GameOptions;
  /** The accepted sends, in order. */
  accepted: TurnEvent[];
  /** Attempts refused by the flaky hook (and sent again). */
  retries: number;
  /** Refusals that were the host's own: a wedged game has one. */
  wedged: string | null;
}

const MAX_ATTEMPTS = 100;
/** Where the players of these games want to be asked. */
const STOPS: Stop[] = [
  { step: 'main', turn: 'own' },
  { step: 'declareBlockers', turn: 'any' },
  { step: 'end', turn: 'others' },
];

/**
 * Plays a game with a hook that fails at `rate` of the attempts, until it ends or `turns` turns
 * have begun (`actions` decisions at most); every refused attempt is sent again. Every
 * `saveEvery` accepted sends the host saves its table with `persist()` and both are restored.
 */
export function playFlaky(options: GameOptions, seed: number, { rate = 0.3, turns = 6, actions = 5000, concede = 0.01, saveEvery = 150 } = {}): Played {
  const random = rng(seed);
  let host = new StagedHost(newTable(options.players, rng(seed + 1), options.handSize));
  let flaky = new FlakyHooks(host, rng(seed + 2), rate);
  let game: Game | undefined;
  let retries = 0;
  for (let attempt = 0; game === undefined; attempt++) {
    flaky.arm();
    try {
      game = createGame({ ...options, hooks: flaky.hooks });
    } catch (err) {
      if (attempt >= MAX_ATTEMPTS || !String(err).includes(INJECTED)) throw err;
      retries++;
    }
  }
  const accepted: TurnEvent[] = [];
  // The players are asked where they may want to act (stops; everything else passes for them).
  const queue: TurnEvent[] = options.players.map((player) => ({ type: 'SET_STOPS', player, stops: STOPS }));
  for (let i = 0, view = game.view(); i < actions && view.gameOver === null && view.turn <= turns; i++, view = game.view()) {
    const event = queue.shift() ?? chooseEvent(game, host, random, concede);
    if (event === null) break;
    let result = { ok: false } as SendResult;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      flaky.arm();
      result = host.send(game, event);
      if (!isInjected(result)) break;
      retries++;
    }
    if (!result.ok) return { game, host, options, accepted, retries, wedged: `${JSON.stringify(event)}: ${result.error.code} ${result.error.message}` };
    accepted.push(event);
    if (accepted.length % saveEvery === 0) {
      // The host saves its own state (with the last seq it carried out) together with persist().
      const saved = JSON.parse(JSON.stringify({ engine: game.persist(), table: host.table })) as { engine: unknown; table: Table };
      host = new StagedHost(saved.table);
      flaky = new FlakyHooks(host, rng(seed + 3 + accepted.length), rate);
      game = restoreGame(saved.engine, { hooks: flaky.hooks });
    }
  }
  return { game, host, options, accepted, retries, wedged: null };
}

/** The same accepted sends on a host whose hook never fails: what the host's table must be. */
export function replay(played: Played, seed: number): { game: Game; host: StagedHost } {
  const host = new StagedHost(newTable(played.options.players, rng(seed + 1), played.options.handSize));
  const game = createGame({ ...played.options, hooks: { checkpoint: host.checkpoint, settled: host.settled } });
  for (const event of played.accepted) {
    const r = host.send(game, event);
    if (!r.ok) throw new Error(`the replay refused ${JSON.stringify(event)}: ${r.error.message}`);
  }
  return { game, host };
}
