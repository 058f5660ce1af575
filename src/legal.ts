/**
 * `game.legalActions(player?)`: the decisions `send` would accept now, as templates with the
 * fields the caller must choose named in `choose`. The templates come from the events' records
 * (src/events/); every template is checked against the record's legality with its choices
 * filled in the plainest way, so a listed template is always accepted.
 */
import type { Awaiting, PlayerId, TurnEvent } from './contract.js';
import type { TurnContext } from './state.js';
import { ErrorCode, TurnEngineError } from './errors.js';
import { ALWAYS_OFFERED, ANSWERS, EVENTS, PLAINEST_ANSWER, TEAMMATE_MAY_ANSWER, violationOf, type ActionChoices, type ChosenFieldOf, type EventRecord, type EventType, type FilledAction, type LegalAction, type Template, type Who } from './events/index.js';
import { decider } from './rules/control.js';
import { unitOf } from './rules/units.js';
import { awaitingOf, type SnapshotLike } from './view.js';

export type { ActionChoices, ChosenFieldOf, FilledAction, LegalAction, LegalActionOf, LegalActionTemplate } from './events/index.js';

const recordOf = (type: EventType): EventRecord<EventType> => EVENTS[type] as EventRecord<EventType>;

/** The template less its `choose` (a new object the caller may fill in; object rest would take V8's slow path). */
function withoutChoose(action: LegalAction): Record<string, unknown> & { type: LegalAction['type']; player: PlayerId } {
  const out: Record<string, unknown> = {};
  for (const key in action) if (key !== 'choose') out[key] = (action as unknown as Record<string, unknown>)[key];
  return out as Record<string, unknown> & { type: LegalAction['type']; player: PlayerId };
}

/** A template with its choices filled in the plainest way (its record's `fill`: an unused id, no creatures, the first defender, the order as listed). */
export function plainestFill(action: LegalAction, awaiting: Awaiting | null, ctx: Pick<TurnContext, 'stack' | 'pendingTriggers'>): TurnEvent {
  const rest = withoutChoose(action);
  recordOf(rest.type).template?.fill?.(rest, awaiting, ctx);
  return rest as TurnEvent;
}

/**
 * Whether a player may answer what is awaited: the awaited player, or with shared team turns
 * any member of their team, unless the decisions that answer it are each player's own (their
 * records' `teammateMayAnswer`: discards, mulligans, cards on the bottom, opening hand actions,
 * a blocker's order of attackers, the choice of the starting player).
 * CR 805.5, 805.7, 805.10.
 */
export function mayAnswer(ctx: Pick<TurnContext, 'teams' | 'variant'>, awaiting: Awaiting, p: PlayerId): boolean {
  if (awaiting.player === p) return true;
  return TEAMMATE_MAY_ANSWER[awaiting.kind] && unitOf(ctx, awaiting.player) === unitOf(ctx, p);
}

/** An event type its record offers, with its template. */
export interface Offer {
  type: EventType;
  template: Template<EventType>;
}
const offerOf = (type: EventType): Offer => ({ type, template: recordOf(type).template as Template<EventType> });
/** For each kind of what is awaited, the offers of its answers (ANSWERS, the plainest first); and those made at any time. */
const OFFERS = Object.fromEntries(Object.entries(ANSWERS).map(([kind, types]) => [kind, types.map(offerOf)])) as unknown as { readonly [K in Awaiting['kind']]: readonly Offer[] };
const ALWAYS: readonly Offer[] = ALWAYS_OFFERED.map(offerOf);

/** A candidate before its template is made: the offer, who makes it, the fields it offers (undefined: none); true stops the walk. */
export type Visit = (offer: Offer, who: Who, fields: Record<string, unknown> | undefined) => boolean;

