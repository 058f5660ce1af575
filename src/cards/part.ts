/**
 * The cards' part of a card game (CONTRACT v4, "Card games"): the shell (src/game/shell.ts)
 * hands it each send, and it makes the send one transaction over the turn and the cards' state S.
 *
 *   send(event) -> decide(event, ctx) or actions[action](ctx)  (a refusal, or host events first)
 *               -> the engine's steps (the checkpoint runs on the working copy)
 *               -> S's size checked -> committed with the turn, or dropped on any refusal
 *
 * The working copy is made the first time a function reads `ctx.state` in a send (a JSON copy of
 * the committed S, which stays deeply frozen and is what `game.cards()` hands the host);
 * docs/cards.md says why a copy and not a copy-on-write draft.
 */
import type { CardAnswer, CardContext, CardRandom, CardsDefinition, DecidedEvent, EmittedEvent, GameHooks, PlayerId, SeatOptions, TurnEvent, TurnView } from '../contract.js';
import { ACTED_FOR, CARDS_OWED, CARDS_PART, CARDS_RANDOM, type CardsPart, type PartStep, type ShellSteps } from '../game/cardsPart.js';
import { ErrorCode, TurnEngineError, describeThrown, type EngineErrorInfo } from '../errors.js';
import { DECISIONS } from '../events/index.js';
import { isHostEvent } from '../../machines/host.effects.js';
import { refusal, type Refusal } from '../gate.js';
import { describeIssue, eventOrMessage, REPORT_INPUT } from '../schemas.js';
import { CardActionSchema, dataProblem } from './schema.js';
import type { Game, RestoreOptions } from '../game/types.js';
import { isRefusal } from '../game/logic.js';
import { refuseUnknown } from '../game/options.js';
import { deepFreeze } from '../view.js';
import { cardRandom, cardsSeedState, type RandomBox } from './random.js';
import { cardsCheck, CardRecorder } from './recording.js';
import type { ModuleName } from '../moduleNames.js';
import { failed, isObject, joined, jsonCopy, mayCarryData, MAX_STATE_BYTES, stateJson, utf8Bytes, type Kept, type PartInput, type PersistedCards } from './partData.js';

/**
 * A step for `player`'s CARD_ACTION that changes nothing in the turn (no mana: ADD_MANA of 0): the
 * action's time taken (`at`), or a moment undo can return to. Its player's, for undo's horizons.
 */
function stillStep(steps: ShellSteps, player: PlayerId, actor: PlayerId, at?: number): PartStep | Refusal {
  return steps.step({ type: 'ADD_MANA', player, amount: 0, ...(at === undefined ? {} : { at }), [ACTED_FOR]: actor });
}

/** The key of a card game's method giving an event as a seat or a spectator receives it (its card data: `seatEvent`; read by the table server). Not a name hosts see. */
export const CARDS_SEAT_EVENT: unique symbol = Symbol.for('mtg-turn-engine: an event as a viewer receives it');

/** The key of a card game's method giving the check of its cards after the last send (`cardsCheck`; read by replayGame). Not a name hosts see. */
export const CARDS_CHECK: unique symbol = Symbol.for('mtg-turn-engine: the check of the cards');
/** The game's answer to whether its last send asked the definition anything (src/cards/game.ts, replayGame). */
export const CARDS_ASKED: unique symbol = Symbol.for('mtg-turn-engine: whether the last send asked the cards');

