/**
 * A hostile client for the flood test, run as its own process (so that its own work does not
 * load the server's): it joins a game as a spectator and sends `rate` messages a second until it
 * is killed, joining again whenever the server closes it. `mode` 'messages': half readable (a
 * send a spectator may not make), half unreadable (not JSON); 'resumes': `resume` from seq 0.
 * A line 'p' on its stdin pauses it, 'r' resumes it (it starts paused).
 *
 * Usage: node --import tsx test/server/flooder.ts <url> <gameId> <messages|resumes> <rate>
 */
import { Client, type Room } from 'colyseus.js';
import { MESSAGE_TYPE, ROOM_NAME } from '../../src/client/protocol.js';

const [url, gameId, mode, rateText] = process.argv.slice(2) as [string, string, string, string];
const rate = Number(rateText);
const TICK_MS = 10;
const encoder = new TextEncoder();
const readable = encoder.encode(JSON.stringify({ kind: 'send', id: 1, event: { type: 'PASS_PRIORITY', player: 'A' } }));
const unreadable = encoder.encode('{not json at all');
const resume = encoder.encode(JSON.stringify({ kind: 'resume', lastSeq: 0 }));

let room: { joined: Room } | null = null;
let sent = 0;
let joins = 0;
let paused = true;

async function enter(): Promise<void> {
  for (;;) {
    try {
      const joined = await new Client(url).joinOrCreate(ROOM_NAME, { gameId, spectator: true });
      joins++;
      joined.onMessage(MESSAGE_TYPE, () => undefined);
      joined.onLeave(() => {
        if (room?.joined === joined) room = null;
        void enter();
      });
      room = { joined };
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

await enter();
process.stdout.write('flooding\n');
let carry = 0;
setInterval(() => {
  carry += (rate * TICK_MS) / 1000;
  const now = Math.floor(carry);
  carry -= now;
  if (room === null || paused) return;
  const { joined } = room;
  for (let i = 0; i < now; i++) {
    try {
      joined.sendBytes(MESSAGE_TYPE, mode === 'resumes' ? resume : (sent & 1) === 0 ? readable : unreadable);
      sent++;
    } catch {
      break;
    }
  }
}, TICK_MS);
process.stdin.on('data', (chunk: Buffer) => {
  const last = chunk.toString().trim().at(-1);
  if (last === 'p') paused = true;
  if (last === 'r') paused = false;
});
process.on('SIGTERM', () => {
  process.stdout.write(`sent ${sent} joins ${joins}\n`);
  process.exit(0);
});
