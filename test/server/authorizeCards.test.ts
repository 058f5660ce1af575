/**
 * CONTRACT v4, "Card games" and "Who may send what": a client sends CARD_ACTION and decisions
 * with `data` for its own seat (or with `by` for a seat it controls under 723); a spectator sends
 * nothing; the card data reaches the game as sent.
 */
import { describe, expect, it } from 'vitest';
import { authorize } from '../../src/server/authorize.js';

const view = { decidedBy: { A: 'A', B: 'B' } };

describe('who may send card actions and card data (CONTRACT v4)', () => {
  it('takes a CARD_ACTION of the seat itself, with its data and nothing else', () => {
    expect(authorize('A', { type: 'CARD_ACTION', player: 'A', action: 'tap', data: { card: 'c1' }, extra: 1 }, view)).toEqual({ ok: true, event: { type: 'CARD_ACTION', player: 'A', action: 'tap', data: { card: 'c1' } } });
  });

  it("refuses a CARD_ACTION for another seat (723.5), from a spectator (rule 'spectator', as any spectator's send), or without its action", () => {
    expect(authorize('A', { type: 'CARD_ACTION', player: 'B', action: 'tap' }, view)).toMatchObject({ ok: false, error: { code: 'ILLEGAL_ACTION', rule: '723.5' } });
    expect(authorize('A', { type: 'CARD_ACTION', player: 'B', action: 'tap', by: 'A' }, view)).toMatchObject({ ok: false, error: { code: 'ILLEGAL_ACTION', rule: '723.5' } });
    expect(authorize(null, { type: 'CARD_ACTION', player: 'A', action: 'tap' }, view)).toMatchObject({ ok: false, error: { code: 'ILLEGAL_ACTION', rule: 'spectator' } });
    expect(authorize(null, { type: 'PASS_PRIORITY', player: 'A' }, view)).toMatchObject({ ok: false, error: { code: 'ILLEGAL_ACTION', rule: 'spectator' } });
    expect(authorize('A', { type: 'CARD_ACTION', player: 'A' }, view)).toMatchObject({ ok: false, error: { code: 'INVALID_EVENT', message: expect.stringMatching(/event\.action/) } });
  });

  it('takes a CARD_ACTION for a seat the client controls, with by', () => {
    expect(authorize('A', { type: 'CARD_ACTION', player: 'B', action: 'tap', by: 'A' }, { decidedBy: { A: 'A', B: 'A' } })).toMatchObject({ ok: true, event: { player: 'B', by: 'A' } });
  });

  it('keeps a decision\'s data as sent', () => {
    expect(authorize('A', { type: 'PLAY_LAND', player: 'A', data: { card: 'c7' } }, view)).toMatchObject({ ok: true, event: { type: 'PLAY_LAND', player: 'A', data: { card: 'c7' } } });
  });
});
