/**
 * One record per event (issue 21; src/events/): for every event type, its record and what the
 * engine reads from it, checked against the schema and the chart; and no table of event types
 * written by hand anywhere else in src/, machines/ or the inspector (the tables are derived from
 * the records in src/events/index.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import type { AnyStateNode } from 'xstate';
import { describe, expect, it } from 'vitest';
import { turnMachine } from '../../machines/turn.machine.js';
import {
  ALL_EVENT_TYPES,
  ALWAYS_OFFERED,
  ANSWERS,
  DECISIONS,
  EVENTS,
  EVENT_TYPES,
  GAME_WIDE,
  HOST_EFFECT_TYPES,
  LEAVING,
  LEGALITY,
  PLAINEST,
  PLAINEST_ANSWER,
  PLAYER_FIELDS,
  READS_AWAITING,
  AT_TABLE_EVENTS,
  TABLE_EVENTS,
  TEAMMATE_MAY_ANSWER,
  type EventRecord,
  type EventType,
} from '../../src/events/index.js';

const root = resolve(import.meta.dirname, '../..');
const recordOf = (type: EventType) => EVENTS[type] as EventRecord<EventType>;

/** One line saying what a record says. */
function summary(type: EventType): string {
  const r = recordOf(type);
  return [
    r.schema === null ? "the engine's own (no schema)" : r.fast === undefined ? 'zod' : 'zod + fast path',
    r.awaits === undefined ? 'host event' : `answers ${r.awaits}${r.teammateMayAnswer ? ' (or a teammate)' : ''}`,
    `names ${r.players.length === 0 ? 'no player' : r.players.join(', ')}`,
    r.template === undefined ? 'not offered' : `offered, choose [${r.template.choose.join(', ')}]`,
    r.plainest ? 'plainest' : '',
    r.hostEffect ? 'hostEffect' : '',
    r.changesLater ? 'changes later' : '',
    r.table ? 'table' : '',
    r.atTable ? 'taken by the table around the turn' : '',
    `route ${r.route}`,
  ]
    .filter((s) => s !== '')
    .join('; ');
}

/** The fields of a record's schema (its zod object's shape). */
function shapeOf(type: EventType): Record<string, unknown> {
  return ((recordOf(type).schema as unknown as { shape?: Record<string, unknown> } | null)?.shape ?? {}) as Record<string, unknown>;
}

/** Every state node of the chart. */
function nodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap(nodes)];
}

/** For every event type the chart names, the actions of its transitions. */
function chartEvents(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const node of nodes(turnMachine.root)) {
    for (const [type, transitions] of Object.entries(node.on)) {
      const actions = out.get(type) ?? new Set<string>();
      for (const t of transitions) for (const a of t.actions) actions.add(typeof a === 'string' ? a : (a as { type: string }).type);
      out.set(type, actions);
    }
  }
  return out;
}

