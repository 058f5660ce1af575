/**
 * Issue 34, reducer parity: the compiled runtime's step makes one context of its own and the
 * effects composed with `andThen` write into it (the draft) instead of copying the context for
 * each effect; patches are set by `assignPatch`, a named store per field. These hold the two
 * fast paths to what they replace: `Object.assign`, and the copying `andThen` (which XState's
 * adapter, published states and what-if copies still take). The lockstep of both runtimes over
 * random games is test/runtime/compiled.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { assignPatch, cloneContext, CONTEXT_KEYS, HOT_FIELDS } from '../../machines/context.js';
import { andThen, draftWriteCount, effect, setDraft } from '../../machines/effect.js';
import { initialContext } from '../../machines/turn.effects.js';
import { toInput } from '../../src/game/create.js';
import type { TurnContext } from '../../src/state.js';

const base = (): TurnContext => cloneContext(initialContext(toInput({ players: ['A', 'B', 'C'], seed: 4 })));

describe('assignPatch: the same as Object.assign, field by field', () => {
  it.each(CONTEXT_KEYS.map((k) => [k]))('sets %s and nothing else, keeping the field order', (key) => {
    const sentinel = { marker: key };
    const target = base();
    const expected = Object.assign(base(), { [key]: sentinel });
    const out = assignPatch(target, { [key]: sentinel } as Partial<TurnContext>);
    expect(out).toBe(target);
    expect(out).toEqual(expected);
    expect(Object.keys(out)).toEqual(CONTEXT_KEYS);
  });

  it('sets several fields, undefined values included, as Object.assign does', () => {
    const patch = { passed: ['A'], priority: null, turn: 9, extraTurn: undefined, pending: [] } as Partial<TurnContext>;
    expect(assignPatch(base(), { ...patch })).toEqual(Object.assign(base(), patch));
  });

  it('names each hot field (a field of the context) in a case of its own', () => {
    const source = assignPatch.toString().replace(/"/g, "'");
    for (const key of HOT_FIELDS) {
      expect(CONTEXT_KEYS, key).toContain(key);
      expect(source, key).toContain(`case '${key}'`);
    }
  });
});

describe('andThen on the draft (CR 117.3d: a pass, then priority to the next player, as a test case)', () => {
  const pass = (c: TurnContext) => effect(c, { passed: ['A'], priority: null }, [{ type: 'autoPass', player: 'A', turn: c.turn, step: c.step, reason: 'noStop' }]);
  const give = (c: TurnContext) => effect(c, { priority: c.passed.length === 1 ? 'B' : 'C', priorityFresh: true });

  it('leaves the same context as the copying path: the draft plus the returned patch', () => {
    const copying = base();
    const copied = andThen(copying, pass(copying), give);
    const expected = Object.assign(cloneContext(copying), copied.patch);

    const draft = base();
    setDraft(draft);
    const before = draftWriteCount();
    let written;
    try {
      written = andThen(draft, pass(draft), give);
    } finally {
      setDraft(null);
    }
    expect(draftWriteCount()).toBe(before + 1);
    expect(assignPatch(draft, written.patch)).toEqual(expected);
    expect(written.emit).toEqual(copied.emit);
    expect(expected.priority).toBe('B');
  });

  it('never writes into a context that is not the draft', () => {
    const published = base();
    const snapshot = structuredClone(published);
    setDraft(base());
    try {
      andThen(published, pass(published), give);
    } finally {
      setDraft(null);
    }
    expect(published).toEqual(snapshot);
  });
});
