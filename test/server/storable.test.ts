/**
 * docs/serving.md, "Stores": the three stores refuse the same inputs the same way. PostgreSQL's
 * jsonb (PGlite's too) cannot keep U+0000 in a string or a surrogate that is not half of a pair,
 * which the MemoryStore would: the server refuses them before the engine sees them, naming the
 * field (INVALID_EVENT for a seat's send, INVALID_OPTIONS for a new game), so that no seat can make
 * a send fail as STORE_FAILED (a server fault, which reloads the game) and no store is asked to
 * keep what another would refuse.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defineCards } from '../../src/cards/index.js';
import type { TableServer } from '../../src/server/index.js';
import { unstorable } from '../../src/server/storable.js';
import { join, startServer } from './harness.js';

const notes = defineCards({
  name: 'notes@1',
  setup: () => ({ notes: [] as unknown[] }),
  actions: { note: (ctx) => void ctx.state.notes.push(ctx.data ?? null) },
});

describe('what the stores can keep (docs/serving.md, "Stores")', () => {
  it('names the first string or key holding U+0000 or an unpaired surrogate; pairs (emoji) and other text pass', () => {
    expect(unstorable({ type: 'X', data: { ok: ['😀', 'é', ''] } }, 'event')).toBeNull();
    expect(unstorable({ data: ['fine', 'a\u0000b'] }, 'event')).toBe('event.data[1]: holds U+0000 or an unpaired surrogate, which no store keeps');
    expect(unstorable({ data: { note: 'x\ud800' } }, 'event')).toBe('event.data.note: holds U+0000 or an unpaired surrogate, which no store keeps');
    expect(unstorable({ data: { '\udc00': 1 } }, 'event')).toBe('event.data: a key holds U+0000 or an unpaired surrogate, which no store keeps');
    expect(unstorable({ players: ['A', 'B\u0000'] }, 'options')).toBe('options.players[1]: holds U+0000 or an unpaired surrogate, which no store keeps');
  });

  describe('a served card game', () => {
    let server: TableServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    it('refuses a seat\'s send carrying what no store keeps (INVALID_EVENT naming the field), changes nothing, and plays on', async () => {
      const started = await startServer({ cards: notes });
      server = started.server;
      const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 3 });
      const table = await join(started.url, { gameId, seat: 'A', token: tokens.A as string });
      try {
        for (const data of ['a\u0000b', { hand: ['c1', 'c2\ud800'] }]) {
          const refused = await table.send({ type: 'CARD_ACTION', player: 'A', action: 'note', data } as never);
          expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_EVENT', message: expect.stringMatching(/^event\.data.*: holds U\+0000 or an unpaired surrogate/) } });
        }
        expect((await started.store.loadGame(gameId))?.version).toBe(0);
        expect(await table.send({ type: 'CARD_ACTION', player: 'A', action: 'note', data: 'fine 😀' } as never)).toMatchObject({ ok: true });
        expect((await started.store.loadGame(gameId))?.hostState).toEqual({ notes: ['fine 😀'] });
      } finally {
        table.close();
      }
    });

    it('refuses a new game whose options hold what no store keeps (INVALID_OPTIONS naming the field)', async () => {
      const started = await startServer({ cards: notes });
      server = started.server;
      await expect(server.createGame({ players: ['A', 'B\u0000'] })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: 'options.players[1]: holds U+0000 or an unpaired surrogate, which no store keeps' });
    });
  });
});
