/**
 * CONTRACT v4, "Package": the modules' names and imports, for the refusals that name them
 * (src/game/module.ts has the modules' interface). Imports nothing.
 */

/** The import of the table module (undo, shortcuts, clocks, away). */
export const TABLE_IMPORT = 'mtg-turn-engine/table';
/** The import of the variants' modules (Grand Melee). */
export const VARIANTS_IMPORT = 'mtg-turn-engine/variants';

/** The name of a module, as a recording keeps it. */
export type ModuleName = 'table' | 'grandMelee';

/** A module's import path. */
export function importOf(name: ModuleName): string {
  return name === 'table' ? TABLE_IMPORT : VARIANTS_IMPORT;
}

/** What to write to have a module: `import { table } from 'mtg-turn-engine/table'` and `use: [table]`. */
export function needs(name: ModuleName): string {
  return `needs the ${name} module: import { ${name} } from '${importOf(name)}' and pass use: [${name}]`;
}

