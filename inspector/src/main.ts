/**
 * The inspector page: the chart, the game panel, the controls and the event log, for a
 * game played in this page (local mode), followed from another process (remote mode), or
 * opened from a recording (recording mode: the file picker or a file dropped on the page,
 * scrubbed with the scrub bar and the log's time travel), or a game of the table server that
 * serves the page, read as a recording while it goes on (served mode, served.ts).
 */
import './no-eval.js';
import './style.css';
import { turnMachine } from '../../machines/turn.machine.js';
import type { EmittedEvent, TurnView, Trigger } from '../../src/contract.js';
import { createGame, restoreGame } from '../../src/game/create.js';
import { allModules } from '../../src/allModules.js';
import { chartSnapshotOf } from '../../src/game/actor.js';
import { type Game, type GameOptions } from '../../src/game/types.js';
import type { PersistedFull } from '../../src/persistence/format.js';
import { concreteEvent, seededRandom } from '../../src/simulation.js';
import { statePath } from '../../src/persistence/format.js';
import type { SnapshotLike as ViewSnapshot } from '../../src/view.js';

/** A snapshot the page shows: the view's parts and the state value the chart highlights. */
type SnapshotLike = ViewSnapshot & { value: unknown };
/** What the page shows of a game: its chart snapshot and its view (with every turn marker's turn in Grand Melee). */
interface Shown {
  snapshot: SnapshotLike;
  view: TurnView;
}
import layout from 'virtual:chart-layout';
import { renderChart } from './chart.js';
import { activePaths } from './chart.model.js';
import { graphSection, renderGraph } from './graph.js';
import { awaitedPlayers, newDrafts, renderControls } from './controls.js';
import { fill, h } from './dom.js';
import { describeEmitted, describeSent, LogView, type LogEntry } from './log.js';
import { describeGame, gameOptionsOf, newGameFields, type NewGameSettings } from './newgame.js';
import { renderPanel } from './panel.js';
import { followRemote, relayUrl } from './remote.js';
import { acceptDrops, entryAt, openRecording, readRecordingFile, ScrubBar, type OpenedRecording } from './recording.js';
import { ServedGames, takeKey, type ServedGame } from './served.js';

type Mode = 'local' | 'remote' | 'recording' | 'served';

/** The inspect key of the table server serving the page (served mode), or null; `given`: in this page's address. */
const { key: inspectKey, given: keyGiven } = takeKey();

/** The log keeps at most this many entries (the oldest are dropped). */
const MAX_LOG_ENTRIES = 3000;
/** Autoplay's pace, in milliseconds per action. */
const AUTOPLAY_INTERVAL_MS = 600;

const state = {
  mode: 'local' as Mode,
  game: null as Game | null,
  settings: { players: 2, starting: 'A', rules: 'current', variant: 'freeForAll' } as NewGameSettings,
  /** Why the form's last game could not be made (createGame's INVALID_OPTIONS), or null. */
  formError: null as string | null,
  entries: [] as LogEntry[],
  nextId: 1,
  viewing: null as LogEntry | null,
  restored: new Map<number, Shown>(),
  cleanupQueue: [] as Trigger[],
  drafts: newDrafts(),
  autoplay: null as ReturnType<typeof setInterval> | null,
  random: seededRandom(1),
  stopRemote: null as (() => void) | null,
  remote: { status: 'not connected', latest: null as PersistedFull | null },
  /** The recording on show (recording mode), and why the last file opened was refused. */
  opened: null as OpenedRecording | null,
  recordingError: null as string | null,
  /** The games of the table server serving the page (served mode), or null. */
  served: null as ServedGames | null,
};

/** Whether the page shows a recording (a file, or a served game read as one). */
const replaying = () => state.mode === 'recording' || state.mode === 'served';
const stopServed = () => void (state.served?.stop(), (state.served = null));

const chart = renderChart(turnMachine.root);
const graph = renderGraph(layout);
const header = h('header', {});
const scrubBar = new ScrubBar((version) => seek(version));
const banner = h('div', { class: 'banner', 'data-testid': 'time-travel', hidden: true });
const panel = h('section', { class: 'panel', 'data-testid': 'panel' });
const controls = h('section', { class: 'controls', 'data-testid': 'controls' });
const logBox = h('section', { class: 'log-box' });
// The log grows in place: a long game never re-renders what is already shown.
const logView = new LogView((entry) => view(entry));
logBox.append(h('h2', {}, 'Event log ', h('small', {}, '(click an entry to see the state after it)')), logView.element);
document.body.append(header, scrubBar.element, h('main', {}, h('section', { class: 'chart-box' }, banner, chart.element), graphSection(graph, 'The statechart, laid out by elkjs'), h('div', { class: 'columns' }, panel, controls, logBox)));

