/**
 * The factories of card games (CONTRACT v4, "Card games"): `defineCards`, `createCardGame`, and
 * the cards' `restoreGame` and `replayGame`. A card game is the GameShell made by createGame /
 * restoreGame with a cards part (src/cards/part.ts), not a second shell.
 */
import type { CardRandom, CardsDefinition, EmittedEvent, TurnEvent } from '../contract.js';
import { DECISIONS } from '../events/index.js';
import { ErrorCode, TurnEngineError, describeThrown } from '../errors.js';
import { CARDS_PART } from '../game/cardsPart.js';
import { createGame, restoreGame as restoreEngineGame } from '../game/create.js';
import type { ReplayDrift } from '../game/types.js';
import { namesOf, needs, readUse, type ModuleName } from '../game/module.js';
import { refuseUnknown } from '../game/options.js';
import { RECORDING_FORMAT } from '../recording/format.js';
import { CARDS_ASKED, CARDS_CHECK, CardPart } from './part.js';
import { MAX_STATE_BYTES, stateJson, utf8Bytes, type PersistedCards } from './partData.js';
import { cardRandom, cardsSeedState } from './random.js';
import { CardRecorder, type CardRecording } from './recording.js';
import type { CardGame, CardGameOptions, CardReplayOptions, CardRestoreOptions, Cards, ReplayedCardGame } from './types.js';

const FUNCTIONS = ['setup', 'checkpoint', 'decide', 'autoPass', 'seatView', 'bot', 'publicData'] as const;

function invalidOptions(message: string): TurnEngineError {
  return new TurnEngineError(ErrorCode.INVALID_OPTIONS, message);
}

function invalidSnapshot(message: string): TurnEngineError {
  return new TurnEngineError(ErrorCode.INVALID_SNAPSHOT, message);
}

/**
 * CONTRACT v4: a card game's logic, checked once (INVALID_OPTIONS naming the field) and frozen:
 * the same object for createCardGame, the cards' restoreGame and replayGame, and the table server.
 */
export function defineCards<S>(definition: CardsDefinition<S>): Cards<S> {
  if (typeof definition !== 'object' || definition === null) throw invalidOptions('cards: expected a definition object ({ name, setup, ... })');
  if (typeof definition.name !== 'string' || definition.name.length === 0 || definition.name.length > 100) throw invalidOptions('cards.name: must be a string of 1 to 100 characters (e.g. "my-cards@1")');
  for (const key of FUNCTIONS) {
    const fn = definition[key];
    if (key === 'setup' ? typeof fn !== 'function' : fn !== undefined && typeof fn !== 'function') throw invalidOptions(`cards.${key}: must be a function${key === 'setup' ? '' : ' when given'}`);
  }
  const actions = definition.actions;
  if (actions !== undefined) {
    if (typeof actions !== 'object' || actions === null) throw invalidOptions('cards.actions: must be an object of functions by name');
    for (const [name, fn] of Object.entries(actions)) if (typeof fn !== 'function') throw invalidOptions(`cards.actions.${name}: must be a function`);
  }
  const bots = definition.bots;
  if (bots !== undefined) {
    if (typeof bots !== 'object' || bots === null) throw invalidOptions('cards.bots: must be an object of bots (functions) by name');
    for (const [name, fn] of Object.entries(bots)) {
      if (typeof fn !== 'function') throw invalidOptions(`cards.bots.${name}: must be a function`);
      if (name === 'random') throw invalidOptions("cards.bots.random: the name 'random' is the definition's `bot`; name the bot otherwise");
    }
  }
  return Object.freeze({ ...definition, actions: actions === undefined ? undefined : Object.freeze({ ...actions }), bots: bots === undefined ? undefined : Object.freeze({ ...bots }), __cards: true as const }) as Cards<S>;
}

function checkCards(cards: unknown, at: string): void {
  if (typeof cards !== 'object' || cards === null || (cards as { __cards?: unknown }).__cards !== true) throw invalidOptions(`${at}: expected a definition made by defineCards`);
}

/** S as JSON of at most 1 MiB, or the message saying what is wrong. */
function stateProblem(state: unknown): string | null {
  let json: string | undefined;
  try {
    json = stateJson(state);
  } catch (err) {
    return `is not JSON (${describeThrown(err)})`;
  }
  if (json === undefined) return 'is not JSON';
  const bytes = utf8Bytes(json);
  return bytes > MAX_STATE_BYTES ? `is ${bytes} bytes of JSON, more than the ${MAX_STATE_BYTES} (1 MiB) allowed` : null;
}

