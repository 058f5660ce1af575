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
 *
 * Beside it: ./answers.ts (what the definition's functions are given, their answers made steps),
 * ./attach.ts (what a card game adds to its Game), ./seats.ts (what each seat sees of the cards)
 * and ./partData.ts (what the part keeps and persists).
 */
import type { CardAnswer, CardContext, CardRandom, CardsDefinition, DecidedEvent, EmittedEvent, GameHooks, PlayerId, SeatOptions, TurnEvent, TurnView } from '../contract.js';
import type { CardsPart, PartStep, ShellSteps } from '../game/cardsPart.js';
import { ErrorCode, TurnEngineError, describeThrown } from '../errors.js';
import { DECISIONS } from '../events/index.js';
import { refusal, type Refusal } from '../gate.js';
import { eventOrMessage } from '../schemas.js';
import { dataProblem, readCardAction } from './schema.js';
import type { Game } from '../game/types.js';
import { isRefusal } from '../game/logic.js';
import { deepFreeze } from '../view.js';
import { cardRandom, cardsSeedState, type RandomBox } from './random.js';
import { cardsCheck, CardRecorder } from './recording.js';
import type { ModuleName } from '../moduleNames.js';
import { failed, isObject, joined, jsonCopy, keptAfter, mayCarryData, MAX_STATE_BYTES, stateJson, utf8Bytes, type Kept, type PartInput, type PersistedCards } from './partData.js';
import { applyAnswer, callCards, cardContext, decisionsFirst, stillStep } from './answers.js';
import { attachCards } from './attach.js';
import { seatEventOf, seenCards } from './seats.js';

export { CARDS_ASKED, CARDS_CHECK, CARDS_SEAT_EVENT } from './attach.js';

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

  /** `ctx` for one call (./answers.ts): `state` is the working copy, made when first read. */
  #ctx(view: TurnView, player?: PlayerId, data?: unknown): CardContext<S> {
    return cardContext(() => this.#working(), view, this.#ctxRandom, player, data);
  }

  #checkpoint(view: TurnView, pending: EmittedEvent[]): ReturnType<NonNullable<GameHooks['checkpoint']>> {
    const checkpoint = this.#def.checkpoint as NonNullable<CardsDefinition<S>['checkpoint']>;
    this.#asked = true;
    // CONTRACT v4: this send's `decided` event, and those owed by earlier sends, first in `pending` (./answers.ts).
    const owed = this.#paid ? [] : this.#owed;
    this.#paid = true;
    if (this.#decided !== null || owed.length > 0) {
      decisionsFirst(pending, owed, this.#decided);
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
      const applied = applyAnswer(answer.value, steps, 'decide');
      if (applied !== undefined && 'error' in applied) return applied;
      from = applied;
    }
    const out = steps.step(raw, from);
    if ('error' in out) return out;
    return joined(out, from, [...decided, ...(from?.emitted ?? []), ...out.emitted]);
  }

  /** CONTRACT v4, "Card actions": `actions[action](ctx)` decides; never awaited, no priority checked. */
  #action(raw: Record<string, unknown>, steps: ShellSteps): PartStep | Refusal {
    const parsed = readCardAction(raw);
    if (isRefusal(parsed)) return parsed;
    const { player, action, by } = parsed;
    // Who it names, and whether the game is on, as for a concession of that player.
    const seat = steps.gate({ type: 'CONCEDE', player });
    if (isRefusal(seat)) return seat.error.code === ErrorCode.INVALID_EVENT ? refusal(ErrorCode.INVALID_EVENT, `CARD_ACTION.player: ${seat.error.message}`) : seat;
    const view = this.#game().view();
    if (by !== undefined && view.decidedBy[player] !== by) return refusal(ErrorCode.ILLEGAL_ACTION, `CARD_ACTION.by: ${player}'s decisions are made by ${String(view.decidedBy[player])}, not ${by}`, '723.5');
    const actions = this.#def.actions;
    const fn = actions !== undefined && Object.hasOwn(actions, action) ? actions[action] : undefined;
    this.#asked = true;
    if (typeof fn !== 'function') return refusal(ErrorCode.ILLEGAL_ACTION, `CARD_ACTION.action: the cards '${this.#def.name}' have no action '${action}'`, 'cards');
    const data = jsonCopy(parsed.data);
    const event: DecidedEvent = { type: 'CARD_ACTION', player, action };
    if (data !== undefined) event.data = data;
    if (by !== undefined) event.by = by;
    // CONTRACT v3, "Events": `at` is read by the clocks and the away policy and may not go back; the
    // action's time is taken first, by a step that changes nothing else (ILLEGAL_ACTION when it goes back).
    const at = parsed.at;
    // The action is its decider's (CR 723.5: `by`, the controller deciding for `player`): theirs to undo, no one else's.
    const actor = by ?? player;
    const timed = at === undefined ? undefined : stillStep(steps, player, actor, at);
    if (timed !== undefined && 'error' in timed) return timed;
    const seq = steps.nextSeq();
    const decided: EmittedEvent = (this.#decided = { type: 'decided', event, seq });
    if (by === undefined) this.#decidedBy(seq, player, view);
    const answer = this.#call(`actions.${action}`, () => fn.call(actions, this.#ctx(view, player, data === undefined ? undefined : jsonCopy(data))));
    if ('error' in answer) return answer;
    let applied = applyAnswer(answer.value, steps, `actions.${action}`, timed, actor) ?? timed;
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

  /** Calls one of the definition's functions (./answers.ts): this send asked the definition. */
  #call(name: string, call: () => CardAnswer): { value: CardAnswer } | Refusal {
    this.#asked = true;
    return callCards(name, call);
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
      // CONTRACT v4: an accepted undo returns S to what it was at version `to` (./partData.ts).
      const now = keptAfter(this.#history, emitted, version, { state: this.#state, random: this.#random, owed: this.#owed });
      this.#state = now.state;
      this.#random = now.random;
      this.#owed = now.owed;
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
    // What a card game adds to the Game (./attach.ts), reading this part's fields when asked.
    attachCards<CardPart<S>>(g, this, {
      definition: this.#def,
      random: () => this.#random,
      asked: () => this.#asked,
      owed: () => this.#owed,
      recordFrom: (part, persisted) => part.#recordFrom(persisted),
    });
  }

  /** Starts recording a fork from its start, as the cards' restoreGame with `record: true` does. */
  #recordFrom(persisted: Record<string, unknown>): void {
    this.#recorder = new CardRecorder({ from: 'persisted', options: jsonCopy(persisted), cards: { name: this.#def.name }, ...(this.#use === undefined ? {} : { use: this.#use }) });
    this.#recorder.began(this.check());
  }

  read(options: SeatOptions | undefined, view: (options?: SeatOptions) => TurnView): unknown {
    return seenCards(this.#def, this.#state, options, view);
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
    return seatEventOf(event, viewer, this.#controlled, this.#def, this.#state);
  }

  recording(): unknown {
    if (this.#recorder === null) {
      throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'options.record: this card game keeps no recording; make it with createCardGame(cards, { ..., record: true })');
    }
    return this.#recorder.recording();
  }
}
