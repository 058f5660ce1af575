import { it } from 'vitest';
import { createGame } from '../src/index.js';
const pass = (g: any) => { const a = g.view().awaiting; const e: any = a.kind === 'priority' ? { type: 'PASS_PRIORITY', player: a.player } : a.kind === 'declareAttackers' ? { type: 'DECLARE_ATTACKERS', player: a.player, attackers: [] } : a.kind === 'discard' ? { type: 'DISCARD', player: a.player, count: a.count } : { type: 'DECLARE_BLOCKERS', player: a.player, blockers: [] }; return g.send(e); };
it('probe', () => {
  for (const [where, ev] of [
    ['main', { type: 'ADD_EXTRA_PHASE', phase: 'combat', after: 'ending' }],
    ['main', { type: 'ADD_EXTRA_COMBAT', after: 'ending' }],
    ['main', { type: 'ADD_EXTRA_STEP', step: 'upkeep', afterPhase: 'ending' }],
    ['end', { type: 'ADD_EXTRA_PHASE', phase: 'combat' }],
    ['end', { type: 'ADD_EXTRA_PHASE', phase: 'postcombatMain' }],
    ['end', { type: 'ADD_EXTRA_STEP', step: 'upkeep', afterPhase: 'ending' }],
    ['end', { type: 'ADD_EXTRA_STEP', step: 'end', after: 'cleanup' }],
    ['end', { type: 'ADD_EXTRA_STEP', step: 'upkeep' }],
  ] as const) {
    const g = createGame({ players: ['A', 'B'] });
    while (g.view().step !== where) pass(g);
    const r = g.send(ev as any);
    const log: string[] = [];
    g.on('*', (e: any) => { if (e.type === 'stepBegan' || e.type === 'turnBegan') log.push((e.step ?? 'TURN') + e.turn); });
    for (let i = 0; i < 40 && g.view().turn < 3; i++) pass(g);
    console.log(where, JSON.stringify(ev), r.ok ? 'ACCEPTED' : 'refused ' + r.error.message, log.join(' '));
  }
});