/** Whether the undo option asks for undo. */
function hasUndo(undo: unknown): boolean {
  return typeof undo === 'object' && undo !== null && (undo as { mode?: unknown }).mode !== 'none' && (undo as { mode?: unknown }).mode !== undefined;
}

/** The options a card game's recording and `setup` see: those given, less listeners, `record` and the modules (named apart), with the seed. */
function plainOptions(options: CardGameOptions, seed: number): Record<string, unknown> {
  const { listeners: _listeners, record: _record, use: _use, ...kept } = options;
  return JSON.parse(JSON.stringify({ ...kept, seed })) as Record<string, unknown>;
}

/** The names of the modules in `use` (checked as createGame checks them), for a recording: none, nothing. */
function moduleNames(use: unknown): { use?: ModuleName[] } {
  const names = namesOf(readUse(use));
  return names === undefined ? {} : { use: names };
}

/**
 * The modules a card game's recording names: its `use`, or (recordings made before it had one)
 * the modules its options held, as JSON (`{ module: name }`).
 */
function recordedModules(r: Partial<CardRecording>): unknown[] {
  if (r.use !== undefined) return Array.isArray(r.use) ? r.use : [r.use];
  const inOptions = (r.options as { use?: unknown } | undefined)?.use;
  return Array.isArray(inOptions) ? inOptions.map((m) => (typeof m === 'object' && m !== null ? (m as { module?: unknown }).module : m)) : [];
}

/**
 * CONTRACT v4: a new card game. `options` are createGame's less `hooks`; S is the definition's
 * `setup` (drawing from the game's seed). Throws INVALID_OPTIONS for bad options, a setup that
 * throws or a state over 1 MiB.
 */
export function createCardGame<S>(cards: Cards<S>, options: CardGameOptions): CardGame<S> {
  checkCards(cards, 'cards');
  if (typeof options !== 'object' || options === null) throw invalidOptions('options: must be an object');
  if ((options as { hooks?: unknown }).hooks !== undefined) throw invalidOptions("options.hooks: a card game's hooks are its definition's functions (checkpoint, autoPass); give them to defineCards");
  const given = options.seed;
  if (given !== undefined && (typeof given !== 'number' || !Number.isFinite(given))) {
    // A bad seed is named as createGame names it (it throws before making a game).
    createGame({ ...options, seed: given });
    throw invalidOptions('options.seed: must be a number');
  }
  const seed = given ?? Math.floor(Math.random() * 2 ** 32);
  const box = { position: cardsSeedState(seed), drew: false };
  const random: CardRandom = cardRandom(box);
  let state: S;
  try {
    const players = Array.isArray(options.players) ? [...options.players] : [];
    state = cards.setup({ players, options: plainOptions(options, seed), random });
  } catch (err) {
    // Bad options are named as createGame names them; else the setup's own failure.
    createGame({ ...options, seed });
    throw invalidOptions(`cards.setup threw: ${err instanceof TurnEngineError ? err.message : describeThrown(err)}`);
  }
  const problem = stateProblem(state);
  if (problem !== null) throw invalidOptions(`cards.setup: the cards' state ${problem}`);
  const recorder = options.record === true ? new CardRecorder({ from: 'options', options: plainOptions(options, seed), cards: { name: cards.name }, ...moduleNames(options.use) }) : null;
  const part = new CardPart<S>({ definition: cards, state: JSON.parse(JSON.stringify(state)) as S, random: box.position, undo: hasUndo(options.undo), recorder, ...moduleNames(options.use) });
  // The part records the game (the events as sent, `data` included); the engine records nothing of it.
  const { record: _record, ...engineOptions } = options;
  return createGame({ ...engineOptions, seed, [CARDS_PART]: part } as CardGameOptions) as unknown as CardGame<S>;
}

/**
 * Whether `value` is a list of owed `decided` events: each with the decision it reports (an event
 * object) and its seq, in the order they were emitted, none after the snapshot's `seq`.
 */
