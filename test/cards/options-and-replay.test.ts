/**
 * CONTRACT v4, "Card games" and "Simulation", as an outside review of the package found them
 * missed: a card game's options are createGame's (a bad `seed` is refused, not replaced); its
 * `fork({ seed })` gives the fork a new random stream, the engine's as well as the cards'; and
 * `replayGame(recording, { cards, use })` takes the modules as restoreGame does, the recording
 * naming the modules its game had; `playout` plays a card game with its definition's `bot`; and
 * a CARD_ACTION's `at` is time as any event's (v3, "Events": read by the clocks, never going back);
 * a player's CARD_ACTION is theirs to undo, and no other player's ("Undo in a card game"); and a
 * `decided` event reaches the checkpoint's `pending` once, in order, even from a send that reached
 * no checkpoint (v3: `pending` holds every event emitted since the previous call).
 */
import { describe, expect, it } from 'vitest';
import { createCardGame, defineCards, replayGame, restoreGame as restoreCardGame } from '../../src/cards/index.js';
import { ErrorCode, TurnEngineError, type Game } from '../../src/index.js';
import { playout } from '../../src/sim/index.js';
import { table } from '../../src/tableEntry.js';
import { rolls } from '../support/planarDie.js';

const counter = defineCards({
  name: 'counter@1',
  setup: () => ({ n: 0, drawn: [] as number[] }),
  actions: {
    inc: (ctx) => {
      ctx.state.n++;
    },
    draw: (ctx) => {
      ctx.state.drawn.push(ctx.random.int(1000));
    },
  },
});

/** The error `fn` throws (it must throw a TurnEngineError). */
function thrown(fn: () => unknown): TurnEngineError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(TurnEngineError);
    return err as TurnEngineError;
  }
  throw new Error('expected a throw');
}

describe('card games: options as createGame checks them', () => {
  it('refuses a seed that is not a finite number as createGame does (INVALID_OPTIONS naming options.seed)', () => {
    for (const seed of ['x', Number.NaN, Number.POSITIVE_INFINITY, '5']) {
      const err = thrown(() => createCardGame(counter, { players: ['A', 'B'], seed } as never));
      expect(err.code).toBe(ErrorCode.INVALID_OPTIONS);
      expect(err.message).toMatch(/^options\.seed: /);
    }
    // A seed given is the game's: two games of one seed are the same game.
    const a = createCardGame(counter, { players: ['A', 'B'], seed: 12 });
    const b = createCardGame(counter, { players: ['A', 'B'], seed: 12 });
    expect(a.persist()).toEqual(b.persist());
  });
});

describe('card games: fork({ seed }) (CONTRACT v4, "Simulation")', () => {
  it("gives the fork a new random stream for the engine (the planar die, CR 901.9) and for the cards", () => {
    const game = createCardGame(counter, { players: ['A', 'B'], variant: 'planechase', seed: 4 });
    expect(playout(game as unknown as Game, { until: { step: 'main' }, explore: 0 }).stopped).toBe('until');
    // CR 901.9: mana for twelve rolls (0 + 1 + ... + 11), then the rolls.
    const engineRolls = (g: Game) => {
      expect(g.send({ type: 'ADD_MANA', player: 'A', amount: 100 }).ok).toBe(true);
      return rolls(g, 12).join(',');
    };
    const cardDraws = (g: Game) => {
      for (let i = 0; i < 4; i++) expect(g.send({ type: 'CARD_ACTION', player: 'A', action: 'draw' } as never).ok).toBe(true);
      return JSON.stringify((g as unknown as { cards(): { drawn: number[] } }).cards().drawn);
    };
    const same = game.fork() as unknown as Game;
    const one = game.fork({ seed: 111 }) as unknown as Game;
    const other = game.fork({ seed: 222 }) as unknown as Game;
    const again = game.fork({ seed: 111 }) as unknown as Game;
    const oneCards = game.fork({ seed: 111 }) as unknown as Game;
    const original = engineRolls(game as unknown as Game);
    expect(engineRolls(same)).toBe(original);
    const rolledOne = engineRolls(one);
    expect(rolledOne).not.toBe(original);
    expect(engineRolls(other)).not.toBe(rolledOne);
    expect(engineRolls(again)).toBe(rolledOne);
    expect(cardDraws(oneCards)).not.toBe(cardDraws(game as unknown as Game));
  });

  it('refuses a seed that is not a finite number, as the main entry\'s fork does', () => {
    const game = createCardGame(counter, { players: ['A', 'B'], seed: 4 });
    for (const seed of ['x', Number.NaN, Number.POSITIVE_INFINITY]) {
      const err = thrown(() => game.fork({ seed } as never));
      expect(err.code).toBe(ErrorCode.INVALID_OPTIONS);
      expect(err.message).toMatch(/^options\.seed: /);
    }
  });

  it("names a key of no option of the card game's fork or restoreGame, as createGame does (a card game's hooks are its definition's)", () => {
    const game = createCardGame(counter, { players: ['A', 'B'], seed: 4 });
    for (const [options, message] of [
      [{ hooks: { checkpoint: () => undefined } }, 'options.hooks: is not an option of fork'],
      [{ sed: 5 }, 'options.sed: is not an option of fork'],
    ] as const) {
      const err = thrown(() => game.fork(options as never));
      expect(err.code).toBe(ErrorCode.INVALID_OPTIONS);
      expect(err.message).toBe(message);
    }
    const saved = game.persist();
    const err = thrown(() => restoreCardGame(saved, { cards: counter, listener: {} } as never));
    expect(err.code).toBe(ErrorCode.INVALID_OPTIONS);
    expect(err.message).toBe('options.listener: is not an option of restoreGame');
    expect(restoreCardGame(saved, { cards: counter, listeners: {} }).getSnapshot().version).toBe(game.getSnapshot().version);
  });
});