/** Each candidate of an offer for a player (`who`): one per set of fields its record offers from what is awaited, or one. */
function eachOf(offer: Offer, who: Who, awaiting: Awaiting | null, visit: Visit): boolean {
  const offered = awaiting === null ? undefined : offer.template.fields?.(awaiting);
  if (offered === undefined) return visit(offer, who, undefined);
  for (const fields of offered) if (visit(offer, who, fields as Record<string, unknown>)) return true;
  return false;
}

/** The type, who decides, the fields offered (built field by field: spreads take V8's slow path). */
function baseOf(offer: Offer, who: Who, fields: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { type: offer.type, player: who.player };
  if (who.by !== undefined) out.by = who.by;
  if (fields !== undefined) for (const key in fields) out[key] = fields[key];
  return out;
}

/** One template: the type, who decides, the fields offered (`base`, when made already), then what the caller chooses. */
function templateOf(offer: Offer, who: Who, fields: Record<string, unknown> | undefined, out = baseOf(offer, who, fields)): LegalAction {
  out.choose = offer.template.choose.slice();
  return out as unknown as LegalAction;
}

/** A candidate's event with its choices filled in the plainest way: {@link plainestFill} of its template, without the template. */
export function filledOf(offer: Offer, who: Who, fields: Record<string, unknown> | undefined, awaiting: Awaiting | null, ctx: Pick<TurnContext, 'stack' | 'pendingTriggers'>): TurnEvent {
  const out = baseOf(offer, who, fields);
  offer.template.fill?.(out, awaiting, ctx);
  return out as TurnEvent;
}

/**
 * Each candidate for one player, before the legality check (the first is the plainest answer to
 * what is awaited), until `visit` returns true (then true). No template is made: only the legal
 * ones need one (issue 31).
 */
export function eachCandidate(ctx: TurnContext, awaiting: Awaiting | null, p: PlayerId, visit: Visit): boolean {
  if (awaiting !== null && mayAnswer(ctx, awaiting, p)) {
    const who = whoOf(ctx, p);
    for (const offer of OFFERS[awaiting.kind]) if (eachOf(offer, who, awaiting, visit)) return true;
  }
  // Offered at any time and made by the player themselves (CR 723.6: a controller can't make a player concede).
  const self = { player: p };
  for (const offer of ALWAYS) if (eachOf(offer, self, awaiting, visit)) return true;
  return false;
}

/** The player of a template, and who decides for them if someone else does (CR 723.5). */
function whoOf(ctx: TurnContext, p: PlayerId): Who {
  const by = decider(ctx, p);
  return by === p ? { player: p } : { player: p, by };
}

/** The first of {@link candidates} (the plainest answer to what is awaited), without building the others. */
export function plainestCandidate(ctx: TurnContext, awaiting: Awaiting | null, p: PlayerId): LegalAction {
  return awaiting !== null && mayAnswer(ctx, awaiting, p) ? firstTemplateOf((OFFERS[awaiting.kind] as readonly Offer[])[0] as Offer, whoOf(ctx, p), awaiting) : firstTemplateOf(ALWAYS[0] as Offer, { player: p }, awaiting);
}

/** The first template of an offer for a player. */
function firstTemplateOf(offer: Offer, who: Who, awaiting: Awaiting | null): LegalAction {
  return templateOf(offer, who, awaiting === null ? undefined : (offer.template.fields?.(awaiting)[0] as Record<string, unknown> | undefined));
}

/** The plainest answer to what is awaited, made by the awaited player themselves (what `passUntil` sends). */
export function plainestAnswerTo(awaiting: Awaiting): TurnEvent {
  // plainestFill of its first template, without the template.
  const offer = offerOf(PLAINEST_ANSWER[awaiting.kind]);
  return filledOf(offer, { player: awaiting.player }, offer.template.fields?.(awaiting)[0] as Record<string, unknown> | undefined, awaiting, { stack: [], pendingTriggers: [] });
}

