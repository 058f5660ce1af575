/**
 * Issue 32, acceptance in-process: the example card game (examples/cards/definition.ts) played to
 * the end by random legal actions (data included) with no refusal; persist/restore at random
 * versions continues identically; a card game's replay equals the game at every version.
 *
 * Sized by count: `CARDS_GAMES` games (8 in `npm test`; `npm run test:long` plays 500: test/support/scale.ts).
 */
import { describe, expect, it } from 'vitest';
import { allModules } from '../../src/allModules.js';
import { replayGame, restoreGame } from '../../src/cards/index.js';
import type { CardRecording } from '../../src/cards/index.js';
import { exampleCards } from '../../examples/cards/definition.js';
import { createCardGame } from '../../src/cards/index.js';
import { chooser, nextDecision, playGame } from './play.js';
import { byCount } from '../support/scale.js';

const GAMES = Number(process.env.CARDS_GAMES ?? byCount(8, 500));

describe('the example card game played by random legal actions (issue 32)', () => {
  it(`plays ${GAMES} seeded games to the end with 0 refused decisions`, () => {
    let failures = 0;
    let casts = 0;
    let actions = 0;
    const endings = new Set<string>();
    for (let seed = 1; seed <= GAMES; seed++) {
      const { game, failures: failed } = playGame(seed, { record: true });
      failures += failed.length;
      if (failed.length > 0) console.error(`seed ${seed}:`, JSON.stringify(failed.slice(0, 3)));
      const over = game.view().gameOver;
      expect(over, `seed ${seed} ends`).not.toBeNull();
      for (const reason of Object.values(over?.reasons ?? {})) endings.add(reason);
      const events = (game.recording() as unknown as CardRecording).inputs.map((i) => i.event);
      casts += events.filter((e) => e?.type === 'CAST_SPELL').length;
      actions += events.filter((e) => e?.type === ('CARD_ACTION' as string)).length;
    }
    expect(failures).toBe(0);
    // The games use the cards: spells cast with data, lands tapped with CARD_ACTION, both endings.
    expect(casts).toBeGreaterThan(GAMES);
    expect(actions).toBeGreaterThan(GAMES);
    if (GAMES >= 8) expect([...endings].sort()).toEqual(['empty library', 'life']);
  });

  it('a game persisted and restored at random versions goes on identically', () => {
    for (let seed = 1; seed <= Math.min(GAMES, 4); seed++) {
      const { game } = playGame(seed, { record: true });
      const recording = game.recording() as unknown as CardRecording;
      const sent: unknown[] = recording.inputs.slice(1).map((i) => i.event);
      const pick = chooser(seed * 7);
      for (let k = 0; k < 3; k++) {
        const at = pick.int(sent.length);
        // The same game to version `at`, saved as JSON, restored, then sent the rest.
        const before = replayGame(recording, { cards: exampleCards, until: at });
        expect(before.view().version).toBe(at);
        const restored = restoreGame(JSON.parse(JSON.stringify(before.persist())), { cards: exampleCards });
        for (const event of sent.slice(at)) expect(restored.send(event).ok).toBe(true);
        expect(restored.persist()).toEqual(game.persist());
        expect(restored.cards()).toEqual(game.cards());
      }
    }
  });

  it('a replay equals the game at every version (views, cards, persisted games)', () => {
    for (let seed = 1; seed <= Math.min(GAMES, 2); seed++) {
      const persisted: string[] = [];
      const { game } = playGame(seed, { record: true, onSend: (g) => void persisted.push(JSON.stringify(g.persist())) });
      const recording = game.recording() as unknown as CardRecording;
      // The replay steps through the recorded sends (replayGame re-sends them): equal at each version.
      const replay = replayGame(recording, { cards: exampleCards, until: 0 });
      expect(replay.replay.drift).toBeNull();
      const sent: unknown[] = recording.inputs.slice(1).map((i) => i.event);
      sent.forEach((event, i) => {
        expect(replay.send(event).ok).toBe(true);
        expect(JSON.stringify(replay.persist())).toBe(persisted[i]);
      });
      const whole = replayGame(recording, { cards: exampleCards });
      expect(whole.view()).toEqual(game.view());
      expect(whole.cards()).toEqual(game.cards());
      expect(whole.cards({ seat: 'alice' })).toEqual(game.cards({ seat: 'alice' }));
      const middle = Math.floor(sent.length / 2);
      expect(JSON.stringify(replayGame(recording, { cards: exampleCards, until: middle + 1 }).persist())).toBe(persisted[middle]);
    }
  });

  it('plays to the end with clocks, undo and `at` on every event (the table around the turn in each step)', () => {
    const game = createCardGame(exampleCards, { players: ['alice', 'bob'], seed: 4, clock: { initialMs: 600_000, onTimeout: 'lose' }, undo: { mode: 'own' }, use: allModules });
    const random = chooser(4);
    let at = 1000;
    for (let n = 0; game.view().gameOver === null && n < 5000; n++) {
      const event: unknown = { ...(nextDecision(game, random) as object), at: (at += 50) };
      expect(game.send(event).ok, JSON.stringify(event)).toBe(true);
    }
    expect(game.view().gameOver).not.toBeNull();
    expect(game.view().clocks?.alice?.msLeft).toBeLessThan(600_000);
    const restored = restoreGame(JSON.parse(JSON.stringify(game.persist())), { cards: exampleCards, use: allModules });
    expect(restored.persist()).toEqual(game.persist());
  });
});