describe("card games: decide and actions return host events only (CONTRACT v4, \"Card games\")", () => {
  it.each([
    [{ type: 'CONCEDE', player: 'B' }],
    [{ type: 'PASS_PRIORITY', player: 'B' }],
  ])("an action returning %j, a player's own event, is refused HOOK_FAILED naming it, and nothing changes", (event) => {
    const cards = defineCards({ name: 'returns@1', setup: () => ({ n: 0 }), actions: { go: (ctx) => { ctx.state.n++; return [event as never]; } } });
    const game = createCardGame(cards, { players: ['A', 'B'], seed: 1 });
    const before = game.persist();
    const r = game.send({ type: 'CARD_ACTION', player: 'A', action: 'go' } as never);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe(ErrorCode.HOOK_FAILED);
    expect(r.error.message).toContain(`returned [0] ${event.type}: only host events may be returned`);
    expect(game.persist()).toEqual(before);
  });
});

describe('card games: fork({ record: true }) records the fork from its start, as the main entry\'s fork does', () => {
  it("keeps a 'persisted' recording that replays to the fork's cards, its modules named; without record the fork keeps none", () => {
    const game = createCardGame(counter, { players: ['A', 'B'], seed: 4, use: [table] });
    game.send({ type: 'CARD_ACTION', player: 'A', action: 'draw' });
    const fork = game.fork({ record: true, seed: 11 });
    for (const action of ['inc', 'draw']) expect(fork.send({ type: 'CARD_ACTION', player: 'B', action }).ok).toBe(true);
    const recording = JSON.parse(JSON.stringify(fork.recording())) as { from: string; use?: string[] };
    expect(recording).toMatchObject({ from: 'persisted', use: ['table'] });
    const replayed = replayGame(recording, { cards: counter, use: [table] });
    expect(replayed.replay.drift).toBeNull();
    expect(replayed.cards()).toEqual(fork.cards());
    expect(replayed.view().version).toBe(fork.view().version);
    expect(thrown(() => game.fork().recording()).code).toBe('INVALID_OPTIONS');
  });
});