/** The cards' part of one game. */
export class CardPart<S> implements CardsPart {
  readonly #def: CardsDefinition<S>;
  /** S as committed: deeply frozen, the same object until the next accepted send that changed it. */
  #state: S;
  #random: number;
  /** The send's working copy of S, made when first read; null outside a send and before any read. */
  #work: S | null = null;
  /** The send's random position (its `drew` says whether the send drew). */
  readonly #box: RandomBox;
  /** Whether a checkpoint changed S in this send (with undo: a barrier). */
  #changed = false;
  /** Whether this send asked the definition anything (or named an action it lacks): a refusal then may be the definition's (a replay's drift). */
  #asked = false;
  /** The `decided` event of this send, shown first in the first checkpoint's `pending`. */
  #decided: EmittedEvent | null = null;
  /**
   * CONTRACT v3, `pending` holds every event emitted since the previous call: the `decided` events
   * of accepted sends that reached no checkpoint (a CARD_ACTION that returned nothing, a decision
   * of the pregame), owed to the next call, in order.
   */
  #owed: EmittedEvent[] = [];
  /** Whether this send's checkpoint was given the owed events (they are no longer owed once it is accepted). */
  #paid = false;
  /** The event of this send as the recording keeps it. */
  #sent: unknown = undefined;
  readonly #undo: boolean;
  /** With undo: S and the random position at each version of the current turn. */
  readonly #history: Map<number, Kept<S>>;
  #recorder: CardRecorder | null;
  /** The modules' names of the game (a fork's recording names them). */
  readonly #use: ModuleName[] | undefined;
  /** The JSON of the send's working copy, as the size check made it (reused for the recording's check). */
  #workJson: string | undefined = undefined;
  /** The JSON of a committed S (the last one asked for), for the recording's check. */
  #json: { readonly state: S; readonly json: string } | null = null;
  readonly #ctxRandom: CardRandom;
  readonly hooks: GameHooks;

  constructor(input: PartInput<S>) {
    this.#def = input.definition;
    this.#state = deepFreeze(input.state);
    this.#random = input.random;
    this.#undo = input.undo;
    this.#history = input.history ?? new Map();
    this.#recorder = input.recorder ?? null;
    this.#use = input.use;
    this.#owed = input.owed ?? [];
    this.#box = { position: input.random, drew: false };
    this.#ctxRandom = cardRandom(this.#box);
    const def = this.#def;
    const hooks: GameHooks = {};
    if (def.checkpoint !== undefined) hooks.checkpoint = (view, pending) => this.#checkpoint(view, pending);
    if (def.autoPass !== undefined) hooks.autoPass = (view, player) => this.#autoPass(view, player);
    this.hooks = hooks;
  }

  /** The definition (for the factories and bots). */
  get definition(): CardsDefinition<S> {
    return this.#def;
  }

  /** The send's working copy of S, made on first read. */
  #working(): S {
    // A JSON round trip: S is JSON, and it copies the example's S in about half the time of structuredClone (docs/cards.md).
    return (this.#work ??= JSON.parse(JSON.stringify(this.#state)) as S);
  }