function addEntry(entry: Omit<LogEntry, 'id'>): LogEntry {
  const full = { ...entry, id: state.nextId++ };
  state.entries.push(full);
  if (state.entries.length > MAX_LOG_ENTRIES) state.entries.splice(0, state.entries.length - MAX_LOG_ENTRIES);
  return full;
}

/** The checkpoint hook of local games: reports the queued triggers in a cleanup step's own check (CR 514.3a). */
const hooks: GameOptions['hooks'] = {
  checkpoint: (view) => (view.step === 'cleanup' && view.priority === null && state.cleanupQueue.length > 0 ? { triggers: state.cleanupQueue.splice(0) } : undefined),
};

function newGame(settings: NewGameSettings): void {
  const options = gameOptionsOf(settings);
  try {
    state.game = createGame({ ...options, hooks, use: allModules });
    state.formError = null;
  } catch (err) {
    // The game on show stays; the form says why the new one was refused.
    state.formError = err instanceof Error ? err.message : String(err);
    return;
  }
  state.entries = [];
  state.viewing = null;
  state.restored.clear();
  state.cleanupQueue = [];
  state.drafts = newDrafts();
  state.random = seededRandom(1);
  const v = state.game.view();
  addEntry({ turn: v.turn, step: v.step, kind: 'start', label: `new game: ${describeGame(options)}; ${v.activePlayer ?? options.startingPlayer} starts; '${settings.rules}' rules`, persisted: state.game.persist() });
}

function send(event: Record<string, unknown>): void {
  const game = state.game;
  if (game === null || state.viewing !== null || state.mode !== 'local') return;
  const before = game.view();
  const emitted: EmittedEvent[] = [];
  const off = game.on('*', (e) => emitted.push(e));
  const result = game.send(event as unknown);
  off();
  const persisted = game.persist();
  addEntry({
    turn: before.turn,
    step: before.step,
    kind: result.ok ? 'sent' : 'refused',
    label: describeSent(event),
    detail: result.ok ? undefined : `${result.error.code}${result.error.rule ? ` (CR ${result.error.rule})` : ''}: ${result.error.message}`,
    persisted,
  });
  let group = { turn: before.turn, step: before.step as string };
  for (const e of emitted) {
    if (e.type === 'turnBegan') group = { turn: e.turn, step: group.step };
    if (e.type === 'stepBegan') group = { turn: e.turn, step: e.step };
    addEntry({ ...group, kind: 'emitted', label: describeEmitted(e), persisted });
  }
  render();
}

function shownOf(game: Game): Shown {
  return { snapshot: chartSnapshotOf(game), view: game.view() };
}

function snapshotOf(entry: LogEntry): Shown {
  let s = state.restored.get(entry.id);
  if (s === undefined) {
    s = shownOf(restoreGame(entry.persisted, { use: allModules }));
    state.restored.set(entry.id, s);
  }
  return s;
}

function view(entry: LogEntry | null): void {
  state.viewing = entry;
  if (entry !== null) setAutoplay(false);
  render();
}

function resumeFrom(entry: LogEntry): void {
  state.game = restoreGame(entry.persisted, { hooks, use: allModules });
  if (replaying()) {
    stopServed();
    // A recorded game played on from here: a local game, its log the recording's up to here.
    const version = entry.version ?? Infinity;
    state.entries = state.entries.filter((e) => (e.version ?? 0) <= version);
    state.mode = 'local';
    state.opened = null;
    state.restored.clear();
  } else state.entries = state.entries.filter((e) => e.id <= entry.id);
  state.viewing = null;
  render();
}

/** Opens a recording (picked or dropped): replayed into the log, shown at its end; a file that is not one is reported in the header. */
async function openFile(file: File): Promise<void> {
  try {
    const text = await readRecordingFile(file);
    const entries: LogEntry[] = [];
    let id = state.nextId;
    const opened = openRecording(text, file.name, (entry) => void entries.push({ ...entry, id: id++ }));
    setAutoplay(false);
    state.stopRemote?.();
    state.stopRemote = null;
    stopServed();
    state.mode = 'recording';
    state.opened = opened;
    state.nextId = id;
    state.entries = entries.slice(-MAX_LOG_ENTRIES);
    state.viewing = null;
    state.restored.clear();
    state.recordingError = null;
  } catch (err) {
    state.recordingError = `${file.name}: ${err instanceof Error ? err.message : String(err)}`;
  }
  render();
}

