/**
 * The hooks around one send of a game (src/game/shell.ts): the hooks' answers taken off the
 * tape for the recording, `hooks.settled` told once at the end of a send, and what a recording
 * names of the game's modules.
 */
import type { GameHooksRuntime, HookReport } from '../../machines/hooks.js';
import { describeThrown } from '../errors.js';
import type { RestoreOptions } from './types.js';
import type { RecordingBase } from '../recording/recorder.js';
import type { HookTape } from '../recording/tape.js';
import { namesOf, type Modules } from './module.js';

/** The hooks' answers of the send that ends (a recorded game's), the tape cleared for the next. */
export function takeLog(tape: HookTape | null): (HookReport | boolean)[] | null {
  if (tape === null) return null;
  const log = tape.log;
  tape.log = null;
  return log;
}

/** CONTRACT v3, `hooks.settled`: once at the end of a send that called the checkpoint; a throw is reported, never raised. */
export function settleHooks(hooks: RestoreOptions['hooks'], runtime: GameHooksRuntime | undefined, ok: boolean, version: number, seq: number): void {
  const settled = hooks?.settled;
  if (settled === undefined || runtime === undefined || runtime.calls === 0) return;
  runtime.calls = 0;
  try {
    settled({ ok, version, seq });
  } catch (err) {
    console.error(`mtg-turn-engine: hooks.settled threw (ignored): ${describeThrown(err)}`);
  }
}

/** CONTRACT v4: a recording names the modules its game had. */
export function withUse(base: RecordingBase, modules: Modules): RecordingBase {
  const use = namesOf(modules);
  return use === undefined ? base : { ...base, use };
}
