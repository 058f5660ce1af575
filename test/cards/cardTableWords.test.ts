/**
 * Issue 32, point 3: the card table tells the game in words (examples/cards/page/words.ts): why
 * the game ended ("Bob ran out of time", not only "Alice won"), and decisions and events with the
 * card names this seat has seen, never a name it has not (the other seat's hand stays unnamed).
 */
import { describe, expect, it } from 'vitest';
import { createCardGame } from '../../src/cards/index.js';
import { exampleCards, type ExampleSeatView } from '../../examples/cards/definition.js';
import { decisionText, endText, eventText, learn, leftText, type Names } from '../../examples/cards/page/words.js';

describe('the card table in words', () => {
  it('why a player left: life, an empty library, time, a concession, away; a draw', () => {
    expect(leftText('Alice', 'life')).toBe("Alice's life reached 0");
    expect(leftText('Bob', 'empty library')).toBe('Bob drew from an empty library');
    expect(leftText('Bob', 'time')).toBe('Bob ran out of time');
    expect(leftText('Bob', 'conceded')).toBe('Bob conceded');
    expect(leftText('Bob', 'away')).toBe('Bob was away too long');
    expect(leftText('Bob', 'poison')).toBe('Bob lost (poison)');
  });

  it('the end of a game of the example: the reason first, then who wins', () => {
    const game = createCardGame(exampleCards, { players: ['Alice', 'Bob'], seed: 5 });
    expect(endText(game.view())).toBeNull();
    expect(game.send({ type: 'CONCEDE', player: 'Bob' }).ok).toBe(true);
    expect(endText(game.view())).toBe('Bob conceded. Alice wins.');
  });

  it('names only what the seat has seen: its own hand by name, the other seat\'s hand never', () => {
    const game = createCardGame(exampleCards, { players: ['Alice', 'Bob'], seed: 5 });
    const names: Names = new Map();
    learn(names, game.cards({ seat: 'Alice' }) as ExampleSeatView);
    const state = game.cards();
    const mine = state.sides.Alice?.hand[0] as string;
    const theirs = state.sides.Bob?.hand[0] as string;
    expect(decisionText(names, { type: 'PLAY_LAND', player: 'Alice', data: { card: mine } })).toBe(`Alice plays ${names.get(mine)}`);
    expect(names.has(theirs)).toBe(false);
    // A spell of the other seat is named by its stack object's name once it is on the stack.
    names.set('spell-x', 'Shock');
    expect(decisionText(names, { type: 'CAST_SPELL', player: 'Bob', id: 'spell-x', data: { card: theirs, target: { player: 'Alice' } } })).toBe('Bob casts Shock targeting Alice');
    expect(eventText(names, { type: 'playerLeft', player: 'Bob', reason: 'time', seq: 9 })).toBe('Bob ran out of time');
    expect(eventText(names, { type: 'stepBegan', turn: 1, phase: 'beginning', step: 'upkeep', seq: 1 })).toBeNull();
  });
});
