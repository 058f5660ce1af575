/**
 * Random games in every era and variant (free-for-all with 2-4 players, Two-Headed Giant,
 * Archenemy, Emperor, Planechase, with and without the pregame) under a random mix of legal
 * decisions, the host's turn-changing events (effects added and removed at random times, extra
 * turns, steps and phases, ending the turn and the combat, control, stops, yields, the stack),
 * players leaving and refused input. Every event is checked by harness.ts: send never throws
 * (CONTRACT "Game"), refusals change nothing and emit nothing, the view keeps its invariants
 * (CR 104.2a, 117.3, 800.4a), nothing is stuck, and restoreGame(persist()) is the same game.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allModules } from '../../src/allModules.js';
import { restoreGame, type TurnEvent, type TurnView } from '../../src/index.js';
import { seededRandom } from '../../src/simulation.js';
import { fill, playRandom, setupArb, sharesTurns } from './harness.js';
import { assertProperty } from './seeds.js';

describe('random games: every event keeps the contract', () => {
  it('send never throws, refusals change nothing, the view keeps its invariants, nothing is stuck (CR 104.2a, 117, 800.4)', () => {
    let accepted = 0;
    assertProperty(
      fc.property(setupArb, (setup) => {
        accepted += playRandom(setup, 150).accepted;
      }),
      { numRuns: 40 },
    );
    expect(accepted).toBeGreaterThan(2000);
  });

  it('games heavy with host effects keep the same contract (CR 614.10, 500.7-500.10, 724, 723)', () => {
    let accepted = 0;
    assertProperty(
      fc.property(setupArb, (setup) => {
        accepted += playRandom(setup, 120, { legal: 45, host: 40, refused: 8, concede: 2, restore: 5 }).accepted;
      }),
      { numRuns: 30 },
    );
    expect(accepted).toBeGreaterThan(1000);
  });

  it('long games reach many turns (CR 500.1, 514.3a)', () => {
    let turns = 0;
    assertProperty(
      fc.property(setupArb, (setup) => {
        turns = Math.max(turns, playRandom(setup, 800, { legal: 95, host: 3, refused: 1, concede: 0, restore: 1 }).game.view().turn);
      }),
      { numRuns: 6 },
    );
    expect(turns).toBeGreaterThan(5);
  });
});

/** One plausible event of every kind of player decision from `player`, filled from what is awaited now. */
function everyDecision(view: TurnView, player: string): TurnEvent[] {
  const a = view.awaiting;
  const other = view.players.find((p) => p !== player) ?? player;
  const attackers = (view.combat?.attackers ?? []).map((x) => x.id);
  return [
    { type: 'PASS_PRIORITY', player },
    { type: 'PLAY_LAND', player },
    { type: 'CAST_SPELL', player, id: 'probe-spell', speed: 'sorcery' },
    { type: 'CAST_SPELL', player, id: 'probe-instant', speed: 'instant' },
    { type: 'ACTIVATE_ABILITY', player, id: 'probe-ability', speed: 'instant' },
    { type: 'ACTIVATE_ABILITY', player, id: 'probe-sorcery-ability', speed: 'sorcery' },
    { type: 'DECLARE_ATTACKERS', player, attackers: [] },
    { type: 'DECLARE_ATTACKERS', player, attackers: [{ id: 'probe-attacker', defender: a?.kind === 'declareAttackers' ? (a.defenders[0] ?? other) : other }] },
    { type: 'DECLARE_BLOCKERS', player, blockers: [] },
    ...(attackers.length > 0 ? [{ type: 'DECLARE_BLOCKERS', player, blockers: [{ id: 'probe-blocker', attacker: attackers[0]! }] } satisfies TurnEvent] : []),
    { type: 'DISCARD', player, count: a?.kind === 'discard' ? a.count : 1 },
    { type: 'CHOOSE_DEFENDER', player, defender: a?.kind === 'chooseDefender' ? (a.defenders[0] ?? other) : other },
    ...(a?.kind === 'orderBlockers' ? [{ type: 'ORDER_BLOCKERS', player, attacker: a.attacker, order: [...a.blockers] } satisfies TurnEvent] : []),
    ...(a?.kind === 'orderAttackers' ? [{ type: 'ORDER_ATTACKERS', player, blocker: a.blocker, order: [...a.attackers] } satisfies TurnEvent] : []),
    ...(a?.kind === 'orderTriggers' ? [{ type: 'ORDER_TRIGGERS', player, order: [...a.triggers] } satisfies TurnEvent] : []),
    { type: 'CHOOSE_STARTING_PLAYER', player, starting: player },
    { type: 'MULLIGAN', player },
    { type: 'KEEP', player },
    { type: 'BOTTOM', player, count: a?.kind === 'bottom' ? a.count : 1 },
    { type: 'OPENING_HAND_DONE', player },
    { type: 'ROLL_PLANAR_DIE', player },
  ];
}

