/**
 * Recorded games in the inspector (issue 23): a recording (the JSON of `game.recording()`,
 * e.g. from `npx mtg-turn-engine simulate --record game.json`) opened with the file picker or
 * dropped on the page is replayed once into the event log (each entry with the persisted game
 * after it, as the log's time travel needs), and the scrub bar seeks to any version with
 * `replayGame(recording, { until })`, from the nearest snapshot the recording keeps.
 */
import type { Game } from '../../src/game/types.js';
import { replayGame, runReplay } from '../../src/recording/replay.js';
import { allModules } from '../../src/allModules.js';
import { h } from './dom.js';
import { describeEmitted, describeSent, type LogEntry } from './log.js';

/** The largest file the page opens (a 1,000-turn game of two players records about 4 MB). */
export const MAX_RECORDING_BYTES = 64 * 1024 * 1024;

/** An opened recording: the game at its end, and the versions it holds. */
export interface OpenedRecording {
  recording: unknown;
  name: string;
  /** The version of its start and of its end. */
  start: number;
  end: number;
  /** The game at the end of the recording. */
  final: Game;
}

/**
 * Replays a recording into log entries (`add`), the start first, each send with what it emitted;
 * returns the opened recording. Throws an Error saying why a file is not one (its JSON, or
 * `INVALID_RECORDING` naming the field).
 */
export function openRecording(text: string, name: string, add: (entry: Omit<LogEntry, 'id'>) => void): OpenedRecording {
  let recording: unknown;
  try {
    recording = JSON.parse(text);
  } catch (err) {
    throw new Error(`${name} is not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  let start = 0;
  // Where the game was before each send: its entry, and what it emitted until a step begins, are grouped there.
  let before = { turn: 0, step: '' };
  const final = runReplay(recording, { use: allModules }, ({ event, events, game }) => {
    const view = game.view();
    const persisted = game.persist();
    if (event === null) {
      start = view.version;
      add({ turn: view.turn, step: view.step, kind: 'start', label: `recording ${name}: ${view.players.length} players, '${view.rules}' rules, from version ${view.version}`, persisted, version: view.version });
    } else {
      let group = before;
      add({ ...group, kind: 'sent', label: describeSent(event as unknown as Record<string, unknown>), persisted, version: view.version });
      for (const e of events) {
        if (e.type === 'turnBegan') group = { turn: e.turn, step: group.step };
        if (e.type === 'stepBegan') group = { turn: e.turn, step: e.step };
        add({ ...group, kind: 'emitted', label: describeEmitted(e), persisted, version: view.version });
      }
    }
    before = { turn: view.turn, step: view.step };
  });
  return { recording, name, start, end: final.view().version, final };
}

/** The log entry that stands for the state at `version` (seeked with replayGame from the nearest snapshot). */
export function entryAt(opened: OpenedRecording, version: number): LogEntry {
  const game = replayGame(opened.recording, { until: version, use: allModules });
  const view = game.view();
  return { id: -1 - version, turn: view.turn, step: view.step, kind: 'sent', label: `version ${version} of ${opened.end} (turn ${view.turn}, ${view.phase} / ${view.step})`, persisted: game.persist(), version };
}

/** Opens a file dropped anywhere on `target` (the page) with `open`. */
export function acceptDrops(target: Document, open: (file: File) => void): void {
  target.addEventListener('dragover', (e) => {
    if (e.dataTransfer?.types.includes('Files') === true) e.preventDefault();
  });
  target.addEventListener('drop', (e) => {
    const file = e.dataTransfer?.files[0];
    if (file === undefined) return;
    e.preventDefault();
    open(file);
  });
}

/** Reads a file the user picked or dropped, refusing one past {@link MAX_RECORDING_BYTES}. */
export async function readRecordingFile(file: File): Promise<string> {
  if (file.size > MAX_RECORDING_BYTES) throw new Error(`${file.name} has ${file.size} bytes; the page opens recordings of at most ${MAX_RECORDING_BYTES}`);
  return file.text();
}

/** The scrub bar: a range over the recording's versions, with a step back and a step forward. Made once; `update` sets it. */
export class ScrubBar {
  readonly element: HTMLElement;
  readonly #range: HTMLInputElement;
  readonly #status: HTMLElement;

  constructor(onSeek: (version: number) => void) {
    this.#range = h('input', { type: 'range', min: 0, max: 0, step: 1, value: 0, 'data-testid': 'scrub', 'aria-label': 'version', oninput: () => onSeek(Number(this.#range.value)) });
    this.#status = h('span', { class: 'scrub-status', 'data-testid': 'scrub-status' });
    const by = (delta: number) => () => {
      const next = Math.min(Number(this.#range.max), Math.max(Number(this.#range.min), Number(this.#range.value) + delta));
      this.#range.value = String(next);
      onSeek(next);
    };
    this.element = h(
      'section',
      { class: 'recording-bar', 'data-testid': 'recording-bar', hidden: true },
      h('button', { type: 'button', 'data-testid': 'scrub-back', title: 'one version back', onclick: by(-1) }, '◀'),
      this.#range,
      h('button', { type: 'button', 'data-testid': 'scrub-forward', title: 'one version forward', onclick: by(1) }, '▶'),
      this.#status,
    );
  }

  /** Shows the bar for `opened` at `version`, or hides it (null). */
  update(opened: OpenedRecording | null, version: number): void {
    this.element.hidden = opened === null;
    if (opened === null) return;
    this.#range.min = String(opened.start);
    this.#range.max = String(opened.end);
    this.#range.value = String(version);
    this.#status.textContent = `${opened.name}: version ${version} of ${opened.start}–${opened.end}`;
  }
}
