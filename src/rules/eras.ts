/**
 * The rules eras, side by side: one record per era, read by the rules that differ.
 * A new era is one more record here. The "Rules eras" table of docs/rules.md is generated from this
 * data (`eraTable()`), and a test fails if the two disagree.
 */
import type { RulesEra } from '../contract.js';

/** What distinguishes one era's turn from another's. */
export interface Era {
  /** A short description, with the dates it covers. */
  label: string;
  /** When mana pools empty: at the end of every step (CR 500.5) or only of every phase (classic 300.3). */
  manaEmpties: 'step' | 'phase';
  /** Whether unspent mana burns its owner as it empties (classic 300.3). */
  manaBurn: boolean;
  /** Whether combat damage uses the stack (classic 310.4): one object that deals it when it resolves. */
  combatDamageOnStack: boolean;
  /** Whether blockers and attackers are put in damage assignment order (CR 509.2, 509.3, 2009-2024). */
  damageAssignmentOrder: boolean;
  /** Whether declaring no attackers skips the rest of the declare attackers step too (classic 308.5). */
  noAttackersSkipsRestOfStep: boolean;
  /** Whether ending the turn or the combat makes the triggered abilities waiting to be put on the stack cease to exist (CR 724.1a, from 2015; classic 509.1 has no such rule: they go on the stack in the cleanup step). */
  endingDropsWaitingTriggers: boolean;
  /**
   * Whether ending the turn removes the attacking and blocking creatures from combat before its check of
   * state-based actions (classic 509.1a-b, May 2009), not as the step ends after it (CR 724.1c-d). The
   * 2009-2024 rules said "before" until 2019 (711.1a of July 2009 to 716.1b of July 2019) and "after" by
   * 2021 (717.1c-d); 'm10' follows their last text (July 2024, 721.1c-d), as its other rules do.
   */
  endTurnLeavesCombatFirst: boolean;
}

/** The eras, side by side. */
export const ERAS: Readonly<Record<RulesEra, Era>> = {
  current: {
    label: "today's Comprehensive Rules (from November 2024)",
    manaEmpties: 'step',
    manaBurn: false,
    combatDamageOnStack: false,
    damageAssignmentOrder: false,
    noAttackersSkipsRestOfStep: false,
    endingDropsWaitingTriggers: true,
    endTurnLeavesCombatFirst: false,
  },
  m10: {
    label: 'Magic 2010 (July 2009) to November 2024',
    manaEmpties: 'step',
    manaBurn: false,
    combatDamageOnStack: false,
    damageAssignmentOrder: true,
    noAttackersSkipsRestOfStep: false,
    endingDropsWaitingTriggers: true,
    endTurnLeavesCombatFirst: false,
  },
  classic: {
    label: 'before Magic 2010 (Sixth Edition rules, 1999-2009)',
    manaEmpties: 'phase',
    manaBurn: true,
    combatDamageOnStack: true,
    damageAssignmentOrder: false,
    noAttackersSkipsRestOfStep: true,
    endingDropsWaitingTriggers: false,
    endTurnLeavesCombatFirst: true,
  },
};

/** The names of the eras, in the order of {@link ERAS}. */
export const ERA_NAMES = /* @__PURE__ */ Object.keys(ERAS) as RulesEra[];

/** The era record of a game. */
export function eraOf(ctx: { rules: RulesEra }): Era {
  return ERAS[ctx.rules];
}

const ROWS: readonly [keyof Era, string][] = [
  ['label', 'covers'],
  ['manaEmpties', 'mana empties at the end of each'],
  ['manaBurn', 'mana burn'],
  ['combatDamageOnStack', 'combat damage uses the stack'],
  ['damageAssignmentOrder', 'damage assignment order'],
  ['noAttackersSkipsRestOfStep', 'no attackers skips the rest of the declare attackers step'],
  ['endingDropsWaitingTriggers', 'ending the turn drops the triggers waiting (724.1a)'],
  ['endTurnLeavesCombatFirst', 'ending the turn removes creatures from combat before its state-based check (509.1a-b; 724.1c-d: after)'],
];

/** The eras as a Markdown table, one column per era (docs/rules.md shows it). */
export function eraTable(): string {
  const cell = (v: unknown) => (v === true ? 'yes' : v === false ? 'no' : String(v));
  const lines = [`| | ${ERA_NAMES.map((n) => `'${n}'`).join(' | ')} |`, `|---|${ERA_NAMES.map(() => '---').join('|')}|`];
  for (const [key, title] of ROWS) lines.push(`| ${title} | ${ERA_NAMES.map((n) => cell(ERAS[n][key])).join(' | ')} |`);
  return lines.join('\n');
}
