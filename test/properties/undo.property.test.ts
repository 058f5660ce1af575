/**
 * Undo and shortcuts over random games of every setup (CONTRACT v3, "Playing between people";
 * issue 24 points 3 and 5): in both undo modes, with random decisions, host events, undo requests,
 * votes and shortcut proposals,
 *
 * - legalActions lists UNDO, ACCEPT_UNDO, DECLINE_UNDO, ACCEPT_SHORTCUT and SHORTEN_SHORTCUT exactly
 *   when send accepts them (every version of every player, every answer of every player);
 * - every accepted undo restores the view the game had at that version, but for what goes on
 *   (version, seq, the requests counted) and the players' own settings (stops, yields: CONTRACT v4,
 *   issue 33), which stay as they were before the undo;
 * - `restoreGame(persist())` shows the same view and legal actions at any point, mid-vote too.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGame, restoreGame, type Game, type ShortcutPoint, type TurnEvent, type TurnView } from '../../src/index.js';
import { seededRandom } from '../../src/simulation.js';
import { fill, hostEvent, setupArb, sharesTurns } from './harness.js';
import { assertProperty } from './seeds.js';
import { allModules } from '../../src/allModules.js';

type Random = () => number;

const pick = <T,>(r: Random, list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;

const TABLE_ANSWERS = ['ACCEPT_UNDO', 'DECLINE_UNDO', 'ACCEPT_SHORTCUT'] as const;
const POINTS: ShortcutPoint[] = [{ step: 'main' }, { step: 'end' }, { step: 'upkeep' }, { step: 'beginningOfCombat' }, { step: 'draw' }];

/** The view less what an undo does not restore: version, seq, the requests counted (requestsLeft) and (CONTRACT v4) the players' own settings, which stand. */
function restored(view: TurnView): unknown {
  const undo = Object.fromEntries(Object.entries(view.undo ?? {}).map(([p, u]) => [p, { to: u.to }]));
  return { ...view, version: 0, seq: 0, undo, stops: null };
}

/**
 * nextStop while a vote is awaited (CONTRACT v3: what is awaited now is answered first, the
 * plainest way): a player asked about the shortcut after the one asked now is next asked for that
 * vote; everyone else where a fork of the game asks them once the vote is answered plainly (the
 * shortcut accepted by each player in turn, the undo declined), the decision then awaited included.
 */
function checkNextStopsInVote(game: Game, grandMelee: boolean): number {
  const view = game.view();
  const vote = view.awaiting;
  // Grand Melee's several turns await several decisions at once: its look ahead is test/rules/807's.
  if ((vote?.kind !== 'shortcut' && vote?.kind !== 'undoConsent') || grandMelee) return 0;
  const fork = game.fork();
  const laterVoters: string[] = [];
  for (let a = fork.view().awaiting; a?.kind === 'shortcut' || a?.kind === 'undoConsent'; a = fork.view().awaiting) {
    if (!fork.send({ type: a.kind === 'shortcut' ? 'ACCEPT_SHORTCUT' : 'DECLINE_UNDO', player: a.player }).ok) return 0;
    const next = fork.view().awaiting;
    if (next?.kind === 'shortcut') laterVoters.push(next.player);
  }
  const after = fork.view();
  let checked = 0;
  for (const p of view.players) {
    const stop = game.nextStop(p);
    if (laterVoters.includes(p)) expect(stop, `${p} votes later`).toMatchObject({ awaiting: { kind: 'shortcut', player: p } });
    else {
      const a = after.awaiting;
      // Who answers for a team (CR 805.5) is the team's: those games are compared where no team decides now.
      if (a !== null && after.teams !== null) continue;
      if (a !== null && (after.decidedBy[a.player] ?? a.player) === p) expect(stop, `${p} is asked once the vote is answered`).toEqual({ turn: after.turn, activePlayer: after.activePlayer, phase: after.phase, step: after.step, awaiting: a });
      else expect(stop, `${p} is asked later`).toEqual(fork.nextStop(p));
    }
    checked++;
  }
  return checked;
}