describe('one record per event (src/events/)', () => {
  const chart = chartEvents();

  it.each(ALL_EVENT_TYPES.map((type) => [type, summary(type)]))('%s: %s', (type) => {
    const t = type as EventType;
    const r = recordOf(t);
    const shape = shapeOf(t);
    // Its schema is of its own type; the engine's own events have none (hosts cannot send them).
    if (r.schema === null) {
      expect(EVENT_TYPES).not.toContain(t);
      expect(r.fast, 'a fast path needs a schema').toBeUndefined();
    } else {
      expect((shape.type as { options: string[] }).options).toEqual([t]);
      expect(EVENT_TYPES).toContain(t);
    }
    // The players it names are fields of its schema, walked by the gate in the record's order.
    expect(PLAYER_FIELDS[t].map((f) => f.path)).toEqual(r.players);
    if (r.schema !== null) for (const f of PLAYER_FIELDS[t]) expect(Object.keys(shape), f.path).toContain(f.key);
    // Its legality row.
    expect(LEGALITY[t]).toBe(r.legality);
    // What it answers, who may answer, how legalActions offers it and what the caller chooses.
    expect(DECISIONS.has(t)).toBe(r.awaits !== undefined);
    if (r.awaits !== undefined) {
      expect(typeof r.teammateMayAnswer).toBe('boolean');
      expect(r.template, 'a decision is offered by legalActions').toBeDefined();
      expect(ANSWERS[r.awaits]).toContain(t);
    } else {
      // The table offers its own events from its state (src/table/tableLogic.ts), not at any time.
      expect(ALWAYS_OFFERED.includes(t)).toBe(r.template !== undefined && r.atTable !== true);
    }
    for (const field of r.template?.choose ?? []) expect(Object.keys(shape)).toContain(field);
    // The chart has a transition for it, applied by hostEffect exactly when the record says so; the
    // table's events (the host's clock and the seats, src/table/time.ts; undo and shortcuts,
    // src/table/tableLogic.ts) never reach the chart.
    expect(chart.has(t), 'the chart names it').toBe(r.table !== true && r.atTable !== true);
    expect(TABLE_EVENTS.has(t)).toBe(r.table === true);
    expect(AT_TABLE_EVENTS.has(t)).toBe(r.atTable === true);
    if (r.table === true) expect([r.awaits, r.template, r.hostEffect], 'a table event is a host event the chart never takes').toEqual([undefined, undefined, undefined]);
    expect(chart.get(t)?.has('applyHostEvent') ?? false).toBe(r.hostEffect === true);
    expect(HOST_EFFECT_TYPES.has(t)).toBe(r.hostEffect === true);
    // Its Grand Melee route.
    expect(['leaving', 'gameWide', 'turn']).toContain(r.route);
    expect(LEAVING.has(t)).toBe(r.route === 'leaving');
    expect(GAME_WIDE.has(t)).toBe(r.route === 'gameWide');
  });

  it('covers every event the chart names, and nothing else (but the table\'s, which the chart never takes)', () => {
    expect([...chart.keys()].sort()).toEqual(ALL_EVENT_TYPES.filter((t) => !TABLE_EVENTS.has(t) && !AT_TABLE_EVENTS.has(t)).sort());
  });

  it('gives each kind of what is awaited one plainest answer, first among its answers, and one answer about teammates', () => {
    for (const [kind, answers] of Object.entries(ANSWERS)) {
      const plainest = answers.filter((t) => recordOf(t).plainest === true);
      expect(plainest, kind).toEqual([PLAINEST_ANSWER[kind as keyof typeof PLAINEST_ANSWER]]);
      expect(answers[0], kind).toBe(plainest[0]);
      const teammates = new Set(answers.map((t) => recordOf(t).teammateMayAnswer));
      expect(teammates.size, kind).toBe(1);
      expect(TEAMMATE_MAY_ANSWER[kind as keyof typeof TEAMMATE_MAY_ANSWER]).toBe([...teammates][0]);
    }
    for (const t of PLAINEST) expect(recordOf(t).awaits === undefined || PLAINEST_ANSWER[recordOf(t).awaits as keyof typeof PLAINEST_ANSWER] === t).toBe(true);
  });

  it('reads what is awaited exactly for the decisions that answer something other than priority', () => {
    expect([...READS_AWAITING].sort()).toEqual(ALL_EVENT_TYPES.filter((t) => recordOf(t).awaits !== undefined && recordOf(t).awaits !== 'priority' && recordOf(t).atTable !== true).sort());
  });
});

// No table of event types written by hand outside the records.

/** Where a hand-written table of event types may be, and why. */
const ALLOWED: Record<string, string> = {
  'machines/turn.machine.ts': 'the chart: each transition names its event (one of the six places a new decision touches)',
  'machines/host.effects.ts': "HOST_EFFECTS: each host event's effect, its keys checked by the compiler against the records that say hostEffect",
  'src/table/tableLogic.ts': "the table's steps: each undo and shortcut event's, their keys checked by the compiler against the records that say atTable",
  'src/table/tableChecks.ts': "the table's checks: each undo and shortcut event's, their keys checked by the compiler against the records that say atTable",
  'src/conformance/features.ts': "the conformance kit's feature of each event type a scenario may send, the contract's events this engine does not take yet (TICK, SET_SEAT_STATUS, ...) included: about other engines, not this one's records",
};

/**
 * Known hand-written lists in files this change could not edit, each to be replaced by a table of
 * src/events/index.ts by the change that rewrites the file: file -> the names it lists.
 */
const PENDING: Record<string, string[][]> = {
  // applyEvents: the leaving events (LEAVING).
};

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const NAMES: ReadonlySet<string> = new Set(ALL_EVENT_TYPES);

/** The event type a node names: a string literal, an identifier or a property name spelled as one. */
function nameOf(node: ts.Node | undefined): string | null {
  if (node === undefined) return null;
  if (ts.isStringLiteralLike(node) || ts.isIdentifier(node)) return NAMES.has(node.text) ? node.text : null;
  if (ts.isComputedPropertyName(node)) return nameOf(node.expression);
  return null;
}