describe('card games: replayGame with the modules the recording names (CONTRACT v4, "Package")', () => {
  it('replays a card game made with use: [table], and refuses the replay without the module, naming its import', () => {
    const game = createCardGame(counter, { players: ['A', 'B'], seed: 9, record: true, undo: { mode: 'own' }, use: [table] });
    expect(game.send({ type: 'CARD_ACTION', player: 'A', action: 'inc' }).ok).toBe(true);
    expect(game.send({ type: 'PASS_PRIORITY', player: 'A' }).ok).toBe(true);
    const recording = JSON.parse(JSON.stringify(game.recording())) as { use?: string[]; options: Record<string, unknown> };
    expect(recording.use).toEqual(['table']);
    expect(recording.options.use).toBeUndefined();
    const replayed = replayGame(recording, { cards: counter, use: [table] });
    expect(replayed.replay.drift).toBeNull();
    expect(replayed.persist()).toEqual(game.persist());
    const err = thrown(() => replayGame(recording, { cards: counter }));
    expect(err.code).toBe(ErrorCode.INVALID_OPTIONS);
    expect(err.message).toContain("'mtg-turn-engine/table'");
  });

  it('replays a recording written before recordings named their modules (the modules in its options, as JSON)', () => {
    const game = createCardGame(counter, { players: ['A', 'B'], seed: 9, record: true, undo: { mode: 'own' }, use: [table] });
    expect(game.send({ type: 'CARD_ACTION', player: 'A', action: 'inc' }).ok).toBe(true);
    const { use: _names, ...older } = JSON.parse(JSON.stringify(game.recording())) as Record<string, unknown>;
    const options = { ...(older.options as Record<string, unknown>), use: [{ module: 'table' }] };
    const replayed = replayGame({ ...older, options }, { cards: counter, use: [table] });
    expect(replayed.persist()).toEqual(game.persist());
    expect(() => replayGame({ ...older, options }, { cards: counter })).toThrow(/options\.use: .*'mtg-turn-engine\/table'/);
  });
});

