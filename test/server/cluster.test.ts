/**
 * CONTRACT v3, "Serving games", many processes (issue 25, point 6): the matchmaking driver of a
 * cluster (src/server/cluster.ts) over Colyseus' RedisDriver and RedisPresence on a real Redis
 * (test/server/services.ts). A listing left by a process that died (no subscriber to its channel)
 * is answered as absent and removed, by room id and in a query, so a join makes the game's room
 * where it arrives at once; a live process's listing is kept; a process removes a listing only
 * while it still names it (a game's new room has its old room's id).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MatchMakerDriver, Presence } from '@colyseus/core';
import { clusterDriver, processAlive, processOfOwner } from '../../src/server/cluster.js';
import { redisAvailable, startRedis, type RedisServer } from './services.js';

describe('processOfOwner: the Colyseus process id in a lease owner', () => {
  it('is the last part of host:pid:server:processId, or null', () => {
    expect(processOfOwner('box:123:ab12cd34:Xy_9-z')).toBe('Xy_9-z');
    expect(processOfOwner('another-process')).toBeNull();
    expect(processOfOwner('trailing:')).toBeNull();
    expect(processOfOwner(null)).toBeNull();
  });
});

describe.skipIf(!redisAvailable())('clusterDriver over RedisDriver (a real Redis)', () => {
  let redis: RedisServer;
  let inner: MatchMakerDriver;
  let presence: Presence;
  let other: Presence;
  let driver: MatchMakerDriver;
  beforeAll(async () => {
    redis = await startRedis();
    const { RedisDriver } = await import('@colyseus/redis-driver');
    const { RedisPresence } = await import('@colyseus/redis-presence');
    inner = new RedisDriver(redis.url);
    presence = new RedisPresence(redis.url);
    // Another process, alive: it holds its channel.
    other = new RedisPresence(redis.url);
    await other.subscribe('p:alive-process', () => undefined);
    driver = clusterDriver(inner, { self: () => 'this-process', alive: (id) => processAlive(presence, id) });
  });
  afterAll(async () => {
    inner?.shutdown();
    presence?.shutdown();
    other?.shutdown();
    await redis?.stop();
  });

  const list = (roomId: string, processId: string) => inner.createInstance({ name: 'turn', roomId, processId, gameId: roomId, locked: false, private: false }).save();

  it('tells a live process (it holds its channel) from a gone one', async () => {
    expect(await processAlive(presence, 'alive-process')).toBe(true);
    expect(await processAlive(presence, 'gone-process')).toBe(false);
  });

  it("answers a gone process's listing as absent and removes it, by room id and in a query; keeps a live one's and its own", async () => {
    await list('game-1', 'gone-process');
    await list('game-2', 'alive-process');
    await list('game-3', 'this-process');
    expect(await driver.findOne({ roomId: 'game-1' })).toBeUndefined();
    expect(await inner.has('game-1')).toBe(false);
    expect(await driver.findOne({ roomId: 'game-2' })).toMatchObject({ processId: 'alive-process' });
    expect(await driver.findOne({ roomId: 'game-3' })).toMatchObject({ processId: 'this-process' });
    await list('game-4', 'gone-process');
    expect(await driver.findOne({ name: 'turn', gameId: 'game-4', locked: false, private: false })).toBeUndefined();
    expect(await inner.has('game-4')).toBe(false);
    expect(await driver.findOne({ name: 'turn', gameId: 'game-2', locked: false, private: false })).toMatchObject({ roomId: 'game-2' });
  });

  it('removes its own listing only while it still names this process (the new owner listed the game meanwhile)', async () => {
    const mine = driver.createInstance({ name: 'turn', roomId: 'game-5', processId: 'this-process' });
    await mine.save();
    // Another process lists its new room of the same game (the same room id).
    await list('game-5', 'alive-process');
    await mine.remove();
    expect(await inner.findOne({ roomId: 'game-5' })).toMatchObject({ processId: 'alive-process' });
    const again = driver.createInstance({ name: 'turn', roomId: 'game-6', processId: 'this-process' });
    await again.save();
    await again.remove();
    expect(await inner.has('game-6')).toBe(false);
    // Colyseus' cleanup of a process: its own listings, never one another process wrote since.
    await list('game-7', 'this-process');
    await list('game-8', 'this-process');
    await list('game-5', 'alive-process');
    await driver.cleanup!('this-process');
    expect(await inner.has('game-7')).toBe(false);
    expect(await inner.has('game-8')).toBe(false);
    expect(await inner.has('game-5')).toBe(true);
  });
});