/** A comparison of something with an event type (`e.type === 'KEEP'`), its name. */
function comparedName(node: ts.Node): string | null {
  if (!ts.isBinaryExpression(node)) return null;
  const op = node.operatorToken.kind;
  if (op !== ts.SyntaxKind.EqualsEqualsEqualsToken && op !== ts.SyntaxKind.ExclamationEqualsEqualsToken) return null;
  return nameOf(node.right) ?? nameOf(node.left);
}

/** The names compared in one chain of `&&` / `||` (parentheses included). */
function chainNames(node: ts.Node): string[] {
  if (ts.isParenthesizedExpression(node)) return chainNames(node.expression);
  if (ts.isBinaryExpression(node) && (node.operatorToken.kind === ts.SyntaxKind.BarBarToken || node.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken)) {
    return [...chainNames(node.left), ...chainNames(node.right)];
  }
  const name = comparedName(node);
  return name === null ? [] : [name];
}

const isChain = (node: ts.Node) => ts.isBinaryExpression(node) && (node.operatorToken.kind === ts.SyntaxKind.BarBarToken || node.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken);

/**
 * The hand-written tables of event types in a module: a list (array or Set) or an object naming
 * two or more event types, a `switch` with cases for two or more, or one condition comparing
 * with three or more.
 */
export function handWrittenTables(text: string, file = 'module.ts'): { line: number; kind: string; names: string[] }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { line: number; kind: string; names: string[] }[] = [];
  const add = (node: ts.Node, kind: string, names: string[], min = 2) => {
    if (names.length >= min) found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, kind, names });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isArrayLiteralExpression(node)) add(node, 'list', node.elements.map(nameOf).filter((n) => n !== null));
    else if (ts.isObjectLiteralExpression(node)) add(node, 'object', node.properties.map((p) => nameOf(p.name)).filter((n) => n !== null));
    else if (ts.isSwitchStatement(node)) add(node, 'switch', node.caseBlock.clauses.flatMap((c) => (ts.isCaseClause(c) ? [nameOf(c.expression)] : [])).filter((n) => n !== null));
    else if (isChain(node) && !(node.parent !== undefined && (isChain(node.parent) || (ts.isParenthesizedExpression(node.parent) && isChain(node.parent.parent))))) add(node, 'condition', chainNames(node), 3);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('no table of event types written by hand outside src/events/', () => {
  it('finds the tables it looks for (the check itself works)', () => {
    const sample = [
      "const LEAVING = new Set(['CONCEDE', 'LOSE']);",
      'const T = { PASS_PRIORITY: 1, KEEP: 2 };',
      "switch (e.type) { case 'KEEP': case 'MULLIGAN': break; }",
      "const x = a.type !== 'CONCEDE' && a.type !== 'CAST_SPELL' && (a.type !== 'PLAY_LAND');",
      "const ok = e.type === 'KEEP' || e.type === 'MULLIGAN';",
      "const one = ['PASS_PRIORITY'];",
    ].join('\n');
    expect(handWrittenTables(sample).map((t) => [t.line, t.kind, t.names])).toEqual([
      [1, 'list', ['CONCEDE', 'LOSE']],
      [2, 'object', ['PASS_PRIORITY', 'KEEP']],
      [3, 'switch', ['KEEP', 'MULLIGAN']],
      [4, 'condition', ['CONCEDE', 'CAST_SPELL', 'PLAY_LAND']],
    ]);
  });

  it('in src/, machines/ and inspector/src/: only the records, the chart and the effects list event types', () => {
    const found: string[] = [];
    for (const file of [...sources('src'), ...sources('machines'), ...sources('inspector/src')]) {
      const path = relative(root, join(root, file));
      if (path.startsWith('src/events/') || path === 'src/contract.ts' || ALLOWED[path] !== undefined) continue;
      const pending = PENDING[path] ?? [];
      for (const t of handWrittenTables(readFileSync(join(root, file), 'utf8'), path)) {
        if (pending.some((names) => names.join() === t.names.join())) continue;
        found.push(`${path}:${t.line}: a ${t.kind} of ${t.names.join(', ')} (derive it from the records in src/events/index.ts)`);
      }
    }
    expect(found).toEqual([]);
  });
});
