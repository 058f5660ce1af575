/**
 * What an accepted send changed in the view, as the engine knows it (CONTRACT v4, "Serving
 * games": updates carry what changed; DESIGN "The server: one pipeline, cheap per send"). A
 * context is never changed in place (src/view.ts): a view field all of whose context fields are
 * the same objects after the send as before is the same. The table server diffs only inside the
 * fields that may have changed, never the whole view.
 */
import type { TurnView } from './contract.js';
import type { TurnContext } from './state.js';
import { VIEW_KEY, withViewChanges } from './game/shell.js';

/**
 * The context fields each view field is made of (src/view.ts `buildView`, and src/seats.ts for a
 * seat's view, which depends on the viewer only). A view field not named here (the stack, which a
 * game may pop in place; `awaiting`, made from the chart's state; `schedule`; the table's clocks
 * and seats; any field a logic adds) may always have changed.
 */
const MADE_OF: Readonly<Partial<Record<keyof TurnView, readonly (keyof TurnContext)[]>>> = {
  currentTurn: ['phase', 'turnOwner', 'extraTurn'],
  turn: ['turn'],
  activePlayer: ['activePlayer', 'players', 'teams', 'variant'],
  activeTeam: ['activePlayer', 'teams'],
  phase: ['phase'],
  step: ['step'],
  priority: ['result', 'priority', 'players', 'teams', 'variant'],
  decidedBy: ['controlledBy', 'players'],
  landsPlayed: ['landsPlayedBy', 'activePlayer', 'teams', 'variant'],
  landsPlayedBy: ['landsPlayedBy', 'players'],
  landPlaysAllowed: ['effects', 'activePlayer'],
  landPlaysAllowedBy: ['effects', 'activePlayer', 'players', 'teams', 'variant'],
  spellsCast: ['spellsCast', 'players'],
  manaPool: ['manaPool', 'players'],
  handSizes: ['handSizes', 'players'],
  maxHandSize: ['maxHandSize', 'effects', 'players'],
  players: ['players'],
  teams: ['teams', 'players'],
  dayNight: ['dayNight'],
  combat: ['combat'],
  effects: ['effects'],
  stops: ['stops', 'players'],
  gameOver: ['result'],
  rules: ['rules'],
};

const FIELDS = Object.keys(MADE_OF) as (keyof TurnView)[];

/** Every context field some view field is made of, each with its bit (at most 31). */
const PARTS = [...new Set(Object.values(MADE_OF).flat())] as (keyof TurnContext)[];
if (PARTS.length > 30) throw new Error('src/viewChanges.ts: more context fields than bits');
const PART_BIT = new Map(PARTS.map((part, i) => [part, 1 << i]));
/** Each field of {@link FIELDS} as the bits of the context fields it is made of. */
const FIELD_BITS = FIELDS.map((field) => (MADE_OF[field] as readonly (keyof TurnContext)[]).reduce((bits, part) => bits | (PART_BIT.get(part) as number), 0));

/** The sets of unchanged fields made so far, by the bits of the context fields that changed (a few patterns recur: each set is made once). */
const SAME_BY_CHANGE = new Map<number, ReadonlySet<keyof TurnView>>();

/**
 * The view fields certainly unchanged from the context `before` to the context `after` (every
 * context field they are made of the same object, or the same primitive). Every other field of
 * the view (`version` and `seq` among them) may have changed. Each context field is compared once
 * (issue 31); the set returned is shared by every call with the same changes: only read it.
 */
export function unchangedViewFields(before: TurnContext, after: TurnContext): ReadonlySet<keyof TurnView> {
  let changed = 0;
  if (before !== after) {
    for (let i = 0; i < PARTS.length; i++) {
      const part = PARTS[i] as keyof TurnContext;
      if (before[part] !== after[part]) changed |= 1 << i;
    }
  }
  let same = SAME_BY_CHANGE.get(changed);
  if (same === undefined) {
    const fields = new Set<keyof TurnView>();
    for (let i = 0; i < FIELDS.length; i++) if ((changed & (FIELD_BITS[i] as number)) === 0) fields.add(FIELDS[i] as keyof TurnView);
    same = fields;
    if (SAME_BY_CHANGE.size < 1024) SAME_BY_CHANGE.set(changed, same);
  }
  return same;
}

/**
 * @internal What the last accepted send left unchanged in the view (a Game's; src/server asks it):
 * null when not known. The game reads it with {@link unchangedViewFields}, set here as this file
 * loads (the shell does not import it: a browser's bundle has none of it).
 */
export const VIEW_UNCHANGED: typeof VIEW_KEY = withViewChanges(unchangedViewFields);
