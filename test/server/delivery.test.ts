/**
 * The table server's delivery (src/server/deliver.ts, issue 31): after its first update, a seat's
 * connection is sent a patch against what it was last sent, which the server keeps as the host's
 * view and the seat's private fields (CONTRACT v3, "Private seats": another player's stops are
 * null). Each patch applied to what the client holds gives exactly the seat's whole document,
 * including after another player's private setting changed, after a send that left it unchanged,
 * and for a connection that missed a version. Connections are fakes that decode each frame.
 */
import { describe, expect, it } from 'vitest';
import { createGame, type TurnEvent } from '../../src/index.js';
import type { Game } from '../../src/game/types.js';
import { Delivery, freshView, readCommit, seatDoc, type Commit } from '../../src/server/deliver.js';
import { applyDocChange, type StateDoc } from '../../src/client/patch.js';
import { decodeServerMessage, type ServerMessage } from '../../src/client/protocol.js';
import { concreteEvent, seededRandom } from '../../src/simulation.js';

/** A connection that keeps each message it is sent, decoded. */
class FakeConnection {
  readonly messages: ServerMessage[] = [];
  sendBytes(_type: string, bytes: Uint8Array): void {
    const message = decodeServerMessage(bytes);
    if (message === null) throw new Error('an undecodable frame');
    this.messages.push(message);
  }
}

/** What the client holds after the connection's messages. */
function held(connection: FakeConnection): StateDoc {
  let doc: StateDoc | null = null;
  for (const m of connection.messages) {
    if (m.kind === 'update') doc = { view: m.view, legalActions: m.legalActions, nextStop: m.nextStop };
    else if (m.kind === 'patch') doc = applyDocChange(doc as StateDoc, m);
  }
  if (doc === null) throw new Error('no update yet');
  return doc;
}

const SEATS = ['A', 'B'] as const;

/** Sends `event` and delivers its commit to the seats listed (the others miss it). */
function commit(game: Game, event: TurnEvent, delivery: Delivery, connections: Record<string, FakeConnection>, to: readonly string[] = SEATS): void {
  const result = game.send(event);
  if (!result.ok) throw new Error(`refused: ${result.error.message}`);
  const c = readCommit({ game, version: game.view().version }, result.events, to);
  for (const seat of to) delivery.seatUpdate(connections[seat] as never, game, seat, c);
}

/** Each seat's connection holds the seat's whole document now. */
function expectWhole(game: Game, connections: Record<string, FakeConnection>): void {
  const version = game.view().version;
  for (const seat of SEATS) {
    const c = readCommit({ game, version }, [], [seat]);
    expect(JSON.parse(JSON.stringify(held(connections[seat] as FakeConnection)))).toEqual(JSON.parse(JSON.stringify(seatDoc(game, seat, c))));
  }
}

/** The plainest answer to what the game awaits (its first legal action, its choices made), or null. */
function plainest(game: Game, serial: number): TurnEvent | null {
  const awaiting = game.view().awaiting;
  const action = awaiting === null ? undefined : game.legalActions(awaiting.player)[0];
  return action === undefined ? null : (concreteEvent(action, game.view(), seededRandom(serial), serial) as unknown as TurnEvent);
}

function table() {
  const game = createGame({ players: ['A', 'B'] });
  const delivery = new Delivery();
  const connections: Record<string, FakeConnection> = { A: new FakeConnection(), B: new FakeConnection() };
  const first = readCommit({ game, version: game.view().version }, [], SEATS);
  for (const seat of SEATS) delivery.seatUpdate(connections[seat] as never, game, seat, first);
  return { game, delivery, connections };
}

describe('delivery: patches against the host view and the seat\'s private fields (issue 31; CONTRACT v3 "Private seats")', () => {
  it('a player\'s stops reach no other seat, when they change and in the sends after that leave them unchanged', () => {
    const { game, delivery, connections } = table();
    const stops = [{ step: 'end', turn: 'others' }, { step: 'upkeep', turn: 'any' }] as const;
    commit(game, { type: 'SET_STOPS', player: 'B', stops: [...stops] }, delivery, connections);
    expectWhole(game, connections);
    for (let i = 0; i < 12; i++) {
      const event = plainest(game, i);
      if (event === null) break;
      commit(game, event, delivery, connections);
      expectWhole(game, connections);
    }
    expect(held(connections.B as FakeConnection).view.stops?.B).toEqual(stops);
    expect(held(connections.A as FakeConnection).view.stops?.B).toBeNull();
    // No frame sent to A ever carried B's stops.
    for (const m of (connections.A as FakeConnection).messages) expect(JSON.stringify(m)).not.toContain('"upkeep","turn":"any"');
  });

  it('a connection that missed a version is patched field by field to the whole document', () => {
    const { game, delivery, connections } = table();
    commit(game, { type: 'SET_STOPS', player: 'A', stops: [{ step: 'draw', turn: 'own' }] }, delivery, connections, ['A']);
    const event = plainest(game, 1);
    if (event === null) throw new Error('nothing awaited');
    commit(game, event, delivery, connections);
    expectWhole(game, connections);
    expect(held(connections.B as FakeConnection).view.stops?.A).toBeNull();
    expect(held(connections.A as FakeConnection).view.stops?.A).toEqual([{ step: 'draw', turn: 'own' }]);
  });

  it('the view of a send shares what the send left unchanged with the view before (the same objects), and is still the whole view', () => {
    // As the owner reads a send (src/server/owned.ts): the fresh view for the store's write, then the commit.
    const { game, delivery, connections } = table();
    freshView(game);
    let before: Commit = readCommit({ game, version: game.view().version }, [], SEATS);
    let shared = 0;
    for (let i = 0; i < 300; i++) {
      const event = plainest(game, i);
      if (event === null) break;
      const result = game.send(event);
      if (!result.ok) throw new Error(`refused: ${result.error.message}`);
      freshView(game);
      const c = readCommit({ game, version: game.view().version }, result.events, SEATS);
      expect(c.view).toEqual(game.view());
      for (const field of c.unchanged ?? []) {
        const key = field as keyof typeof c.view;
        if (key in before.view) {
          expect(c.view[key]).toBe(before.view[key]);
          if (typeof c.view[key] === 'object' && c.view[key] !== null) shared++;
        }
      }
      for (const seat of SEATS) delivery.seatUpdate(connections[seat] as never, game, seat, c);
      expectWhole(game, connections);
      before = c;
    }
    expect(shared).toBeGreaterThan(300);
  });
});