describe('card games: a replay with a changed definition reports drift (CONTRACT v4: "reporting drift as for hooks")', () => {
  const recorded = () => {
    const game = createCardGame(counter, { players: ['A', 'B'], seed: 9, record: true });
    for (const action of ['inc', 'draw', 'inc']) expect(game.send({ type: 'CARD_ACTION', player: 'A', action }).ok).toBe(true);
    return { game, recording: JSON.parse(JSON.stringify(game.recording())) as { inputs: { cards?: string }[] } };
  };

  it('the same definition: no drift; each input keeps the check of the cards after it', () => {
    const { game, recording } = recorded();
    expect(recording.inputs.slice(1).every((i) => typeof i.cards === 'string' && /^[0-9a-f]{24}$/.test(i.cards))).toBe(true);
    const replayed = replayGame(recording, { cards: counter });
    expect(replayed.replay.drift).toBeNull();
    expect(replayed.cards()).toEqual(game.cards());
  });

  it("an action that now changes S otherwise, or draws otherwise: the first send after which the cards differ, and the replay plays on", () => {
    const { recording } = recorded();
    const doubled = defineCards({ ...counter, actions: { ...counter.actions, inc: (ctx) => void (ctx.state.n += 2) } });
    const replayed = replayGame(recording, { cards: doubled });
    expect(replayed.replay.drift).toMatchObject({ version: 0, hook: 'cards', recorded: { cards: recording.inputs[1]?.cards }, got: { cards: expect.stringMatching(/^[0-9a-f]{24}$/) } });
    expect(replayed.cards().n).toBe(4);
    // The draw is the second send (version 1): a definition that draws twice drifts there, in the random position.
    const greedy = defineCards({ ...counter, actions: { ...counter.actions, draw: (ctx) => void ctx.state.drawn.push(ctx.random.int(1000) + 0 * ctx.random.int(2)) } });
    expect(replayGame(recording, { cards: greedy }).replay.drift).toMatchObject({ version: 1, hook: 'cards' });
  });

  it("a definition whose setup changed drifts before any send (the first input keeps the cards as the game began)", () => {
    const { recording } = recorded();
    const other = defineCards({ ...counter, setup: () => ({ n: 5, drawn: [] as number[] }) });
    const empty = { ...recording, inputs: recording.inputs.slice(0, 1) };
    expect(replayGame(empty, { cards: counter }).replay.drift).toBeNull();
    expect(replayGame(empty, { cards: other }).replay.drift).toMatchObject({ version: 0, hook: 'cards' });
  });

  it("a send the definition now refuses is drift labelled 'cards' with the error, and the replay stops there", () => {
    const { recording } = recorded();
    const refusing = defineCards({ ...counter, actions: { ...counter.actions, draw: () => ({ refuse: 'no draws today', rule: '121.1' }) } });
    const replayed = replayGame(recording, { cards: refusing });
    expect(replayed.replay.drift).toEqual({ version: 1, hook: 'cards', recorded: { cards: recording.inputs[2]?.cards }, got: { error: 'ILLEGAL_ACTION: no draws today' } });
    expect(replayed.view().version).toBe(1);
    // An action the definition no longer has is its change too.
    const { draw: _draw, ...without } = counter.actions as NonNullable<typeof counter.actions>;
    expect(replayGame(recording, { cards: defineCards({ ...counter, actions: without }) }).replay.drift).toMatchObject({ version: 1, hook: 'cards', got: { error: expect.stringContaining("no action 'draw'") } });
  });

  it('a recorded send the engine refuses by itself is a recording that does not replay (INVALID_RECORDING naming the input), as in the main entry', () => {
    const { recording } = recorded();
    const altered = JSON.parse(JSON.stringify(recording)) as { inputs: { event?: unknown }[] };
    // A holds priority: B's pass is the engine's refusal (CR 117.3a), asked of no card function.
    (altered.inputs[2] as { event: unknown }).event = { type: 'PASS_PRIORITY', player: 'B' };
    expect(thrown(() => replayGame(altered, { cards: counter }))).toMatchObject({ code: 'INVALID_RECORDING', message: expect.stringMatching(/^recording\.inputs\[2\]\.event: the recorded send was refused: ILLEGAL_ACTION: /) });
  });

  it('`until` must be a version the recording holds (INVALID_OPTIONS), as in the main entry', () => {
    const { recording } = recorded();
    expect(replayGame(recording, { cards: counter, until: 3 }).view().version).toBe(3);
    expect(replayGame(recording, { cards: counter, until: 0 }).cards().n).toBe(0);
    for (const until of [4, 1000, -1, 1.5]) {
      expect(thrown(() => replayGame(recording, { cards: counter, until }))).toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining('options.until: must be a version the recording holds, a whole number from 0 to ') });
    }
    // A restored game's recording holds the versions from its snapshot's on.
    const game = createCardGame(counter, { players: ['A', 'B'], seed: 9 });
    for (let i = 0; i < 20; i++) game.send({ type: 'CARD_ACTION', player: 'A', action: 'inc' });
    const restored = restoreCardGame(JSON.parse(JSON.stringify(game.persist())), { cards: counter, record: true });
    for (let i = 0; i < 5; i++) restored.send({ type: 'CARD_ACTION', player: 'A', action: 'inc' });
    const later = JSON.parse(JSON.stringify(restored.recording())) as unknown;
    expect(replayGame(later, { cards: counter, until: 22 }).cards().n).toBe(22);
    expect(thrown(() => replayGame(later, { cards: counter, until: 5 })).message).toContain('from 20 to');
    expect(thrown(() => replayGame(later, { cards: counter, until: 26 })).message).toBe('options.until: must be a version the recording holds, a whole number from 20 to 25; got 26');
  });

  it('a recording made before the check was kept replays without one (no drift can be seen in S)', () => {
    const { recording } = recorded();
    const older = { ...recording, inputs: recording.inputs.map(({ cards: _cards, ...input }) => input) };
    const doubled = defineCards({ ...counter, actions: { ...counter.actions, inc: (ctx) => void (ctx.state.n += 2) } });
    expect(replayGame(older, { cards: doubled }).replay.drift).toBeNull();
  });
});

it('restoreGame refuses a card history that would break undo or a later persist() (each entry checked; every version undo may return to kept)', () => {
  const game = createCardGame(counter, { players: ['A', 'B'], seed: 1, undo: { mode: 'own' }, use: [table] });
  expect(game.send({ type: 'CARD_ACTION', player: 'A', action: 'inc' }).ok).toBe(true);
  expect(game.send({ type: 'CARD_ACTION', player: 'A', action: 'inc' }).ok).toBe(true);
  const saved = JSON.parse(JSON.stringify(game.persist())) as { cards: { history: [number, number, unknown][] } } & Record<string, unknown>;
  const history = saved.cards.history;
  const restore = (h: unknown) => () => restoreCardGame({ ...saved, cards: { ...saved.cards, history: h } }, { cards: counter, use: [table] });
  expect(restore(history)().cards()).toEqual(game.cards());
  const [first] = history as [[number, number, unknown]];
  for (const [bad, field] of [
    [[[first[0], -5, first[2]], ...history.slice(1)], 'history[0][1]'],
    [[[first[0], 2 ** 40, first[2]], ...history.slice(1)], 'history[0][1]'],
    [[[first[0], first[1], { big: 'x'.repeat(2 ** 20) }], ...history.slice(1)], 'history[0][2]'],
    [history.map(([v, r, st]) => [v + 10, r, st]), 'history[0][0]'],
    [[], 'history: no entry for version 0'],
    [undefined, 'history: the game has undo'],
  ] as const) {
    expect(restore(bad), field).toThrow(expect.objectContaining({ code: 'INVALID_SNAPSHOT', message: expect.stringContaining(`persisted.cards.${field}`) }));
  }
});

