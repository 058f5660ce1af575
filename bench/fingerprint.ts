/**
 * A behaviour fingerprint of the engine, to prove that a performance change changes
 * nothing a host can observe. It plays many seeded random games (2 to 5 players, both rules
 * profiles, checkpoint hooks that report triggers, state-based actions, bad results or
 * throw, concessions, malformed and illegal events) and hashes everything observable:
 * every send result, every view, legalActions, every emitted event, and persist() with a
 * JSON round trip through restoreGame at random points.
 *
 *   node --import tsx bench/fingerprint.ts [games]     # prints one sha256
 *
 * Run it before and after an optimisation: the hashes must be equal.
 */
import { createHash } from 'node:crypto';
import { createGame, restoreGame, type CheckpointResult, type Game, type TurnView } from '../src/index.js';
import { concreteEvent, seededRandom } from '../src/simulation.js';

const games = Number(process.argv[2] ?? 300);
const hash = createHash('sha256');
const put = (label: string, value: unknown) => hash.update(`${label}:${JSON.stringify(value) ?? 'undefined'}\n`);

function junk(random: () => number, players: string[], serial: number): unknown {
  const p = players[Math.floor(random() * players.length)] as string;
  const options: unknown[] = [
    null,
    42,
    { type: 'NOPE' },
    { type: 'PASS_PRIORITY' },
    { type: 'PASS_PRIORITY', player: 'nobody' },
    { type: 'PASS_PRIORITY', player: p, extra: 1 },
    { type: 'CAST_SPELL', player: p, id: `junk-${serial}`, speed: 'sorcery' },
    { type: 'CAST_SPELL', player: p, id: '', speed: 'instant' },
    { type: 'PLAY_LAND', player: p },
    { type: 'DISCARD', player: p, count: 1 },
    { type: 'DECLARE_ATTACKERS', player: p, attackers: [{ id: 'x', defender: p }] },
    { type: 'DECLARE_BLOCKERS', player: p, blockers: [{ id: 'y', attacker: 'nope' }] },
    { type: 'SPEND_MANA', player: p, amount: 5 },
    { type: 'TRIGGER', triggers: [] },
    { type: 'TRIGGER', triggers: [{ id: `t-${serial}`, controller: p }, { id: `u-${serial}`, controller: players[0] }] },
    { type: 'ADD_EXTRA_TURN', player: p },
    { type: 'ADD_EXTRA_COMBAT', followedByMain: random() < 0.5 },
    { type: 'SKIP_NEXT', player: p, what: ['draw', 'combat', 'turn', 'upkeep', 'main', 'cleanup'][Math.floor(random() * 6)] },
    { type: 'HAND_SIZE', player: p, size: Math.floor(random() * 12) },
    { type: 'ADD_MANA', player: p, amount: 2 },
    { type: 'CONCEDE', player: p },
    { type: 'toString', player: p },
    { type: 'PASS_PRIORITY', player: '__proto__' },
  ];
  return options[Math.floor(random() * options.length)];
}

function hookFor(random: () => number, players: string[], mode: number) {
  let serial = 0;
  return (view: TurnView): CheckpointResult | undefined => {
    put('checkpoint', view);
    const r = random();
    if (mode === 1 && r < 0.01) throw new Error('host failure');
    if (mode === 1 && r < 0.02) return { triggers: [{ id: 'bad', controller: 'nobody' }] };
    // A host that never stops reporting: LOOP_LIMIT (checkpoint rounds, or cleanup steps).
    if (mode === 1 && view.turn === 3 && view.step === 'end') return { stateBasedActions: true };
    if (mode === 0 && view.turn === 2 && view.step === 'cleanup') return { stateBasedActions: true };
    if (mode === 1 && r < 0.03) return 'not a result' as unknown as CheckpointResult;
    if (r < 0.05) return { triggers: [{ id: `h-${serial++}`, controller: players[Math.floor(random() * players.length)] as string }] };
    if (r < 0.07 && view.step === 'cleanup') return { stateBasedActions: true };
    return undefined;
  };
}

const counts: Record<string, number> = {};
for (let g = 0; g < games; g++) {
  const random = seededRandom(1000 + g);
  const count = 2 + (g % 4);
  const players = Array.from({ length: count }, (_, i) => String.fromCharCode(65 + i));
  const rules = g % 3 === 0 ? 'classic' : 'current';
  const mode = g % 5;
  const hooks = mode < 2 ? { checkpoint: hookFor(random, players, mode) } : undefined;
  let game: Game;
  try {
    game = createGame({ players, rules, ...(hooks ? { hooks } : {}), handSize: g % 7 === 0 ? 9 : 7, seed: 1000 + g });
  } catch (err) {
    // A hook that fails in turn 1 makes createGame throw (HOOK_FAILED): that is observable too.
    put('createGame threw', err instanceof Error ? [err.name, err.message, (err as { code?: unknown }).code] : String(err));
    continue;
  }
  const listen = (x: Game) => x.on('*', (e) => put('emit', e));
  listen(game);
  put('start', game.view());
  let overs = 0;
  for (let serial = 0; serial < 400; serial++) {
    const view = game.view();
    if (view.gameOver !== null && overs++ > 2) break;
    if (view.turn > 6) break;
    const roll = view.gameOver !== null ? 0 : random();
    let event: unknown;
    if (roll < 0.12) event = junk(random, players, serial);
    else {
      const legal = game.legalActions().filter((a) => a.type !== 'CONCEDE' || random() < 0.02);
      put('legal', legal);
      const awaited = legal.filter((a) => a.player === view.awaiting?.player);
      const pool = awaited.length > 0 ? awaited : legal;
      if (pool.length === 0) break;
      const pass = pool.find((a) => a.type === 'PASS_PRIORITY');
      const choice = pass !== undefined && random() < 0.75 ? pass : pool[Math.floor(random() * pool.length)];
      event = concreteEvent(choice as NonNullable<typeof choice>, view, random, serial);
    }
    const result = game.send(event);
    put('send', [event, result]);
    const code = result.ok ? 'ok' : result.error.code;
    counts[code] = (counts[code] ?? 0) + 1;
    put('view', game.view());
    if (random() < 0.05) {
      const persisted = game.persist();
      put('persist', persisted);
      game = restoreGame(JSON.parse(JSON.stringify(persisted)), hooks ? { hooks } : {});
      listen(game);
      put('restored', game.view());
    }
  }
}
console.log(hash.digest('hex'));
console.error(JSON.stringify(counts));
