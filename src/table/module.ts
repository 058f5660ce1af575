/**
 * CONTRACT v4: the table as a module a host passes (`import { table } from
 * 'mtg-turn-engine/table'`, then `use: [table]`): undo and shortcuts around the turn
 * (tableLogic.ts), the clocks and the seats (time.ts), and the table's parts of a snapshot
 * (tableRead.ts, src/persistence/time.ts). createGame and the shell reach them only through it.
 */
import type { TableModule } from '../game/module.js';
import type { TurnLogic } from '../game/logic.js';
import { describeIssue } from '../schemas.js';
import { buildTimeSchema, timeProblem } from '../persistence/time.js';
import type { TimeState } from './time.js';
import { awayOther, deadlineOf, dueTick, isTimed, newTime, restoredTime, sendTimed, settledTime, withTimeView } from './time.js';
import { atTable } from './tableLogic.js';
import { restoreShortcut, restoreUndo, type TableReader } from './tableRead.js';
import { policyOf } from './undo.js';
import { timedTurnOf } from './turn.js';

let timeSchema: ReturnType<typeof buildTimeSchema> | undefined;

/** The table (undo, shortcuts, clocks, seats that drop): pass it in `use` for the options `clock`, `undo`, `away` and the table's events. */
export const table: TableModule = {
  module: 'table',
  wrap(turn, undo, restoring) {
    if (restoring === undefined) return atTable(turn, policyOf(undo)) as TurnLogic<unknown, unknown>;
    const reader: TableReader = { undo: (p, current, players, restoreTurn) => restoreUndo(p, current, players, restoreTurn, restoring.parse), shortcut: restoreShortcut };
    return atTable(turn, null, restoring.keepsStates, reader) as TurnLogic<unknown, unknown>;
  },
  newTime,
  timeProblem(time, ctx, version) {
    const parsed = (timeSchema ??= buildTimeSchema()).safeParse(time);
    return parsed.success ? timeProblem(parsed.data as TimeState, ctx, version) : describeIssue(parsed.error, 'snapshot.time');
  },
  restoredTime,
  isTimed,
  sendTimed,
  settledTime,
  deadlineOf,
  withTimeView,
  dueTick,
  awayOther,
  timed: timedTurnOf,
};