describe("card games: playout plays the definition's bot (CONTRACT v4, \"Simulation\")", () => {
  it('calls the bot for the decisions, its data reaching decide, with no option naming the cards', () => {
    let calls = 0;
    const lands = defineCards({
      name: 'lands@1',
      setup: () => ({ played: [] as unknown[] }),
      decide: (event, ctx) => {
        if (event.type === 'PLAY_LAND') ctx.state.played.push(ctx.data);
      },
      bot: (view, _seen, player) => {
        calls++;
        if (view.priority !== player) return undefined;
        if (view.step === 'main' && view.activePlayer === player && view.landsPlayed < 1 && view.stack.length === 0) return { type: 'PLAY_LAND', player, data: 'Forest' };
        return { type: 'PASS_PRIORITY', player };
      },
    });
    const game = createCardGame(lands, { players: ['A', 'B'], seed: 2 });
    expect(game.definition).toBe(lands);
    const result = playout(game as unknown as Game, { until: { turn: 4 }, seed: 3 });
    expect(result.stopped).toBe('until');
    expect(calls).toBeGreaterThan(0);
    expect(game.cards().played).toEqual(['Forest', 'Forest', 'Forest']);
  });
});

describe("card games: a CARD_ACTION's `at` (CONTRACT v3, \"Events\")", () => {
  const mana = defineCards({
    name: 'mana@1',
    setup: () => ({ taps: 0 }),
    actions: {
      nothing: () => undefined,
      tap: (ctx) => {
        ctx.state.taps++;
        return [{ type: 'ADD_MANA', player: ctx.player as string, amount: 1 }];
      },
    },
  });
  for (const action of ['nothing', 'tap']) {
    it(`charges the clock that runs and refuses time going back, changing nothing (an action returning ${action === 'tap' ? 'host events' : 'nothing'})`, () => {
      const game = createCardGame(mana, { players: ['A', 'B'], seed: 1, clock: { initialMs: 60_000, onTimeout: 'lose' }, use: [table] });
      expect(game.send({ type: 'PASS_PRIORITY', player: 'A', at: 1_000 }).ok).toBe(true);
      expect(game.send({ type: 'CARD_ACTION', player: 'A', action, at: 11_000 } as never).ok).toBe(true);
      // B holds priority: B's clock ran the 10 s.
      expect(game.view().clocks?.B?.msLeft).toBe(50_000);
      const before = JSON.stringify(game.persist());
      const back = game.send({ type: 'CARD_ACTION', player: 'A', action, at: 500 } as never);
      expect(back.ok ? null : back.error.code).toBe(ErrorCode.ILLEGAL_ACTION);
      expect(JSON.stringify(game.persist())).toBe(before);
    });
  }

  it('refuses time going back without the table too, as for any event', () => {
    const game = createCardGame(mana, { players: ['A', 'B'], seed: 1 });
    expect(game.send({ type: 'PASS_PRIORITY', player: 'A', at: 1_000 }).ok).toBe(true);
    const back = game.send({ type: 'CARD_ACTION', player: 'A', action: 'nothing', at: 500 } as never);
    expect(back.ok ? null : back.error.code).toBe(ErrorCode.ILLEGAL_ACTION);
    expect(game.send({ type: 'CARD_ACTION', player: 'A', action: 'tap', at: 2_000 } as never).ok).toBe(true);
    expect(game.cards().taps).toBe(1);
  });
});

