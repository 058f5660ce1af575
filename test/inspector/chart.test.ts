/**
 * The inspector's chart model is read from the machine's own definition: every phase and
 * step in turn-table order, the guarded skips with their rules (508.8, 510.4) and
 * the loops (514.3a cleanup, 500.8 added phases). And the library never imports the inspector.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { activePaths, chartOf, SKIP_REASONS, stepSkipRules, type ChartNode } from '../../inspector/src/chart.model.js';
import { initialContext } from '../../machines/turn.effects.js';
import { toInput } from '../../src/game/create.js';
import { newCombat } from '../../src/rules/combat.js';
import { turnMachine } from '../../machines/turn.machine.js';
import { STEPS_OF_PHASE } from '../../src/rules/schedule.js';

const chart = chartOf(turnMachine.root);
const all = (nodes: ChartNode[]): ChartNode[] => nodes.flatMap((n) => [n, ...all(n.children)]);
const byPath = new Map(all(chart).map((n) => [n.path, n]));

describe('inspector chart model', () => {
  it('has the phases holding the choice of their next step, then their steps in turn-table order (CR 500.1)', () => {
    for (const [phase, steps] of Object.entries(STEPS_OF_PHASE)) {
      expect(byPath.get(phase)?.children.map((c) => c.key)).toEqual(['nextStep', ...steps, ...(phase === 'combat' ? ['ended'] : [])]);
    }
    expect(byPath.get('gameOver')?.final).toBe(true);
  });

  it('draws the passing over of steps and phases as guarded transitions of the choice states (103.8a, 508.8, 510.4, 614.10)', () => {
    const skips = all(chart).flatMap((n) => n.transitions.filter((t) => t.kind === 'skip'));
    for (const phase of Object.keys(STEPS_OF_PHASE)) expect(skips).toContainEqual(expect.objectContaining({ from: `${phase}.nextStep`, guard: 'isSkippedByEffect' }));
    expect(skips).toContainEqual(expect.objectContaining({ from: 'nextPhase', guard: 'isNextPhaseSkipped' }));
  });

  it('draws each skip of a step as its own transition, named by its guard and its rule (500.10, 103.8a, 508.8, 510.4, 614.10)', () => {
    const skipsOf = (phase: string) => byPath.get(`${phase}.nextStep`)?.transitions.filter((t) => t.kind === 'skip').map((t) => `${t.guard} ${t.rule ?? ''}`);
    expect(skipsOf('beginning')).toEqual(['isOtherStepOfAddedPhase 500.10', 'isFirstDrawSkipped 103.8a', 'isSkippedByEffect 614.10']);
    expect(skipsOf('precombatMain')).toEqual(['isSkippedByEffect 614.10']);
    expect(skipsOf('combat')).toEqual(['isOtherStepOfAddedPhase 500.10', 'hasNoAttackers 508.8', 'hasNoFirstStrike 510.4', 'isSkippedByEffect 614.10']);
    expect(skipsOf('postcombatMain')).toEqual(['isSkippedByEffect 614.10']);
    expect(skipsOf('ending')).toEqual(['isOtherStepOfAddedPhase 500.10', 'isSkippedByEffect 614.10']);
    for (const rule of ['500.10', '103.8a', '508.8', '510.4', '614.10']) expect(SKIP_REASONS[rule], rule).toBeTruthy();
  });

  it('names the rule that will pass over each step still to come in the phase (the dimmed steps and the lit skip)', () => {
    const ctx = initialContext(toInput({ players: ['A', 'B'] }));
    const combat = { ...ctx, phase: 'combat' as const, step: 'declareAttackers' as const, combat: { ...newCombat(), attacksDeclared: true } };
    expect(stepSkipRules({ ...combat, steps: [{ step: 'declareBlockers' }, { step: 'firstStrikeDamage' }, { step: 'combatDamage' }, { step: 'endOfCombat' }] })).toEqual(
      new Map([
        ['declareBlockers', '508.8'],
        ['firstStrikeDamage', '508.8'],
        ['combatDamage', '508.8'],
      ]),
    );
    expect(stepSkipRules({ ...ctx, phase: 'beginning', step: 'upkeep', steps: [{ step: 'draw' }] })).toEqual(new Map([['draw', '103.8a']]));
  });

  it('shows the cleanup self-loop (514.3a) and the added phases (500.8) as loops', () => {
    expect(byPath.get('ending.cleanup')?.transitions).toContainEqual(expect.objectContaining({ kind: 'loop', from: 'ending.cleanup.priority', rule: '514.3a', guard: 'isStepOver' }));
    expect(byPath.get('combat')?.transitions).toContainEqual(expect.objectContaining({ kind: 'loop', from: 'nextPhase', rule: '500.8', guard: 'isNextPhase(combat)' }));
    expect(byPath.get('postcombatMain')?.transitions).toContainEqual(expect.objectContaining({ kind: 'loop', from: 'nextPhase', rule: '500.8' }));
  });

  it('lists the active paths of a state value', () => {
    expect([...activePaths({ combat: { declareAttackers: 'declaring' } })]).toEqual(['combat', 'combat.declareAttackers', 'combat.declareAttackers.declaring']);
  });
});

describe('package boundaries', () => {
  it('the library (src/, machines/) imports neither the inspector nor vite nor playwright', async () => {
    const offenders: string[] = [];
    for (const dir of ['src', 'machines']) {
      for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
        const path = join(entry.parentPath, entry.name);
        const source = await readFile(path, 'utf8');
        for (const m of source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
          const spec = m[1] as string;
          if (/inspector\/|^vite|playwright/.test(spec)) offenders.push(`${path}: ${spec}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe('the chart laid out by elkjs (inspector/layout.ts)', () => {
  it('lays out every state node as a box inside its parent and every transition with a target as a labelled arrow', async () => {
    const { chartLayout } = await import('../../inspector/layout.js');
    const layout = await chartLayout(turnMachine.root);
    const states = all(chart).map((n) => n.path);
    expect(layout.nodes.map((n) => n.path).filter((p) => p !== '').sort()).toEqual([...states].sort());
    let targeted = 0;
    const count = (node: { transitions: Map<string, { target?: unknown[] }[]>; always?: { target?: unknown[] }[]; states: Record<string, unknown> }): void => {
      for (const list of node.transitions.values()) for (const t of list) targeted += t.target?.length ?? 0;
      for (const t of node.always ?? []) targeted += t.target?.length ?? 0;
      for (const child of Object.values(node.states)) count(child as never);
    };
    count(turnMachine.root as never);
    expect(layout.edges.length).toBe(targeted);
    const byPath = new Map(layout.nodes.map((n) => [n.path, n]));
    for (const n of layout.nodes) {
      const parent = byPath.get(n.path.split('.').slice(0, -1).join('.'));
      if (n.path === '' || parent === undefined) continue;
      expect(n.x >= parent.x && n.y >= parent.y && n.x + n.width <= parent.x + parent.width + 0.5 && n.y + n.height <= parent.y + parent.height + 0.5, `${n.path} inside ${parent.path}`).toBe(true);
    }
    for (const e of layout.edges) {
      expect(e.points.length, e.id).toBeGreaterThanOrEqual(2);
      expect(e.label.length).toBeGreaterThan(0);
      for (const p of e.points) expect(p.x >= 0 && p.y >= 0 && p.x <= layout.width + 0.5 && p.y <= layout.height + 0.5, `${e.from} -> ${e.to}`).toBe(true);
    }
    // 514.3a: the cleanup step begins again, drawn to its first state.
    expect(layout.edges).toContainEqual(expect.objectContaining({ from: 'ending.cleanup.priority', to: 'ending.cleanup.discarding', label: 'isStepOver' }));
    expect(layout.edges).toContainEqual(expect.objectContaining({ from: 'combat.declareAttackers.declaring', label: 'DECLARE_ATTACKERS' }));
  });
});