/** The decisions that would be accepted now, from one player or every player in turn order. */
export function legalActionsOf(snapshot: SnapshotLike, player?: string): LegalAction[] {
  const ctx = snapshot.context;
  if (snapshot.status !== 'active' || ctx.result !== null) return [];
  const awaiting = awaitingOf(snapshot);
  const out: LegalAction[] = [];
  for (const p of ctx.players) {
    if (player !== undefined && p !== player) continue;
    eachCandidate(ctx, awaiting, p, (offer, who, fields) => {
      const event = filledOf(offer, who, fields, awaiting, ctx);
      // A record without a fill checks the template's own fields: that object becomes the template (no second one made).
      if (violationOf(ctx, awaiting, event) === null) out.push(templateOf(offer, who, fields, offer.template.fill === undefined ? (event as unknown as Record<string, unknown>) : undefined));
      return false;
    });
  }
  return out;
}

/** The choices of a LegalAction that leaves nothing to choose: none (an empty object, or nothing). */
export type NoChoices = { readonly [field: string]: never };

/** What `fillAction` takes beside the action: its choices, which may be left out when it leaves nothing to choose. */
export type ChoicesArgument<A extends LegalAction> = [ChosenFieldOf<A>] extends [never] ? [choices?: NoChoices] : [choices: ActionChoices<A>];

const refuse = (message: string): TurnEngineError => new TurnEngineError(ErrorCode.INVALID_EVENT, `fillAction: ${message}`);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const listed = (fields: readonly string[]): string => (fields.length === 0 ? 'nothing' : fields.join(', '));

/**
 * The event of a LegalAction with the fields it leaves to choose filled in: the template's
 * fields, `choose` dropped, and exactly the fields `choose` names taken from `choices`. Typed
 * from the action, so no cast is needed: `fillAction(attack, { attackers })` is a
 * DECLARE_ATTACKERS event, `fillAction(pass)` a PASS_PRIORITY. Narrow a LegalAction by its
 * `type` first to have the choices checked at compile time.
 *
 * It checks the shape only (the values are `send`'s to check) and throws a
 * {@link TurnEngineError} INVALID_EVENT naming the field when the action is not a LegalAction,
 * a chosen field is missing (or undefined), or `choices` has a field the action does not leave
 * to choose (`speed`, `player`, a misspelt name). It changes neither the action nor the choices.
 */
export function fillAction<A extends LegalAction>(action: A, ...rest: ChoicesArgument<A>): FilledAction<A> {
  const template: unknown = action;
  if (!isObject(template)) throw refuse('action: must be a LegalAction from game.legalActions()');
  const type = template.type;
  const record = typeof type === 'string' && Object.hasOwn(EVENTS, type) ? recordOf(type as EventType) : undefined;
  if (record?.template === undefined) throw refuse(`action.type: ${JSON.stringify(type)} is not the type of a LegalAction`);
  const offered = record.template.choose as readonly string[];
  const choose = template.choose;
  if (!Array.isArray(choose)) throw refuse(`action.choose: must be the list of fields ${String(type)} leaves to choose (${listed(offered)})`);
  for (const [i, field] of choose.entries()) {
    if (typeof field !== 'string' || !offered.includes(field)) throw refuse(`action.choose[${i}]: ${JSON.stringify(field)} is not a field ${String(type)} leaves to choose (${listed(offered)})`);
  }
  const fields = choose as string[];
  const choices: unknown = rest[0];
  if (choices !== undefined && !isObject(choices)) throw refuse(`choices: must be an object of the fields ${String(type)} leaves to choose (${listed(fields)})`);
  const given = choices ?? {};
  for (const key of Object.keys(given)) {
    if (!fields.includes(key)) throw refuse(`choices.${key}: ${String(type)} does not leave ${key} to choose (it leaves ${listed(fields)})`);
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(template)) if (key !== 'choose') out[key] = template[key];
  for (const field of fields) {
    if (!Object.hasOwn(given, field) || given[field] === undefined) throw refuse(`choices.${field}: missing (${String(type)} leaves ${listed(fields)} to choose)`);
    out[field] = given[field];
  }
  return out as FilledAction<A>;
}