describe('legalActions and send agree (issue 10 point 7)', () => {
  it('every listed decision is accepted once its choices are filled, and every accepted decision was listed', () => {
    const DECISIONS = new Set(['PASS_PRIORITY', 'CAST_SPELL', 'ACTIVATE_ABILITY', 'PLAY_LAND', 'DECLARE_ATTACKERS', 'DECLARE_BLOCKERS', 'DISCARD', 'CHOOSE_DEFENDER', 'ORDER_BLOCKERS', 'ORDER_ATTACKERS', 'ORDER_TRIGGERS', 'CHOOSE_STARTING_PLAYER', 'MULLIGAN', 'KEEP', 'BOTTOM', 'OPENING_HAND_DONE', 'ROLL_PLANAR_DIE']);
    let checked = 0;
    let unlisted = 0;
    assertProperty(
      fc.property(setupArb, fc.integer({ min: 0, max: 200 }), (setup, length) => {
        const { game } = playRandom(setup, length);
        if (game.view().gameOver !== null) return;
        const r = seededRandom(setup.seed + 1);
        const saved = JSON.stringify(game.persist());
        const listed = game.legalActions();
        for (const action of listed) {
          const copy = restoreGame(JSON.parse(saved), { use: allModules });
          const event = fill(action, copy.view(), r, 9999, sharesTurns(setup));
          const result = copy.send(event);
          expect(result.ok ? 'accepted' : result.error.message, `${JSON.stringify(event)} was listed`).toBe('accepted');
          checked++;
        }
        // A decision that is not listed is refused: every kind of decision, from every player.
        const types = new Set(listed.map((a) => `${a.type}:${a.player}`));
        for (const player of game.view().players) {
          for (const event of everyDecision(game.view(), player)) {
            if (!DECISIONS.has(event.type) || types.has(`${event.type}:${player}`)) continue;
            const copy = restoreGame(JSON.parse(saved), { use: allModules });
            expect(copy.send(event).ok, `${JSON.stringify(event)} is not listed but was accepted`).toBe(false);
            unlisted++;
          }
        }
      }),
      { numRuns: 60 },
    );
    expect(checked).toBeGreaterThan(100);
    expect(unlisted).toBeGreaterThan(1000);
  });

  it('a game restored at a random point plays 1,000 random actions to its end or on, never stuck, exactly as the original does', () => {
    assertProperty(
      fc.property(setupArb, fc.integer({ min: 0, max: 150 }), (setup, length) => {
        const { game } = playRandom(setup, length);
        const saved = JSON.stringify(game.persist());
        const restored = restoreGame(JSON.parse(saved), { use: allModules });
        expect(restored.view()).toEqual(game.view());
        expect(JSON.stringify(restored.persist())).toBe(saved);
        // The restored game goes on under the same random mix, and the original with it: the same answers, views, actions and snapshots.
        const r = seededRandom(setup.seed + 3);
        for (let i = 0; i < 1000 && restored.view().gameOver === null; i++) {
          const view = restored.view();
          const actions = restored.legalActions().filter((a) => a.type !== 'CONCEDE');
          expect(actions.length, `stuck in turn ${view.turn}, ${view.phase}/${view.step}`).toBeGreaterThan(0);
          const pass = actions.find((a) => a.type === 'PASS_PRIORITY');
          const action = pass !== undefined && r() < 0.8 ? pass : actions[Math.floor(r() * actions.length)]!;
          const event = fill(action, view, r, 100_000 + i, sharesTurns(setup));
          const result = restored.send(event);
          expect(result.ok ? 'ok' : result.error.message).toBe('ok');
          expect(game.send(event)).toEqual(result);
          if (i % 10 === 0) {
            expect(restored.view()).toEqual(game.view());
            expect(restored.legalActions()).toEqual(game.legalActions());
            expect(JSON.stringify(restored.persist())).toBe(JSON.stringify(game.persist()));
          }
        }
        expect(restored.view()).toEqual(game.view());
        expect(JSON.stringify(restored.persist())).toBe(JSON.stringify(game.persist()));
      }),
      { numRuns: 10 },
    );
  });
});
