import { createGame } from '../src/index.js';
import { seededRandom } from '../src/simulation.js';
import { fill, hostEvent, refusedEvent } from '../test/properties/harness.js';
const options = {"rules":"current","pregame":true,"orderTriggers":"host","seed":1933940001,"players":["A","B","C","D"],"attack":"all"} as const;
const r = seededRandom(options.seed);
const game = createGame(options as never);
const mix = { legal: 45, host: 40, refused: 8, concede: 2, restore: 5 };
const total = 100;
for (let i = 0; i < 120 && game.view().gameOver === null; i++) {
  const view = game.view();
  const roll = r() * total;
  if (roll < mix.restore) continue;
  let event: unknown;
  if (roll < mix.restore + mix.legal) { const actions = game.legalActions().filter((a) => a.type !== 'CONCEDE'); const pass = actions.find((a) => a.type === 'PASS_PRIORITY'); event = fill(pass !== undefined && r() < 0.7 ? pass : actions[Math.floor(r() * actions.length)]!, view, r, i); }
  else if (roll < mix.restore + mix.legal + mix.host) event = hostEvent(view, r, i);
  else if (roll < mix.restore + mix.legal + mix.host + mix.refused) event = refusedEvent(view, r);
  else event = { type: 'CONCEDE', player: view.players[Math.floor(r() * view.players.length)] };
  const res = game.send(event);
  const v = game.view();
  console.log(i, JSON.stringify(event).slice(0, 120), res.ok ? 'ok' : res.error.code, `| ${v.phase}/${v.step} players=${v.players} prio=${v.priority} await=${JSON.stringify(v.awaiting)}`);
  if (v.priority && !v.players.includes(v.priority) || v.awaiting && !v.players.includes(v.awaiting.player)) { console.log('BAD'); break; }
}
