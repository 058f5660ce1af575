/**
 * Hosts v3 (issue 23; CONTRACT v3, "createGame": `hooks.settled`, "Every event exactly once",
 * REMOVE_EFFECT / REMOVE_FROM_STACK / REMOVE_FROM_COMBAT of what is gone): the README's host uses
 * instance ids, stages what it carries out and commits it in `settled`, carries out each event
 * once by `seq`, and removes without asking first; a host with two copies of every card and a
 * hook that fails at random plays 500 games with no wedged game and no effect carried out twice.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createGame, ErrorCode, type GameOptions, type TurnEvent } from '../../src/index.js';
import { flakyRun } from '../support/flaky-engine.js';
import { playFlaky, replay } from '../support/staged-play.js';
import { byCount } from '../support/scale.js';

const root = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'host-v3-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The README's host example: its ```ts block that creates a game with a checkpoint hook. */
function readmeHost(): string {
  const blocks = [...readFileSync(join(root, 'README.md'), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string);
  const host = blocks.find((b) => b.includes('createGame(') && b.includes('checkpoint'));
  if (host === undefined) throw new Error('the README has no host example');
  return host;
}

let runs = 0;
/** Runs a version of the README's host on the engine of test/support/flaky-engine.ts (a hook that fails at every call in turn). */
async function runOnFlakyEngine(code: string): Promise<void> {
  const engine = join(root, 'test/support/flaky-engine.js').replaceAll('\\', '/');
  const file = join(dir, `readme-host-${runs++}.mts`);
  const table = join(root, 'src/tableEntry.js').replaceAll('\\', '/');
  writeFileSync(file, `${code.replaceAll("from 'mtg-turn-engine'", `from '${engine}'`).replaceAll("from 'mtg-turn-engine/table'", `from '${table}'`)}\nexport {};\n`);
  Object.assign(flakyRun, { games: 0, injected: 0, settledGiven: false });
  await import(pathToFileURL(file).href);
}

describe("the README's host (issue 23, points 1-3)", () => {
  it('with a hook that fails at every checkpoint call of every send in turn, each send retried, its own checks hold: nothing is carried out twice', async () => {
    await runOnFlakyEngine(readmeHost());
    expect(flakyRun.games).toBe(1);
    expect(flakyRun.settledGiven).toBe(true);
    expect(flakyRun.injected).toBeGreaterThan(20);
  });

  it('the same host carrying out straight into its state (no staging) fails its own checks: the test has teeth', async () => {
    const code = readmeHost();
    const staging = 'staged ??= structuredClone(table)';
    expect(code).toContain(staging);
    // Its failed attempts count: a retry skips (by seq) what a failed attempt carried out, so the engine never hears of it.
    await expect(runOnFlakyEngine(code.replace(staging, 'staged ??= table'))).rejects.toThrow(/Explorations|Howling Mine/);
  });

  it('uses instance ids: two Explorations are two effects; with the card name as their effect id, the second locks the game (HOOK_FAILED at every pass)', () => {
    expect(readmeHost()).toMatch(/instance\('exploration'\)[\s\S]*instance\('exploration'\)/);
    for (const ids of [['exploration#1', 'exploration#2'], ['exploration', 'exploration']] as const) {
      // The hook resolves each Exploration: its effect takes the id the host gave it.
      const game = createGame({
        players: ['alice', 'bob'],
        hooks: {
          checkpoint: (_view, pending) => {
            const events = pending.flatMap((e): TurnEvent[] => (e.type === 'resolve' ? [{ type: 'ADD_EFFECT', id: e.object.id, effect: { kind: 'landPlays', change: 1 } }] : []));
            return events.length > 0 ? { events } : undefined;
          },
        },
      });
      game.send({ type: 'PASS_PRIORITY', player: 'alice' });
      game.send({ type: 'PASS_PRIORITY', player: 'bob' });
      const results: string[] = [];
      for (const id of ids) {
        game.send({ type: 'CAST_SPELL', player: 'alice', id, speed: 'sorcery' });
        game.send({ type: 'PASS_PRIORITY', player: 'alice' });
        const r = game.send({ type: 'PASS_PRIORITY', player: 'bob' });
        results.push(r.ok ? 'ok' : r.error.code);
      }
      if (ids[0] === ids[1]) {
        expect(results).toEqual(['ok', ErrorCode.HOOK_FAILED]);
        expect(game.send({ type: 'PASS_PRIORITY', player: 'bob' })).toMatchObject({ ok: false, error: { code: ErrorCode.HOOK_FAILED } });
      } else {
        expect(results).toEqual(['ok', 'ok']);
        expect(game.view()).toMatchObject({ effects: [{ id: ids[0] }, { id: ids[1] }], landPlaysAllowed: 3 });
      }
    }
  });
});

describe('a host removes what may already be gone (CONTRACT v3: accepted, changing nothing)', () => {
  it('a creature died in combat: the damage handler and the state-based check both remove it from combat and end its effect; once more after combat', () => {
    let died = false;
    const removals: TurnEvent[] = [
      { type: 'REMOVE_FROM_COMBAT', id: 'wall#2' },
      { type: 'REMOVE_EFFECT', id: 'wall#2' },
      { type: 'REMOVE_FROM_COMBAT', id: 'wall#2' },
      { type: 'REMOVE_EFFECT', id: 'wall#2' },
    ];
    const game = createGame({
      players: ['A', 'B'],
      hooks: {
        checkpoint: (_view, pending) => {
          if (died || !pending.some((e) => e.type === 'combatDamage')) return undefined;
          died = true;
          return { events: removals, stateBasedActions: true };
        },
      },
    });
    const send = (event: TurnEvent) => {
      const r = game.send(event);
      if (!r.ok) throw new Error(`${event.type}: ${r.error.code} ${r.error.message}`);
      return r;
    };
    for (let v = game.view(); v.awaiting !== null && v.step !== 'declareAttackers'; v = game.view()) send({ type: 'PASS_PRIORITY', player: v.awaiting.player });
    send({ type: 'DECLARE_ATTACKERS', player: 'A', attackers: [{ id: 'bear#1', defender: 'B' }] });
    for (let v = game.view(); v.awaiting?.kind === 'priority'; v = game.view()) send({ type: 'PASS_PRIORITY', player: v.awaiting.player });
    send({ type: 'DECLARE_BLOCKERS', player: 'B', blockers: [{ id: 'wall#2', attacker: 'bear#1' }] });
    for (let v = game.view(); !died && v.awaiting !== null; v = game.view()) send({ type: 'PASS_PRIORITY', player: v.awaiting.player });
    expect(died).toBe(true);
    // 509.1h: the attacker stays blocked.
    expect(game.view().combat?.attackers).toEqual([expect.objectContaining({ id: 'bear#1', blocked: true, blockedBy: [] })]);
    expect(game.view().combat?.blockers).toEqual([]);
    for (let v = game.view(); v.phase === 'combat' && v.awaiting !== null; v = game.view()) send({ type: 'PASS_PRIORITY', player: v.awaiting.player });
    const before = game.view();
    expect(send({ type: 'REMOVE_FROM_COMBAT', id: 'wall#2' }).events).toEqual([]);
    expect(game.view()).toEqual({ ...before, version: before.version + 1 });
  });
});

/** The games of the acceptance test: every 50 cover all of these. */
const SETUPS: Omit<GameOptions, 'seed'>[] = [
  { players: ['A', 'B'] },
  { players: ['A', 'B'], rules: 'm10', pregame: true },
  { players: ['A1', 'B1', 'A2', 'B2'], variant: 'twoHeadedGiant', maxHandSize: 4, teams: [{ id: 'a', players: ['A1', 'A2'] }, { id: 'b', players: ['B1', 'B2'] }] },
  { players: ['A', 'B', 'C'], rules: 'classic', orderTriggers: 'players', attack: 'chooseOne' },
  { players: ['A', 'B', 'C', 'D'], pregame: true },
];
const TURNS = 6;

describe(`acceptance: a host with two copies of every card and a hook that fails at random plays ${byCount(100, 500)} games (settled + seq)`, () => {
  // 100 games in `npm test`, the acceptance's 500 in `npm run test:long` (test/support/scale.ts).
  for (let chunk = 0; chunk < byCount(2, 10); chunk++) {
    it(`games ${chunk * 50 + 1}-${chunk * 50 + 50}: none wedged, every event carried out once, the host's state as without failures`, () => {
      const late = new Set<string>();
      let retries = 0;
      let noOps = 0;
      for (let i = 0; i < 50; i++) {
        const seed = chunk * 50 + i;
        const options = { ...SETUPS[seed % SETUPS.length], seed } as GameOptions;
        const played = playFlaky(options, seed, { turns: TURNS });
        const what = `game ${seed} (${JSON.stringify(options)})`;
        expect(played.wedged, what).toBeNull();
        const view = played.game.view();
        expect(view.gameOver !== null || view.turn > TURNS, what).toBe(true);
        // Every event exactly once: the host carried out every seq the engine emitted, each once.
        const table = played.host.table;
        expect([table.seq, table.carriedOut], what).toEqual([view.seq, view.seq]);
        if (view.gameOver === null) for (const p of view.players) expect(table.hand[p]?.length, `${what}: ${p}'s hand`).toBe(view.handSizes[p]);
        // No effect carried out twice: the same sends on a host whose hook never fails end the same.
        const again = replay(played, seed);
        expect(again.host.table, what).toEqual(table);
        expect(again.game.persist(), what).toEqual(played.game.persist());
        retries += played.retries;
        noOps += table.noOps;
        for (const type of Object.keys(table.late)) late.add(type);
      }
      expect(retries).toBeGreaterThan(50);
      expect(noOps).toBeGreaterThan(0);
      // Events no checkpoint followed were carried out from send's result.
      expect([...late].filter((t) => ['drawHand', 'mulligan', 'discard', 'playerLeft', 'gameOver'].includes(t)).sort()).toEqual(['discard', 'drawHand', 'gameOver', 'mulligan', 'playerLeft']);
    });
  }
});