  /** `ctx` for one call: `state` is the working copy, made when first read. */
  #ctx(view: TurnView, player?: PlayerId, data?: unknown): CardContext<S> {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the getter reads this part's working copy
    const part = this;
    const ctx = {
      get state(): S {
        return part.#working();
      },
      view,
      random: this.#ctxRandom,
    } as CardContext<S>;
    if (player !== undefined) ctx.player = player;
    if (data !== undefined) ctx.data = data;
    return ctx;
  }

  #checkpoint(view: TurnView, pending: EmittedEvent[]): ReturnType<NonNullable<GameHooks['checkpoint']>> {
    const checkpoint = this.#def.checkpoint as NonNullable<CardsDefinition<S>['checkpoint']>;
    this.#asked = true;
    // CONTRACT v4: the `decided` event comes first in `pending`, as in the send's result; those of
    // earlier sends that reached no checkpoint come before it, every event in the order of its seq.
    const owed = this.#paid ? [] : this.#owed;
    this.#paid = true;
    if (this.#decided !== null || owed.length > 0) {
      const given = this.#decided === null ? owed : [...owed, this.#decided];
      pending.unshift(...given.map(jsonCopy));
      if (owed.length > 0) pending.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
      this.#decided = null;
    }
    // With undo, a checkpoint that changes S is a barrier: S is compared before and after.
    const before = this.#undo ? JSON.stringify(this.#work ?? this.#state) : null;
    const out = checkpoint(view, pending, this.#ctx(view));
    if (before !== null && this.#work !== null && JSON.stringify(this.#work) !== before) this.#changed = true;
    return out;
  }

  #autoPass(view: TurnView, player: PlayerId): boolean {
    // Reads S as it is (the working copy in a send, else the committed one) and changes nothing.
    const ctx: CardContext<S> = { state: (this.#work ?? this.#state) as S, view, random: this.#ctxRandom, player };
    this.#asked = true;
    return (this.#def.autoPass as NonNullable<CardsDefinition<S>['autoPass']>)(view, player, ctx) === true;
  }

  /** A new send: no working copy, the random position the committed one. */
  #begin(): void {
    this.#controlledNow = null;
    this.#work = null;
    this.#workJson = undefined;
    this.#box.position = this.#random;
    this.#box.drew = false;
    this.#changed = false;
    this.#asked = false;
    this.#decided = null;
    this.#paid = false;
    this.#sent = undefined;
  }

  process(raw: unknown, steps: ShellSteps): PartStep | Refusal {
    this.#begin();
    const out = this.#run(raw, steps);
    if ('error' in out) return out;
    // CONTRACT v4, "Sizes": S is measured at the end of each send.
    if (this.#work !== null) {
      let json: string | undefined;
      try {
        json = stateJson(this.#work);
      } catch (err) {
        return failed(`the cards' state is not JSON: ${describeThrown(err)}`);
      }
      this.#workJson = json;
      const bytes = json === undefined ? 0 : utf8Bytes(json);
      if (bytes > MAX_STATE_BYTES) return failed(`the cards' state is ${bytes} bytes of JSON, more than the ${MAX_STATE_BYTES} (1 MiB) allowed`);
    }
    this.#sent = this.#recorder === null ? undefined : jsonCopy(raw);
    // CONTRACT v4, "Undo in a card game": a send that drew or whose checkpoint changed S is a barrier.
    if (this.#undo && (this.#box.drew || this.#changed)) {
      const marked = steps.step({ type: 'MARK_IRREVERSIBLE' }, out);
      if (!('error' in marked)) return joined(marked, out, [...out.emitted, ...marked.emitted]);
    }
    return out;
  }

  #run(raw: unknown, steps: ShellSteps): PartStep | Refusal {
    if (!isObject(raw)) return steps.step(raw);
    let type: unknown;
    try {
      type = raw.type;
    } catch {
      return steps.step(raw);
    }
    if (type === 'CARD_ACTION') return this.#action(raw, steps);
    if (typeof type === 'string' && DECISIONS.has(type as TurnEvent['type'])) return this.#decision(raw, steps, this.#def.decide);
    // A concession is a player decision and may carry data (emitted as `decided`), but nothing stops it (CR 104.3a): `decide` is not asked.
    if (type === 'CONCEDE' && mayCarryData(raw)) return this.#decision(raw, steps, undefined);
    return steps.step(raw);
  }

  /** A player decision: the engine's gate, then `decide`, then its host events and the decision, as one send. */
  #decision(raw: Record<string, unknown>, steps: ShellSteps, decide: CardsDefinition<S>['decide']): PartStep | Refusal {
    const gated = steps.gate(raw);
    if (isRefusal(gated)) return gated;
    // Without `decide` and without data nothing here reads the event: the step parses it, once (issue 31, point 6).
    if (decide === undefined && !mayCarryData(raw)) return steps.step(raw);
    const parsed = eventOrMessage(raw);
    // A game with time state gates at its step: the step says why.
    if (typeof parsed === 'string') return steps.step(raw);
    // CONTRACT v4: `data` is JSON (a function or a symbol is refused, never thrown).
    const problem = dataProblem(raw.data, parsed.type);
    if (problem !== null) return refusal(ErrorCode.INVALID_EVENT, problem);
    const data = jsonCopy(raw.data);
    const event: DecidedEvent = data === undefined ? parsed : { ...parsed, data };
    const decided: EmittedEvent[] = [];
    const player = (parsed as { player: PlayerId }).player;
    let seen: TurnView | undefined;
    if (data !== undefined) {
      const seq = steps.nextSeq();
      decided.push((this.#decided = { type: 'decided', event, seq }));
      // CR 723.5: a controlled player's decision is their controller's (a concession stays the player's own, 723.6).
      if ((parsed as { by?: PlayerId }).by === undefined && parsed.type !== 'CONCEDE') this.#decidedBy(seq, player, (seen = this.#game().view()));
    }
    let from: PartStep | undefined;
    if (decide !== undefined) {
      const view = seen ?? this.#game().view();
      const answer = this.#call('decide', () => decide.call(this.#def, jsonCopy(event), this.#ctx(view, player, data === undefined ? undefined : jsonCopy(data))));
      if ('error' in answer) return answer;
      const applied = this.#apply(answer.value, steps, 'decide');
      if (applied !== undefined && 'error' in applied) return applied;
      from = applied;
    }
    const out = steps.step(raw, from);
    if ('error' in out) return out;
    return joined(out, from, [...decided, ...(from?.emitted ?? []), ...out.emitted]);
  }

  /** CONTRACT v4, "Card actions": `actions[action](ctx)` decides; never awaited, no priority checked. */
  #action(raw: Record<string, unknown>, steps: ShellSteps): PartStep | Refusal {
    const parsed = CardActionSchema.safeParse(raw, REPORT_INPUT);
    if (!parsed.success) return refusal(ErrorCode.INVALID_EVENT, `CARD_ACTION: ${describeIssue(parsed.error, 'event')}`);
    const { player, action, by } = parsed.data;
    const problem = dataProblem(parsed.data.data, 'CARD_ACTION');
    if (problem !== null) return refusal(ErrorCode.INVALID_EVENT, problem);
    // Who it names, and whether the game is on, as for a concession of that player.
    const seat = steps.gate({ type: 'CONCEDE', player });
    if (isRefusal(seat)) return seat.error.code === ErrorCode.INVALID_EVENT ? refusal(ErrorCode.INVALID_EVENT, `CARD_ACTION.player: ${seat.error.message}`) : seat;
    const view = this.#game().view();
    if (by !== undefined && view.decidedBy[player] !== by) return refusal(ErrorCode.ILLEGAL_ACTION, `CARD_ACTION.by: ${player}'s decisions are made by ${String(view.decidedBy[player])}, not ${by}`, '723.5');
    const actions = this.#def.actions;
    const fn = actions !== undefined && Object.hasOwn(actions, action) ? actions[action] : undefined;
    this.#asked = true;
    if (typeof fn !== 'function') return refusal(ErrorCode.ILLEGAL_ACTION, `CARD_ACTION.action: the cards '${this.#def.name}' have no action '${action}'`, 'cards');
    const data = jsonCopy(parsed.data.data);
    const event: DecidedEvent = { type: 'CARD_ACTION', player, action };
    if (data !== undefined) event.data = data;
    if (by !== undefined) event.by = by;
    // CONTRACT v3, "Events": `at` is read by the clocks and the away policy and may not go back; the
    // action's time is taken first, by a step that changes nothing else (ILLEGAL_ACTION when it goes back).
    const at = parsed.data.at;
    // The action is its decider's (CR 723.5: `by`, the controller deciding for `player`): theirs to undo, no one else's.
    const actor = by ?? player;
    const timed = at === undefined ? undefined : stillStep(steps, player, actor, at);
    if (timed !== undefined && 'error' in timed) return timed;
    const seq = steps.nextSeq();
    const decided: EmittedEvent = (this.#decided = { type: 'decided', event, seq });
    if (by === undefined) this.#decidedBy(seq, player, view);
    const answer = this.#call(`actions.${action}`, () => fn.call(actions, this.#ctx(view, player, data === undefined ? undefined : jsonCopy(data))));
    if ('error' in answer) return answer;
    let applied = this.#apply(answer.value, steps, `actions.${action}`, timed, actor) ?? timed;
    if (applied !== undefined && 'error' in applied) return applied;
    // With undo, the table records a moment only for a step of the turn: an action that returned
    // nothing takes one that changes nothing, so its player may return to this version.
    if (applied === undefined && this.#undo) {
      const still = stillStep(steps, player, actor);
      if ('error' in still) return still;
      applied = still;
    }
    return applied === undefined ? { ...steps.here(), emitted: [decided] } : joined(applied, undefined, [decided, ...applied.emitted]);
  }

  /** Calls one of the definition's functions: its answer, or HOOK_FAILED naming it when it throws. */
  #call(name: string, call: () => CardAnswer): { value: CardAnswer } | Refusal {
    this.#asked = true;
    try {
      return { value: call() };
    } catch (err) {
      return failed(`the cards' ${name} threw: ${err instanceof TurnEngineError ? err.message : describeThrown(err)}`);
    }
  }

  /** What `decide` or an action answered: nothing, a refusal, or host events applied in order (from `start`, else the committed state). */
  #apply(answer: CardAnswer, steps: ShellSteps, name: string, start?: PartStep, actedBy?: PlayerId): PartStep | Refusal | undefined {
    if (answer === undefined || answer === null) return undefined;
    if (isObject(answer) && typeof answer.refuse === 'string') {
      const rule = typeof answer.rule === 'string' ? answer.rule : 'cards';
      return refusal(ErrorCode.ILLEGAL_ACTION, answer.refuse, rule);
    }
    if (!Array.isArray(answer)) return failed(`the cards' ${name} must return { refuse, rule? }, a list of host events or nothing`);
    let from: PartStep | undefined = start;
    for (let i = 0; i < answer.length; i++) {
      const e = answer[i] as TurnEvent;
      const type = isObject(e) ? e.type : undefined;
      // A decision or a concession is a player's own (CONTRACT: decide and actions return host events).
      if (typeof type !== 'string' || !isHostEvent(type) || (type as string) === 'CARD_ACTION') return failed(`the cards' ${name} returned [${i}] ${String(type)}: only host events may be returned`);
      // A CARD_ACTION's host events are its player's (undo: no other player goes back past them).
      const out = steps.step(actedBy === undefined ? e : { ...e, [ACTED_FOR]: actedBy }, from);
      if ('error' in out) {
        // CONTRACT v4: as if the host had sent it: ILLEGAL_ACTION with that event's rule.
        const error: EngineErrorInfo = { code: ErrorCode.ILLEGAL_ACTION, message: `${type} returned by the cards' ${name}: ${out.error.message}` };
        if (out.error.rule !== undefined) error.rule = out.error.rule;
        return { ok: false, error };
      }
      from = joined(out, from, [...(from?.emitted ?? []), ...out.emitted]);
    }
    return from;
  }

  committed(version: number, emitted: readonly EmittedEvent[]): void {
    if (this.#work !== null) {
      this.#state = deepFreeze(this.#work);
      if (this.#workJson !== undefined) this.#json = { state: this.#state, json: this.#workJson };
    }
    this.#random = this.#box.position;
    if (this.#paid) this.#owed = [];
    // A `decided` no checkpoint of the send was given is owed to the next one (only a definition with a checkpoint is called).
    if (this.#decided !== null && this.#def.checkpoint !== undefined) this.#owed = [...this.#owed, this.#decided];
    if (this.#undo) {
      for (const e of emitted) {
        if (e.type === 'undone') {
          // CONTRACT v4: an accepted undo returns S to what it was at version `to`, and what was
          // owed to the next checkpoint then: the undone sends' decisions are owed to none.
          const kept = this.#history.get(e.toVersion);
          if (kept !== undefined) {
            this.#state = kept.state;
            this.#random = kept.random;
            this.#owed = [...kept.owed];
          }
        } else if (e.type === 'turnBegan') {
          // No undo goes back past the start of the turn.
          this.#history.clear();
        }
      }
      this.#history.set(version, { state: this.#state, random: this.#random, owed: this.#owed });
    }
    if (this.#controlledNow !== null) this.#controlled.set(...this.#controlledNow);
    this.#controlledNow = null;
    const sent = this.#sent;
    if (sent !== undefined) this.#recorder?.sent(sent, this.check());
    // The game's start (its first checkpoints may have changed S): the recording's first input keeps the cards then.
    else if (this.#recorder?.fresh() === true) this.#recorder.began(this.check());
    this.#work = null;
    this.#workJson = undefined;
    this.#decided = null;
    this.#paid = false;
    this.#sent = undefined;
    // CONTRACT v3, "Recordings": `persist()` every 256 versions (the shell has committed the send: the game is whole).
    const recorder = this.#recorder;
    if (sent !== undefined && recorder !== null && recorder.snapshotDue(version) && this.#attached !== null) recorder.snapshot(version, this.#attached.persist());
  }

  /** The check of the committed cards (S and the random position) a recording keeps after each send. */
  check(): string {
    if (this.#json?.state !== this.#state) this.#json = { state: this.#state, json: JSON.stringify(this.#state) };
    return cardsCheck(this.#json.json, this.#random);
  }

  /** Whether the send just refused had asked the definition anything: its refusal may be the definition's (else it is the engine's alone). */
  askedCards(): boolean {
    return this.#asked;
  }

  refused(): void {
    this.#controlledNow = null;
    this.#work = null;
    this.#workJson = undefined;
    this.#box.position = this.#random;
    this.#decided = null;
    this.#paid = false;
    this.#sent = undefined;
  }

  persisted(): PersistedCards {
    const out: PersistedCards = { name: this.#def.name, state: jsonCopy(this.#state), random: this.#random };
    if (this.#undo) out.history = [...this.#history].map(([v, k]) => (k.owed.length === 0 ? [v, k.random, jsonCopy(k.state)] : [v, k.random, jsonCopy(k.state), k.owed.map(jsonCopy)]));
    if (this.#owed.length > 0) out.owed = this.#owed.map(jsonCopy);
    return out;
  }

  fork(seed?: number): CardPart<S> {
    const use = this.#use === undefined ? {} : { use: this.#use };
    if (seed === undefined) return new CardPart({ definition: this.#def, state: this.#state, random: this.#random, undo: this.#undo, history: new Map(this.#history), owed: this.#owed, ...use });
    // CONTRACT v4: the fork's cards draw from a new stream, from every version an undo may return
    // to as well (no draw separates those from now: a send that drew is a barrier).
    const random = cardsSeedState(seed);
    const history = new Map([...this.#history].map(([v, k]) => [v, { ...k, random }] as const));
    return new CardPart({ definition: this.#def, state: this.#state, random, undo: this.#undo, history, owed: this.#owed, ...use });
  }

  /** The game this part belongs to (attached once it is made). */
  #attached: Game | null = null;

  #game(): Game {
    return this.#attached as Game;
  }

  attach(game: object): void {
    const g = (this.#attached = game as Game);
    // A recording made from the game's start keeps the cards as it began (a restored game's start is its snapshot).
    if (this.#recorder !== null && this.#recorder.fresh()) this.#recorder.began(this.check());
    const fork = g.fork.bind(g);
    const persist = g.persist.bind(g);
    const on = g.on.bind(g) as (type: string, listener: (e: EmittedEvent) => void, options?: SeatOptions) => () => void;
    const define = (name: string, value: unknown) => Object.defineProperty(g, name, { value, configurable: true, writable: true });
    define('cards', (options?: SeatOptions) => {
      // INVALID_OPTIONS naming the field for options that name no seat.
      if (options !== undefined) g.view(options);
      return this.read(options, (o) => g.view(o));
    });
    // CONTRACT v4: persisted with the game.
    define('persist', () => ({ ...persist(), cards: this.persisted() }));
    // CONTRACT v4: `check` answers as `send` would, the cards' verdict included: their functions run on a fork.
    define('check', (raw: unknown) => {
      const out = g.fork().send(raw as never);
      return out.ok ? { ok: true } : out;
    });
    define('recording', () => this.recording());
    // The cards' random position (stateHash: CONTRACT v4, the cards' state includes what they will draw next).
    Object.defineProperty(g, CARDS_RANDOM, { value: () => this.#random, configurable: true });
    // An event as a seat or a spectator receives it (the table server's deliveries: src/server/cardGames.ts).
    Object.defineProperty(g, CARDS_SEAT_EVENT, { value: (e: EmittedEvent, viewer: SeatOptions) => this.seatEvent(e, viewer), configurable: true });
    // The check of the cards a recording keeps after each send (a card game's replay compares it: src/cards/game.ts).
    Object.defineProperty(g, CARDS_CHECK, { value: () => this.check(), configurable: true });
    // Whether the last send asked the definition anything (a replay tells the definition's refusals from a recording's fault).
    Object.defineProperty(g, CARDS_ASKED, { value: () => this.#asked, configurable: true });
    // The decisions owed to the next checkpoint, without their seq (stateHash: the route is not the state).
    Object.defineProperty(g, CARDS_OWED, { value: () => this.#owed.map((e) => (e as { event?: unknown }).event), configurable: true });
    // The definition the game plays (read by playouts and simulations for its `bot`: src/sim/playout.ts).
    Object.defineProperty(g, 'definition', { value: this.#def, configurable: true });
    // CONTRACT v4: a card game's fork carries its cards; `{ seed }` gives the fork a new random
    // stream, the engine's (checked by its fork: INVALID_OPTIONS naming options.seed) and the cards'.
    // `record: true` records the fork from its start (a 'persisted' recording, as the cards' restoreGame makes), `listeners` listen to it.
    define('fork', (options?: { seed?: number; record?: boolean; listeners?: RestoreOptions['listeners'] }) => {
      // A card game's hooks are its definition's: a key of no option of its fork is named (INVALID_OPTIONS).
      if (typeof options === 'object' && options !== null) refuseUnknown(options, ['seed', 'record', 'listeners', 'use'], 'fork');
      const seed = options?.seed;
      const listeners = options?.listeners;
      const part = this.fork(seed);
      const forked = fork({ ...(seed === undefined ? {} : { seed }), ...(listeners === undefined ? {} : { listeners }), [CARDS_PART]: part } as RestoreOptions);
      if (options?.record === true) part.#recordFrom(forked.persist() as unknown as Record<string, unknown>);
      return forked;
    });
    define('on', (type: string, listener: (e: EmittedEvent) => void, options?: SeatOptions) => (options === undefined ? on(type, listener) : on(type, (e) => listener(this.seatEvent(e, options)), options)));
  }

  /** Starts recording a fork from its start, as the cards' restoreGame with `record: true` does. */
  #recordFrom(persisted: Record<string, unknown>): void {
    this.#recorder = new CardRecorder({ from: 'persisted', options: jsonCopy(persisted), cards: { name: this.#def.name }, ...(this.#use === undefined ? {} : { use: this.#use }) });
    this.#recorder.began(this.check());
  }

  read(options: SeatOptions | undefined, view: (options?: SeatOptions) => TurnView): unknown {
    if (options === undefined) return this.#state;
    const seatView = this.#def.seatView;
    if (seatView === undefined) return null;
    const seat = 'seat' in options ? options.seat : null;
    const seen = seatView.call(this.#def, this.#state, seat, view(seat === null ? { spectator: true } : { seat }));
    return seen === undefined ? null : deepFreeze(jsonCopy(seen));
  }

  /**
   * CR 723.5: a decision sent without `by` for a player another player controls was made by the
   * controller (`view.decidedBy` as it was made), who is the deciding seat that sees its `decided`
   * event whole. Kept by the event's seq (listeners receive copies), only for such decisions.
   */
  #decidedBy(seq: number, player: PlayerId, view: TurnView): void {
    const decider = view.decidedBy[player];
    if (decider !== undefined && decider !== player) this.#controlledNow = [seq, decider];
  }

  /** The seats that made decisions for a controlled player without `by`, by their `decided` event's seq (accepted sends only). */
  readonly #controlled = new Map<number, PlayerId>();
  /** This send's such decision, kept once the send is accepted (a refused send's seq is given again). */
  #controlledNow: [number, PlayerId] | null = null;

  seatEvent(event: EmittedEvent, viewer: SeatOptions): EmittedEvent {
    if (event.type !== 'decided') return event;
    const decision = event.event;
    const who = decision as { player?: PlayerId; by?: PlayerId };
    const decider = who.by ?? (event.seq === undefined ? undefined : this.#controlled.get(event.seq)) ?? who.player;
    if ('seat' in viewer && viewer.seat === decider) return event;
    if (decision.data === undefined) return event;
    const shown: DecidedEvent = { ...decision };
    delete shown.data;
    const publicData = this.#def.publicData;
    if (publicData !== undefined) {
      const data = publicData.call(this.#def, decision, this.#state);
      if (data !== undefined) shown.data = jsonCopy(data);
    }
    return { ...event, event: shown };
  }

  recording(): unknown {
    if (this.#recorder === null) {
      throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'options.record: this card game keeps no recording; make it with createCardGame(cards, { ..., record: true })');
    }
    return this.#recorder.recording();
  }
}