/** A served game's recording (again, as its version moved): shown at its end, unless the log's time travel or the scrub bar is elsewhere. */
function openServed(text: string, game: ServedGame): void {
  if (state.mode !== 'served') return;
  try {
    const entries: LogEntry[] = [];
    let id = state.nextId;
    const opened = openRecording(text, `game ${game.gameId}`, (entry) => void entries.push({ ...entry, id: id++ }));
    state.opened = opened;
    state.nextId = id;
    state.entries = entries.slice(-MAX_LOG_ENTRIES);
    state.restored.clear();
  } catch (err) {
    if (state.served !== null) state.served.status = `game ${game.gameId} could not be opened: ${err instanceof Error ? err.message : String(err)}`;
  }
  render();
}

/** The scrub bar moved: the state at that version (the end is the recording's own game). */
function seek(version: number): void {
  const opened = state.opened;
  if (opened === null) return;
  state.viewing = version === opened.end ? null : entryAt(opened, version);
  render();
}

// A recording dropped anywhere on the page opens (issue 23).
acceptDrops(document, (file) => void openFile(file));

function autoplayStep(): void {
  const game = state.game;
  if (game === null || state.viewing !== null || state.mode !== 'local') return setAutoplay(false);
  const v = game.view();
  const awaited = v.awaiting === null ? [] : game.legalActions(v.awaiting.player).filter((a) => a.type !== 'CONCEDE');
  if (awaited.length === 0) return setAutoplay(false);
  const pass = awaited.find((a) => a.type === 'PASS_PRIORITY');
  const choice = pass !== undefined && state.random() < 0.8 ? pass : awaited[Math.floor(state.random() * awaited.length)];
  if (choice !== undefined) send(concreteEvent(choice, v, state.random, state.nextId));
}

function setAutoplay(on: boolean): void {
  if (state.autoplay !== null) clearInterval(state.autoplay);
  state.autoplay = on ? setInterval(autoplayStep, AUTOPLAY_INTERVAL_MS) : null;
  const box = header.querySelector<HTMLInputElement>('[data-testid="autoplay"]');
  if (box) box.checked = on;
}

function setMode(mode: Exclude<Mode, 'recording'>, gameId: string | null = null): void {
  setAutoplay(false);
  state.stopRemote?.();
  state.stopRemote = null;
  stopServed();
  state.mode = mode;
  state.opened = null;
  state.viewing = null;
  state.restored.clear();
  if (mode === 'local') {
    newGame(state.settings);
  } else if (mode === 'served') {
    state.entries = [];
    const served = new ServedGames(inspectKey ?? '', openServed, () => render());
    state.served = served;
    void served.start(gameId);
  } else {
    state.entries = [];
    state.remote = { status: `waiting for a game on ${relayUrl(location)}`, latest: null };
    state.stopRemote = followRemote(relayUrl(location), (s, fresh) => {
      if (fresh) {
        state.entries = [];
        state.restored.clear();
      }
      const prev = state.remote.latest?.context ?? s.persisted.context;
      state.remote = { status: `following game ${s.sessionId}`, latest: s.persisted };
      const isInit = s.event.type === 'xstate.init';
      addEntry({ turn: prev.turn, step: prev.step, kind: isInit ? 'start' : 'sent', label: isInit ? 'game started' : describeSent(s.event), persisted: s.persisted });
      render();
    });
  }
  if (mode !== 'served') history.replaceState(null, '', mode === 'remote' ? '#remote' : location.pathname + location.search);
  render();
}

function renderHeader(): void {
  const s = state.settings;
  fill(
    header,
    h('h1', {}, 'mtg-turn-engine ', h('span', {}, 'inspector')),
    h(
      'nav',
      { class: 'modes' },
      h('button', { type: 'button', 'data-testid': 'mode-local', 'aria-pressed': String(state.mode === 'local'), onclick: () => setMode('local') }, 'Local game'),
      h('button', { type: 'button', 'data-testid': 'mode-remote', 'aria-pressed': String(state.mode === 'remote'), onclick: () => setMode('remote') }, 'Remote game'),
      inspectKey === null ? null : h('button', { type: 'button', 'data-testid': 'mode-served', 'aria-pressed': String(state.mode === 'served'), onclick: () => setMode('served') }, 'Served games'),
      h(
        'label',
        { class: 'open-recording', 'aria-pressed': String(state.mode === 'recording'), title: 'open a recording (simulate --record, game.recording()); or drop one on the page' },
        'Open recording…',
        h('input', { type: 'file', accept: '.json,application/json', 'data-testid': 'open-recording', onchange: (e: Event) => {
          const input = e.target as HTMLInputElement;
          const file = input.files?.[0];
          if (file !== undefined) void openFile(file);
          input.value = '';
        } }),
      ),
    ),
    state.recordingError === null ? null : h('span', { class: 'form-error', 'data-testid': 'recording-error' }, state.recordingError),
    state.mode === 'served' && state.served !== null
      ? state.served.header()
      : state.mode === 'recording'
      ? h('p', { class: 'remote-status', 'data-testid': 'recording-status' }, `recording ${state.opened?.name ?? ''}: versions ${state.opened?.start}–${state.opened?.end}; scrub with the bar below or click the log`)
      : state.mode === 'local'
      ? h(
          'form',
          { class: 'new-game', 'data-testid': 'new-game-form', onsubmit: (e: Event) => (e.preventDefault(), setAutoplay(false), newGame(state.settings), render()) },
          ...newGameFields(s, renderHeader),
          h('button', { type: 'submit', 'data-testid': 'new-game' }, 'New game'),
          state.formError === null ? null : h('span', { class: 'form-error', 'data-testid': 'new-game-error' }, state.formError),
          h('label', { class: 'autoplay' }, h('input', { type: 'checkbox', 'data-testid': 'autoplay', checked: state.autoplay !== null, onchange: (e: Event) => setAutoplay((e.target as HTMLInputElement).checked) }), 'autoplay'),
        )
      : h('p', { class: 'remote-status', 'data-testid': 'remote-status' }, state.remote.status),
  );
}