function isOwedList(value: unknown, seq: unknown): value is EmittedEvent[] {
  if (!Array.isArray(value) || value.length > 10_000) return false;
  let last = -1;
  for (const e of value as unknown[]) {
    if (typeof e !== 'object' || e === null) return false;
    const d = e as { type?: unknown; seq?: unknown; event?: unknown };
    if (d.type !== 'decided' || !Number.isInteger(d.seq) || (d.seq as number) <= last) return false;
    // The decision it reports: a player decision or a card action (the only events a `decided` reports).
    const type = typeof d.event === 'object' && d.event !== null ? (d.event as { type?: unknown }).type : undefined;
    if (type !== 'CARD_ACTION' && type !== 'CONCEDE' && !DECISIONS.has(type as TurnEvent['type'])) return false;
    if (typeof seq === 'number' && (d.seq as number) > seq) return false;
    last = d.seq as number;
  }
  return true;
}

/**
 * Checks `cards.history` (throws INVALID_SNAPSHOT naming the entry): each entry a version of the
 * game (in order, none after the snapshot's), a random position and S as `cards.random` and
 * `cards.state` are checked, and the owed decisions then; every version the game's undo may
 * return to has its entry (an undo there returns the cards to it).
 */
function historyProblem(history: unknown, engine: Record<string, unknown>): void {
  const shape = "must be a list of [version, random, state] or [version, random, state, owed] (owed: the 'decided' events then owed)";
  if (!Array.isArray(history)) throw invalidSnapshot(`persisted.cards.history: ${shape}`);
  const top = typeof engine.version === 'number' ? engine.version : Number.MAX_SAFE_INTEGER;
  let last = -1;
  for (const [i, h] of (history as unknown[]).entries()) {
    const at = `persisted.cards.history[${i}]`;
    if (!Array.isArray(h) || (h.length !== 3 && h.length !== 4)) throw invalidSnapshot(`${at}: ${shape}`);
    const [version, random, state, owed] = h as unknown[];
    if (!Number.isInteger(version) || (version as number) <= last || (version as number) > top) throw invalidSnapshot(`${at}[0]: a version of the game, after the entry before and none after the snapshot's (${top})`);
    last = version as number;
    if (!isRandomPosition(random)) throw invalidSnapshot(`${at}[1]: must be a whole number from 0 to 2^32 - 1 (the random position then)`);
    const problem = stateProblem(state);
    if (problem !== null) throw invalidSnapshot(`${at}[2]: ${problem}`);
    if (h.length === 4 && !isOwedList(owed, engine.seq)) throw invalidSnapshot(`${at}[3]: ${shape}`);
  }
  const kept = new Set((history as [number][]).map((h) => h[0]));
  for (const version of undoVersions(engine.undo)) if (!kept.has(version)) throw invalidSnapshot(`persisted.cards.history: no entry for version ${version}, which undo may return to`);
}