describe('card games: a CARD_ACTION is its player\'s to undo, not another\'s (CONTRACT v4, "Undo in a card game")', () => {
  const counter2 = defineCards({
    name: 'counter2@1',
    setup: () => ({ n: 0 }),
    actions: {
      inc: (ctx) => {
        ctx.state.n++;
      },
      mana: (ctx) => {
        ctx.state.n++;
        return [{ type: 'ADD_MANA', player: ctx.player as string, amount: 1 }];
      },
    },
  });
  const setups = [
    { name: 'own, no clock', options: { undo: { mode: 'own' as const } }, at: false },
    { name: 'consent, with clocks and at', options: { undo: { mode: 'consent' as const }, clock: { initialMs: 600_000, onTimeout: 'lose' as const } }, at: true },
  ];
  for (const setup of setups) {
    for (const action of ['inc', 'mana']) {
      it(`${setup.name}: after A's ${action}, B cannot go back past it; A can`, () => {
        const game = createCardGame(counter2, { players: ['A', 'B', 'C'], seed: 3, use: [table], ...setup.options });
        let at = 1_000;
        const send = (event: Record<string, unknown>) => game.send((setup.at ? { ...event, at: (at += 1_000) } : event) as never);
        while (game.view().step !== 'main') expect(send({ type: 'PASS_PRIORITY', player: game.view().priority }).ok).toBe(true);
        const before = game.view().version;
        expect(send({ type: 'CARD_ACTION', player: 'A', action }).ok).toBe(true);
        const undo = game.view().undo as Record<string, { to: number | null }>;
        expect(undo.B?.to ?? null).toBeNull();
        expect(undo.C?.to ?? null).toBeNull();
        expect(undo.A?.to).toBe(before);
        const refused = send({ type: 'UNDO', player: 'B', to: before });
        expect(refused.ok).toBe(false);
        expect(game.cards().n).toBe(1);
      });
    }
  }
});

describe("card games: every `decided` event reaches a checkpoint's pending once (CONTRACT v3, v4)", () => {
  for (const pregame of [false, true]) {
    it(pregame ? 'the pregame\'s decisions with data, before turn 1\'s first checkpoint' : 'CARD_ACTIONs that returned nothing, and a refused send between them', () => {
      const seen: number[] = [];
      const orders: number[][] = [];
      const cards = defineCards({
        name: 'pending@1',
        setup: () => ({}),
        checkpoint: (_view, pending) => {
          orders.push(pending.map((e) => e.seq ?? 0));
          for (const e of pending) if (e.type === 'decided') seen.push(e.seq as number);
        },
        actions: { nothing: () => undefined, refuse: () => ({ refuse: 'not now' }) },
      });
      const game = createCardGame(cards, { players: ['a', 'b'], seed: 1, pregame });
      const emitted: number[] = [];
      game.on('decided', (e) => emitted.push(e.seq as number));
      if (pregame) {
        for (let i = 0; i < 20 && game.view().phase === 'pregame'; i++) {
          const a = game.view().awaiting;
          const event = a?.kind === 'chooseStartingPlayer' ? { type: 'CHOOSE_STARTING_PLAYER', player: a.player, starting: 'a' } : a?.kind === 'mulligan' ? { type: 'KEEP', player: a.player } : { type: 'OPENING_HAND_DONE', player: a?.player };
          expect(game.send({ ...event, data: { i } } as never).ok).toBe(true);
        }
      } else {
        expect(game.send({ type: 'CARD_ACTION', player: 'b', action: 'nothing' } as never).ok).toBe(true);
        expect(game.send({ type: 'CARD_ACTION', player: 'a', action: 'refuse' } as never).ok).toBe(false);
        expect(game.send({ type: 'CARD_ACTION', player: 'a', action: 'nothing', data: 1 } as never).ok).toBe(true);
      }
      expect(game.send({ type: 'PASS_PRIORITY', player: game.view().priority as string }).ok).toBe(true);
      expect(emitted.length).toBeGreaterThan(0);
      expect(seen).toEqual(emitted);
      for (const order of orders) expect(order).toEqual([...order].sort((x, y) => x - y));
    });
  }
});

