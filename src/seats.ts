/**
 * Private seats (CONTRACT.md v3, "Playing between people"): what one seat, or a spectator, is
 * shown of a game. A seat sees everything but another player's private fields; a spectator sees
 * no player's. The private fields are listed once, in {@link PRIVATE_FIELDS}; the Game shell
 * (src/game/shell.ts) applies them to `view`, `getSnapshot` and `on` for every turn logic.
 */
import type { EmittedEvent, EmittedEventType, PlayerId, SeatEvent, TurnView } from './contract.js';
import { ErrorCode, TurnEngineError } from './errors.js';

/** The keys of an object type that may be absent. */
type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];

/** TurnView fields that hold one entry per player. */
type ByPlayerField = { [K in keyof TurnView]-?: TurnView[K] extends Record<PlayerId, unknown> | null ? (TurnView[K] extends readonly unknown[] ? never : K) : never }[keyof TurnView];

/**
 * Every private field of the game, in one table (CONTRACT v3, "Private seats"). A player's stops
 * and yields are theirs; yields are in no view or event (they show only as passes), so only the
 * stops and the reason of automatic passes need hiding. A later private field is one more line here.
 */
export const PRIVATE_FIELDS = {
  /** TurnView fields with one entry per player: another player's entry is shown as null. */
  view: ['stops'],
  /**
   * Emitted events' fields private to the player the event names (`player`): absent for every
   * other seat and for spectators. An `autoPass` of another player arrives as a plain pass.
   * Each field must be optional in {@link SeatEvent}, the type seats and spectators receive.
   */
  events: { autoPass: ['reason'] },
} as const satisfies {
  view: readonly ByPlayerField[];
  events: { readonly [K in EmittedEventType]?: readonly OptionalKeys<Extract<SeatEvent, { type: K }>>[] };
};

/** Who looks at the game: one seat, or a spectator (the host, who sees everything, is no viewer). */
export type Viewer = { readonly seat: PlayerId } | { readonly spectator: true };

/** The key of a viewer's frozen snapshot (`getSnapshot(options)` keeps one per viewer). */
export function viewerKey(viewer: Viewer): string {
  return 'seat' in viewer ? `seat:${viewer.seat}` : 'spectator';
}

function invalid(method: string, message: string): TurnEngineError {
  return new TurnEngineError(ErrorCode.INVALID_OPTIONS, `${method}: ${message}`);
}

/**
 * The viewer that `view`, `getSnapshot` or `on` (`method`) was given: `{ seat }` naming one of
 * the players the game began with (a player who left still has their seat), or
 * `{ spectator: true }`. Anything else throws INVALID_OPTIONS naming the field: options that do
 * not say who looks never fall back to the host's full view.
 */
export function viewerOf(options: unknown, seats: readonly PlayerId[], method: string): Viewer {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw invalid(method, 'options must be { seat } or { spectator: true }');
  const record = options as Record<string, unknown>;
  for (const key of Object.keys(record)) if (key !== 'seat' && key !== 'spectator') throw invalid(method, `options.${key} is not an option`);
  const hasSeat = 'seat' in record;
  const hasSpectator = 'spectator' in record;
  if (hasSeat && hasSpectator) throw invalid(method, 'options.seat and options.spectator: not both');
  if (hasSpectator) {
    if (record.spectator !== true) throw invalid(method, 'options.spectator must be true');
    return { spectator: true };
  }
  if (!hasSeat) throw invalid(method, 'options must be { seat } or { spectator: true }');
  const seat = record.seat;
  if (typeof seat !== 'string') throw invalid(method, 'options.seat must be a player id (a string)');
  if (!seats.includes(seat)) throw invalid(method, `options.seat: ${JSON.stringify(seat)} is not a player of this game (its players: ${seats.join(', ')})`);
  return { seat };
}

/** Whether `player`'s private fields are shown to the viewer. */
function shows(viewer: Viewer, player: unknown): boolean {
  return 'seat' in viewer && viewer.seat === player;
}

/**
 * A view as the viewer sees it: every private field of another player null. `view` is a fresh
 * view (or a shallow copy of a frozen one): its records with private entries are replaced, never
 * changed in place; it is returned.
 */
export function seatView(view: TurnView, viewer: Viewer): TurnView {
  for (const field of PRIVATE_FIELDS.view) {
    const byPlayer = view[field];
    if (byPlayer === null) continue;
    const shown: typeof byPlayer = {};
    for (const player of Object.keys(byPlayer)) shown[player] = shows(viewer, player) ? (byPlayer[player] ?? null) : null;
    view[field] = shown;
  }
  return view;
}

/** Whether `event` hides something from the viewer (another player's private fields): {@link seatEvent} would change it. */
export function hidesFrom(event: EmittedEvent, viewer: Viewer): boolean {
  return (PRIVATE_FIELDS.events as { readonly [type: string]: readonly string[] | undefined })[event.type] !== undefined && !shows(viewer, (event as { player?: unknown }).player);
}

/** An emitted event as the viewer receives it: `event` is the viewer's own copy, changed in place and returned. */
export function seatEvent(event: EmittedEvent, viewer: Viewer): SeatEvent {
  const fields = (PRIVATE_FIELDS.events as { readonly [type: string]: readonly string[] | undefined })[event.type];
  if (fields === undefined || shows(viewer, (event as { player?: unknown }).player)) return event;
  for (const field of fields) delete (event as unknown as Record<string, unknown>)[field];
  return event;
}
