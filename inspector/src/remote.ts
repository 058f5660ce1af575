/**
 * Remote mode: follow a game running in another process. The game streams its inspection
 * events with `@statelyai/inspect`'s WebSocket inspector to the relay on this page's own
 * server; the page receives them with `createWebSocketReceiver`. Each snapshot of the turn
 * machine becomes a log entry holding the persisted game, as in local mode.
 */
import { createWebSocketReceiver, type StatelyInspectionEvent } from '@statelyai/inspect';
import type { TurnContext } from '../../src/state.js';
import { FULL_FORMAT, PERSISTED_ENGINE, statePath, type PersistedFull } from '../../src/persistence/format.js';

/** The relay URL of the server that serves this page. */
export function relayUrl(location: Location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/relay`;
}

/** A snapshot of the remote turn machine. */
export interface RemoteSnapshot {
  sessionId: string;
  event: Record<string, unknown> & { type: string };
  /** The followed machine's snapshot as a persisted game in the full form (format 2: its whole context). */
  persisted: PersistedFull;
}

function isTurnContext(context: unknown): context is TurnContext {
  return typeof context === 'object' && context !== null && Array.isArray((context as TurnContext).seats) && typeof (context as TurnContext).turn === 'number';
}

/**
 * Subscribes to the relay; calls `onSnapshot` for each snapshot of a turn machine. A new
 * game (a new actor session) is followed as soon as it registers. Returns a stop function.
 */
export function followRemote(url: string, onSnapshot: (s: RemoteSnapshot, isNewSession: boolean) => void): () => void {
  const receiver = createWebSocketReceiver({ server: url });
  let followed: string | null = null;
  let delivered: string | null = null;
  const subscription = receiver.subscribe((message: StatelyInspectionEvent) => {
    if (message.type === '@xstate.actor' && message.name === 'turn') {
      followed = message.sessionId;
      return;
    }
    if (message.type !== '@xstate.snapshot') return;
    const snapshot = message.snapshot as { status?: string; value?: unknown; context?: unknown };
    if (!isTurnContext(snapshot.context)) return;
    followed ??= message.sessionId;
    if (message.sessionId !== followed) return;
    const fresh = delivered !== message.sessionId;
    delivered = message.sessionId;
    onSnapshot(
      {
        sessionId: message.sessionId,
        event: (message.event ?? { type: '' }) as RemoteSnapshot['event'],
        persisted: {
          engine: PERSISTED_ENGINE,
          format: FULL_FORMAT,
          version: 0,
          status: snapshot.status === 'done' ? 'done' : 'active',
          state: statePath(snapshot.value),
          context: snapshot.context,
        },
      },
      fresh,
    );
  });
  return () => subscription.unsubscribe();
}
