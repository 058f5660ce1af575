import { turnMachine } from '../machines/turn.machine.js';
import { chartLayout } from '../inspector/layout.js';
try {
  const t = performance.now();
  const l = await chartLayout(turnMachine.root);
  console.log(Math.round(performance.now() - t), 'ms', l.width, l.height, l.nodes.length, l.edges.length, JSON.stringify(l.edges[0]));
} catch (err) {
  console.log('ERR', String((err as Error)?.message ?? err).slice(0, 500), String((err as Error)?.stack ?? '').slice(0, 300));
}