let remoteCache: { persisted: PersistedFull; shown: Shown } | null = null;

/** The latest remote game, restored from its persisted form (validated like any snapshot). */
function remoteSnapshot(): Shown | undefined {
  const latest = state.remote.latest;
  if (latest === null) return undefined;
  if (remoteCache?.persisted !== latest) {
    try {
      remoteCache = { persisted: latest, shown: shownOf(restoreGame(latest, { use: allModules })) };
    } catch (err) {
      // A message that is not a sound game is shown as an error; the page keeps the last good one.
      state.remote.status = `a message of the remote game was refused: ${err instanceof Error ? err.message : String(err)}`;
      state.remote.latest = remoteCache?.persisted ?? null;
      return remoteCache?.shown;
    }
  }
  return remoteCache.shown;
}

function render(): void {
  // The remote game first: a message refused there is reported in the header.
  const live = replaying() ? (state.opened === null ? undefined : shownOf(state.opened.final)) : state.mode === 'local' ? (state.game === null ? undefined : shownOf(state.game)) : remoteSnapshot();
  if (state.opened !== null) scrubBar.update(state.opened, state.viewing?.version ?? state.opened.end);
  else scrubBar.update(null, 0);
  renderHeader();
  const shown = state.viewing !== null ? snapshotOf(state.viewing) : live;
  document.body.dataset.mode = state.viewing !== null ? 'history' : state.mode;
  if (state.viewing !== null) {
    const entry = state.viewing;
    banner.hidden = false;
    fill(
      banner,
      h('span', {}, entry.id < 0 ? `Showing ${entry.label}` : `Showing the state after #${entry.id}: ${entry.label}`),
      h('button', { type: 'button', 'data-testid': 'back-to-live', onclick: () => view(null) }, state.mode === 'recording' ? 'To the end' : 'Back to live'),
      state.mode !== 'remote' ? h('button', { type: 'button', 'data-testid': 'resume-here', onclick: () => resumeFrom(entry) }, 'Continue from here') : null,
    );
  } else {
    banner.hidden = true;
    fill(banner);
  }
  if (shown === undefined) {
    fill(panel, h('h2', {}, 'Game'), h('p', { class: 'empty' }, 'No game yet: start one with `npx mtg-turn-engine simulate --inspect`.'));
    fill(controls);
  } else {
    const { snapshot, view: v } = shown;
    chart.update(snapshot.value, v, snapshot.context);
    graph.update(activePaths(snapshot.value));
    renderPanel(panel, v, snapshot.status === 'done' ? 'gameOver' : statePath(snapshot.value), snapshot.context);
    const game = state.mode === 'local' ? state.game : null;
    renderControls(controls, {
      view: v,
      legal: game === null ? [] : awaitedPlayers(v).flatMap((p) => game.legalActions(p)),
      readOnly: state.viewing !== null || state.mode !== 'local',
      drafts: state.drafts,
      send,
      triggerAtCleanup: (t) => (state.cleanupQueue.push(t), render()),
      queuedCleanupTriggers: state.cleanupQueue,
      rerender: render,
    });
  }
  const atBottom = logBox.scrollTop + logBox.clientHeight >= logBox.scrollHeight - 8;
  logView.show(state.entries, state.viewing?.id ?? null);
  if (atBottom && state.viewing === null) logBox.scrollTop = logBox.scrollHeight;
}

// A page of a table server (its inspect key in the address, or `?game=ID` with the key kept) follows its games.
const params = new URLSearchParams(location.search);
if (inspectKey !== null && (keyGiven || params.has('game'))) setMode('served', params.get('game'));
else setMode(location.hash === '#remote' || params.has('remote') ? 'remote' : 'local');