it("a `decided` owed to the next checkpoint is persisted with the cards: the restored game's checkpoint is given it", () => {
  const seen: number[] = [];
  const cards = defineCards({
    name: 'owed@1',
    setup: () => ({}),
    checkpoint: (_view, pending) => {
      for (const e of pending) if (e.type === 'decided') seen.push(e.seq as number);
    },
    actions: { nothing: () => undefined },
  });
  const game = createCardGame(cards, { players: ['a', 'b'], seed: 1 });
  const sent = game.send({ type: 'CARD_ACTION', player: 'b', action: 'nothing' } as never);
  expect(sent.ok).toBe(true);
  const owed = sent.ok ? (sent.events.find((e) => e.type === 'decided')?.seq as number) : -1;
  const saved = JSON.parse(JSON.stringify(game.persist())) as { cards: { owed?: unknown[] } };
  expect(saved.cards.owed).toHaveLength(1);
  const restored = restoreCardGame(saved, { cards });
  expect(restored.send({ type: 'PASS_PRIORITY', player: 'a' }).ok).toBe(true);
  expect(seen).toEqual([owed]);
  expect((restored.persist() as unknown as { cards: { owed?: unknown } }).cards.owed).toBeUndefined();
  expect(() => restoreCardGame({ ...saved, cards: { ...saved.cards, owed: [{ type: 'pass' }] } }, { cards })).toThrow(/persisted\.cards\.owed/);
  // An owed event that reports no decision.
  expect(() => restoreCardGame({ ...saved, cards: { ...saved.cards, owed: [{ type: 'decided', seq: 1, event: { type: 'FOO' } }] } }, { cards })).toThrow(/persisted\.cards\.owed/);
  // An owed decision the snapshot's game has not reached (a seq after its own), two in the wrong order, or one without its decision.
  const [first] = saved.cards.owed as { seq: number }[];
  const later = { ...(first as object), seq: (saved as unknown as { seq: number }).seq + 1 };
  for (const owed of [[later], [first, first], [{ type: 'decided', seq: 1 }]]) {
    expect(() => restoreCardGame({ ...saved, cards: { ...saved.cards, owed } }, { cards })).toThrow(expect.objectContaining({ code: 'INVALID_SNAPSHOT', message: expect.stringMatching(/^persisted\.cards\.owed: .*in the order of their seq/) }));
  }
});

it("playout shows a card game's bot the view its player's seat receives, not the host's (CONTRACT v4, \"Bots\")", () => {
  const shown: unknown[] = [];
  const cards = defineCards({
    name: 'seen@1',
    setup: () => ({}),
    seatView: () => ({}),
    bot: (view, _seen, player) => {
      if (player === 'a') shown.push(view.stops);
      return view.priority === player ? { type: 'PASS_PRIORITY', player } : undefined;
    },
  });
  const game = createCardGame(cards, { players: ['a', 'b', 'c'], seed: 2 });
  expect(game.send({ type: 'SET_STOPS', player: 'b', stops: [{ step: 'main', turn: 'own' }] }).ok).toBe(true);
  expect(playout(game as unknown as Game, { until: { turn: 2 }, seed: 3 }).stopped).toBe('until');
  expect(shown.length).toBeGreaterThan(0);
  for (const stops of shown) expect(stops).toEqual(game.view({ seat: 'a' }).stops);
});

describe("a card game's recording keeps snapshots (CONTRACT v3, Recordings: persist() every 256 versions)", () => {
  it('holds persist() of the card game, its cards included, at versions 256 and 512; each restores to the game the replay reaches there', () => {
    const game = createCardGame(counter, { players: ['a', 'b'], seed: 5, record: true });
    for (let i = 0; i < 600; i++) {
      const out = game.send(i % 3 === 0 ? { type: 'CARD_ACTION', player: 'a', action: i % 2 === 0 ? 'draw' : 'inc' } : { type: 'ADD_MANA', player: 'a', amount: 1 });
      expect(out.ok, String(i)).toBe(true);
    }
    const recording = JSON.parse(JSON.stringify(game.recording())) as { snapshots: { version: number; persisted: unknown }[] };
    expect(recording.snapshots.map((s) => s.version)).toEqual([256, 512]);
    for (const { version, persisted } of recording.snapshots) {
      const restored = restoreCardGame(persisted, { cards: counter });
      const replayed = replayGame(recording, { cards: counter, until: version });
      expect(restored.view(), String(version)).toEqual(replayed.view());
      expect(restored.cards(), String(version)).toEqual(replayed.cards());
      expect((persisted as { cards?: unknown }).cards).toMatchObject({ name: 'counter@1' });
    }
  });
});