/** legalActions and send agree on the table's events, both ways. */
function checkTableActions(game: Game): number {
  const view = game.view();
  const listed = game.legalActions();
  let checked = 0;
  for (const p of view.players) {
    const undos = new Set(listed.filter((a) => a.type === 'UNDO' && a.player === p).map((a) => (a as { to: number }).to));
    // Every version a listed UNDO names, and the recent ones (the older are before every horizon).
    for (const to of new Set([...undos, ...Array.from({ length: Math.min(26, view.version + 1) }, (_, k) => view.version - k)])) {
      const ok = game.check({ type: 'UNDO', player: p, to }).ok;
      if (undos.has(to)) expect(ok, `UNDO ${p} to ${to}: listed`).toBe(true);
      else if (ok) {
        // Unlisted and accepted: a version a table-only send made (another player's setting, a vote), which names
        // the state of the listed version before it (CONTRACT: any to >= undo[player].to on the game's line).
        const named = Math.max(...[...undos].filter((v) => v < to));
        expect(Number.isFinite(named), `UNDO ${p} to ${to}: accepted, unlisted, with no listed version before it`).toBe(true);
        const [a, b] = [game.fork(), game.fork()];
        expect(a.send({ type: 'UNDO', player: p, to }).ok && b.send({ type: 'UNDO', player: p, to: named }).ok).toBe(true);
        const plain = (v: TurnView) => ({ ...v, version: 0, seq: 0, undo: null, awaiting: v.awaiting?.kind === 'undoConsent' ? null : v.awaiting });
        expect(plain(a.view()), `UNDO ${p} to ${to} returns to the state of ${named}`).toEqual(plain(b.view()));
      }
      checked++;
    }
    for (const type of TABLE_ANSWERS) {
      const isListed = listed.some((a) => a.type === type && a.player === p);
      expect(game.check({ type, player: p }).ok, `${type} ${p}: listed ${isListed}`).toBe(isListed);
      checked++;
    }
    const shorten = listed.find((a) => a.type === 'SHORTEN_SHORTCUT' && a.player === p);
    const awaiting = view.awaiting;
    if (awaiting?.kind === 'shortcut') expect(game.check({ type: 'SHORTEN_SHORTCUT', player: p, until: awaiting.until }).ok).toBe(shorten !== undefined);
  }
  return checked;
}

describe('undo and shortcuts over random games (CONTRACT v3, "Playing between people")', () => {
  it('legalActions and send agree on them, every undo restores the earlier view, and persist/restore keeps them all', () => {
    let checks = 0;
    let undone = 0;
    let votes = 0;
    let shortcuts = 0;
    let nextStopsInVotes = 0;
    assertProperty(
      fc.property(setupArb, fc.constantFrom('own', 'consent' as const), fc.integer({ min: 20, max: 120 }), (setup, mode, length) => {
        let game = createGame({ use: allModules, ...setup, undo: { mode, ...(setup.seed % 3 === 0 ? { maxPerTurn: 2 } : {}) } });
        const r = seededRandom(setup.seed + 77);
        const views = new Map<number, TurnView>([[0, game.view()]]);
        for (let i = 0; i < length && game.view().gameOver === null; i++) {
          const view = game.view();
          checks += checkTableActions(game);
          if (view.awaiting?.kind === 'undoConsent' || view.awaiting?.kind === 'shortcut') votes++;
          nextStopsInVotes += checkNextStopsInVote(game, setup.variant === 'grandMelee');
          const roll = r();
          let event: TurnEvent;
          const listed = game.legalActions().filter((a) => a.type !== 'CONCEDE');
          const undos = listed.filter((a) => a.type === 'UNDO');
          const voting = view.awaiting?.kind === 'undoConsent' || view.awaiting?.kind === 'shortcut';
          if (roll < 0.04) {
            const copy = restoreGame(JSON.parse(JSON.stringify(game.persist())), { use: allModules });
            expect(copy.view()).toEqual(view);
            expect(copy.legalActions()).toEqual(game.legalActions());
            game = copy;
            continue;
          }
          if (undos.length > 0 && roll < 0.2) event = fill(pick(r, undos), view, r, i);
          else if (!voting && roll < 0.3 && view.awaiting?.kind === 'priority' && view.stack.length === 0) {
            event = { type: 'PROPOSE_SHORTCUT', player: view.awaiting.player, until: pick(r, POINTS) };
            if (!game.check(event).ok) event = fill(listed[0]!, view, r, i, sharesTurns(setup));
          } else if (!voting && roll < 0.4) event = hostEvent(view, r, i);
          else if (roll < 0.42 && !voting) event = { type: 'MARK_IRREVERSIBLE' };
          else {
            const pass = listed.find((a) => a.type === 'PASS_PRIORITY');
            event = fill(pass !== undefined && r() < 0.6 ? pass : pick(r, listed), view, r, i, sharesTurns(setup));
          }
          const result = game.send(event);
          if (!result.ok) {
            // Random host events and proposals may be refused; listed decisions never are.
            expect(['PROPOSE_SHORTCUT', 'MARK_IRREVERSIBLE'].includes(event.type) || !listed.some((a) => a.type === event.type), `${JSON.stringify(event)}: ${result.error.message}`).toBe(true);
            continue;
          }
          if (result.events.some((e) => e.type === 'autoPass' && e.reason === 'shortcut')) shortcuts++;
          const back = result.events.find((e) => e.type === 'undone');
          if (back?.type === 'undone') {
            undone++;
            const was = views.get(back.toVersion) as TurnView;
            expect(restored(game.view()), `undone to ${back.toVersion}`).toEqual(restored(was));
            expect(game.view().stops, 'no undo takes back a player\'s own settings').toEqual(view.stops);
            expect(back.toSeq).toBe(was.seq);
          }
          views.set(game.view().version, game.view());
        }
      }),
      { numRuns: 40 },
    );
    expect(checks).toBeGreaterThan(10_000);
    expect(undone).toBeGreaterThan(20);
    expect(votes).toBeGreaterThan(20);
    expect(shortcuts).toBeGreaterThan(5);
    expect(nextStopsInVotes).toBeGreaterThan(20);
  });
});
