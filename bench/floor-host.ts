/**
 * The floor of `npm run bench:server` (issue 31, point 6): a bare Colyseus 0.16 room in a process
 * of its own, doing what a table server's room does per send and nothing else: a client's bytes
 * message comes in and the room sends an update of `--bytes` payload bytes (the table server's
 * mean update, Colyseus framing included) to each of its two clients. No engine, no store, no
 * checks. It speaks bench/server-host.ts's lines: `listening <port>`, then `mem`, `cpu`, `quit`
 * on stdin.
 *
 *   node --expose-gc --import tsx bench/floor-host.ts --bytes 400
 */
import { createServer } from 'node:http';
import { answerBenchCommands } from './hostCommands.js';
import { parseArgs } from 'node:util';
import { Room, Server, type Client } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';

const FLOOR_ROOM = 'echo';
const FLOOR_MESSAGE = 'turn';
/** Colyseus' framing of a bytes message of type 'turn' (its code, the type's length and the type). */
const FLOOR_FRAMING = 2 + FLOOR_MESSAGE.length;

const { values } = parseArgs({ options: { bytes: { type: 'string', default: '400' } } });
const payload = new Uint8Array(Math.max(1, Number(values.bytes) - FLOOR_FRAMING)).fill(0x61);

class EchoRoom extends Room {
  override maxClients = 2;
  override onCreate(): void {
    this.patchRate = 0;
    this.onMessage(FLOOR_MESSAGE, (_client: Client, _bytes: unknown) => {
      for (const c of this.clients) c.sendBytes(FLOOR_MESSAGE, payload);
    });
  }
}

const quiet = () => undefined;
const http = createServer();
const server = new Server({ transport: new WebSocketTransport({ server: http, maxPayload: 4 * 64 * 1024 }), greet: false, gracefullyShutdown: false, logger: { debug: quiet, info: quiet, trace: quiet, warn: quiet, error: (...a: unknown[]) => console.error(...a) } });
server.define(FLOOR_ROOM, EchoRoom);
await server.listen(0, '127.0.0.1');
const address = http.address();
console.log(`listening ${typeof address === 'object' && address !== null ? address.port : 0}`);

await answerBenchCommands();
await server.gracefullyShutdown(false).catch(() => undefined);
process.exit(0);