/** The versions an untrusted `undo` (the engine's part of the snapshot) lets a player return to: its moments from the lowest horizon now on, with the versions undos made (what the engine's validation then checks). */
export function undoVersions(undo: unknown): number[] {
  if (!isObject(undo) || !Array.isArray(undo.history) || undo.history.length === 0) return [];
  const moments = undo.history as unknown[];
  const now = moments.at(-1);
  const horizons = isObject(now) && isObject(now.horizons) ? Object.values(now.horizons).filter((v): v is number => typeof v === 'number') : [];
  const lowest = horizons.length === 0 ? Infinity : Math.min(...horizons);
  const out: number[] = [];
  for (const m of moments) {
    if (!isObject(m) || typeof m.version !== 'number' || m.version < lowest) continue;
    out.push(m.version);
    if (Array.isArray(m.also)) for (const a of m.also as unknown[]) if (isObject(a) && typeof a.version === 'number') out.push(a.version);
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRandomPosition(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 2 ** 32;
}

/** The persisted cards of a saved card game, checked against the definition (INVALID_SNAPSHOT naming what is wrong). */
function savedCards<S>(saved: unknown, cards: Cards<S>): { engine: Record<string, unknown>; cards: PersistedCards } {
  if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) throw invalidSnapshot('persisted: expected the object of game.persist()');
  const { cards: persisted, ...engine } = saved as Record<string, unknown>;
  if (typeof persisted !== 'object' || persisted === null) throw invalidSnapshot("persisted.cards: this is not a card game's snapshot; restore it with restoreGame from 'mtg-turn-engine'");
  const p = persisted as Partial<PersistedCards>;
  if (p.name !== cards.name) throw invalidSnapshot(`persisted.cards.name: the snapshot is of the cards '${String(p.name)}', the definition given is '${cards.name}'`);
  if (!isRandomPosition(p.random)) throw invalidSnapshot('persisted.cards.random: must be a whole number from 0 to 2^32 - 1');
  const problem = stateProblem(p.state);
  if (problem !== null || p.state === undefined) throw invalidSnapshot(`persisted.cards.state: ${problem ?? 'is missing'}`);
  if (p.owed !== undefined && !isOwedList(p.owed, engine.seq)) throw invalidSnapshot("persisted.cards.owed: must be a list of 'decided' events, each with its decision and seq, in the order of their seq and none after the snapshot's seq");
  if (p.history !== undefined) historyProblem(p.history, engine);
  else if (isObject(engine.undo)) throw invalidSnapshot('persisted.cards.history: the game has undo, so its cards keep S at each version undo may return to');
  return { engine, cards: p as PersistedCards };
}

/**
 * CONTRACT v4: restores a card game from `game.persist()` (or its JSON round trip) with its
 * definition. Throws INVALID_SNAPSHOT (a snapshot of no cards, or of cards of another name).
 */
export function restoreGame<S>(saved: unknown, options: CardRestoreOptions<S>): CardGame<S> {
  if (typeof options !== 'object' || options === null) throw invalidOptions('options: must be an object with { cards }');
  refuseUnknown(options, ['cards', 'use', 'listeners', 'record'], 'restoreGame');
  checkCards(options.cards, 'options.cards');
  const { engine, cards: persisted } = savedCards(saved, options.cards);
  const history = persisted.history === undefined ? undefined : new Map(persisted.history.map(([v, random, state, owed]) => [v, { state: state as S, random, owed: owed === undefined ? [] : (JSON.parse(JSON.stringify(owed)) as EmittedEvent[]) }] as const));
  const recorder = options.record === true ? new CardRecorder({ from: 'persisted', options: JSON.parse(JSON.stringify(saved)) as Record<string, unknown>, cards: { name: options.cards.name }, ...moduleNames(options.use) }) : null;
  const part = new CardPart<S>({ definition: options.cards, state: JSON.parse(JSON.stringify(persisted.state)) as S, random: persisted.random, undo: history !== undefined, history, recorder, ...moduleNames(options.use), ...(persisted.owed === undefined ? {} : { owed: JSON.parse(JSON.stringify(persisted.owed)) as EmittedEvent[] }) });
  const restoreOptions: Record<string | symbol, unknown> = { [CARDS_PART]: part };
  if (options.listeners !== undefined) restoreOptions.listeners = options.listeners;
  if (options.use !== undefined) restoreOptions.use = options.use;
  return restoreEngineGame(engine, restoreOptions) as unknown as CardGame<S>;
}

function invalidRecording(message: string): TurnEngineError {
  return new TurnEngineError(ErrorCode.INVALID_RECORDING, message);
}

/**
 * CONTRACT v4: the game a card game's recording reached at version `until` (default: the end).
 * The definition runs again (the same seed draws the same cards): the first send after which the
 * cards differ from the recorded ones (the recording keeps a check of them after each send) is
 * reported as `replay.drift` (`hook: 'cards'`) and the replay plays on with the definition given;
 * a recorded send that the definition now refuses is reported as drift (`got: { error }`), and the
 * replay stops there. A recorded send the engine refuses by itself (the definition not asked, no
 * drift before it) throws INVALID_RECORDING naming the input; `until` must be a version the
 * recording holds (INVALID_OPTIONS).
 */
export function replayGame<S>(recording: unknown, options: CardReplayOptions<S>): ReplayedCardGame<S> {
  if (typeof options !== 'object' || options === null) throw invalidOptions('options: must be an object with { cards }');
  refuseUnknown(options, ['cards', 'until', 'use', 'listeners'], 'replayGame');
  checkCards(options.cards, 'options.cards');
  if (typeof recording !== 'object' || recording === null) throw invalidRecording('recording: expected the object of game.recording()');
  const r = recording as Partial<CardRecording>;
  if (r.format !== RECORDING_FORMAT) throw invalidRecording(`recording.format: expected '${RECORDING_FORMAT}'`);
  if (typeof r.cards !== 'object' || r.cards === null) throw invalidSnapshot("recording.cards: this is not a card game's recording; replay it with replayGame from 'mtg-turn-engine'");
  if (r.cards.name !== options.cards.name) throw invalidSnapshot(`recording.cards.name: the recording is of the cards '${String(r.cards.name)}', the definition given is '${options.cards.name}'`);
  if (!Array.isArray(r.inputs) || r.inputs.length === 0) throw invalidRecording("recording.inputs: expected a list beginning with the game's start");
  if (typeof r.options !== 'object' || r.options === null) throw invalidRecording('recording.options: expected the options or the persisted game');
  const listeners = options.listeners;
  // CONTRACT v4: the modules the recording names must be given (as restoreGame takes them).
  const modules = readUse(options.use);
  for (const name of recordedModules(r)) {
    if (name !== 'table' && name !== 'grandMelee') throw invalidRecording(`recording.use: expected a list of module names ('table', 'grandMelee'), got ${JSON.stringify(name)}`);
    if (modules[name] === undefined) throw invalidOptions(`options.use: the recording's game had the ${name} module, so the replay ${needs(name)}`);
  }
  let game: CardGame<S>;
  if (r.from === 'persisted') {
    const restore: CardRestoreOptions<S> = { cards: options.cards };
    if (listeners !== undefined) restore.listeners = listeners;
    if (options.use !== undefined) restore.use = options.use;
    game = restoreGame(r.options, restore);
  } else {
    const { use: _recorded, ...recorded } = r.options as unknown as CardGameOptions;
    const create: CardGameOptions = { ...recorded };
    if (listeners !== undefined) create.listeners = listeners;
    if (options.use !== undefined) create.use = options.use as CardGameOptions['use'];
    game = createCardGame(options.cards, create);
  }
  const start = game.view().version;
  const until = options.until;
  const holds = (end: number | string) => `options.until: must be a version the recording holds, a whole number from ${start} to ${end}; got ${typeof until === 'number' ? String(until) : typeof until}`;
  if (until !== undefined && (typeof until !== 'number' || !Number.isSafeInteger(until) || until < start)) throw invalidOptions(holds('its last'));
  const asked = (game as unknown as { [CARDS_ASKED]: () => boolean })[CARDS_ASKED];
  let drift: ReplayDrift | null = null;
  let stopped = false;
  const check = (game as unknown as { [CARDS_CHECK]: () => string })[CARDS_CHECK];
  // The cards as the game began (a definition whose setup changed differs before any send).
  const began = (r.inputs[0] as { cards?: unknown }).cards;
  if (typeof began === 'string' && check() !== began) drift = { version: start, hook: 'cards', recorded: { cards: began }, got: { cards: check() } };
  for (let i = 1; i < r.inputs.length; i++) {
    const version = game.view().version;
    if (until !== undefined && version >= until) break;
    const input = r.inputs[i] as { event?: unknown; cards?: unknown };
    const out = game.send(input.event);
    if (!out.ok) {
      // A refusal the definition took part in, or after the cards drifted, is drift (the definition changed); the engine's own refusal of a send
      // the recording replayed faithfully so far is a recording that does not replay, as for replayGame of 'mtg-turn-engine'.
      if (drift === null && !asked()) throw invalidRecording(`recording.inputs[${i}].event: the recorded send was refused: ${out.error.code}: ${out.error.message}`);
      drift ??= { version, hook: 'cards', recorded: { cards: typeof input.cards === 'string' ? input.cards : '' }, got: { error: `${out.error.code}: ${out.error.message}` } };
      stopped = true;
      break;
    }
    // The cards after the send, as recorded (recordings made before the check was kept have none).
    if (drift === null && typeof input.cards === 'string') {
      const got = check();
      if (got !== input.cards) drift = { version, hook: 'cards', recorded: { cards: input.cards }, got: { cards: got } };
    }
  }
  // A version past the recording's last (a replay stopped by drift is where the definition took it).
  if (until !== undefined && !stopped && game.view().version < until) throw invalidOptions(holds(game.view().version));
  Object.defineProperty(game, 'replay', { value: Object.freeze({ drift }), enumerable: false });
  return game as ReplayedCardGame<S>;
}
