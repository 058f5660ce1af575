/**
 * Served mode (issue 25, point 5): watch any game a table server holds, when the page is served
 * by that server (`npm start`, `serve --demo`). The server reads each game out as a recording
 * (`GET /inspect/games/<id>/recording`, src/server/inspection.ts) to whoever carries its inspect
 * key; the page opens it as it opens a recording file (scrub bar, time travel) and, while the
 * game goes on, reads it again each time its version moves.
 *
 * The key comes in the address the server printed (`/inspector/#key=K`: a fragment, never sent
 * to any server); the page keeps it in this browser's local storage, so that the lobby's
 * "watch it in the inspector" links (`/inspector/?game=ID`) work in new tabs, and takes it out of
 * the address bar.
 */
import { h } from './dom.js';

/** Where the page keeps the inspect key. */
export const KEY_STORAGE = 'mtg-turn-engine:inspect-key';
/** How often the followed game's version is read. */
export const POLL_MS = 1000;

/** What the server says of a game (src/server/inspection.ts, GameSummary). */
export interface ServedGame {
  gameId: string;
  players: string[];
  version: number;
  finished: boolean;
  createdAt: number;
}

/**
 * The inspect key: from the address (`#key=K`, then kept and taken out of the address; `given`
 * true), or the one kept before; null without one.
 */
export function takeKey(): { key: string | null; given: boolean } {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('key');
  if (fromHash !== null && fromHash !== '') {
    try {
      localStorage.setItem(KEY_STORAGE, fromHash);
    } catch {
      // Storage may be off: the key still works in this tab.
    }
    history.replaceState(null, '', location.pathname + location.search);
    return { key: fromHash, given: true };
  }
  try {
    return { key: localStorage.getItem(KEY_STORAGE), given: false };
  } catch {
    return { key: null, given: false };
  }
}

/** Follows the games of the server that serves the page. */
export class ServedGames {
  games: ServedGame[] = [];
  gameId: string | null = null;
  status = 'reading the games of this server…';
  /** The version last opened. */
  #version = -1;
  #timer: ReturnType<typeof setInterval> | null = null;
  #busy = false;
  #stopped = false;

  constructor(
    private readonly key: string,
    /** A recording of the followed game (its text): open it. */
    private readonly onRecording: (text: string, game: ServedGame) => void,
    /** Something to show changed (the list, the status). */
    private readonly onChange: () => void,
  ) {}

  async #get(path: string): Promise<Response> {
    const res = await fetch(path, { headers: { Authorization: `Bearer ${this.key}` }, cache: 'no-store' });
    if (res.status === 401) throw new Error('the server refused the inspect key: open the inspector at the address the server printed (…/inspector/#key=…)');
    if (!res.ok) throw new Error(`the server answered ${res.status} for ${path}`);
    return res;
  }

  /** Reads the list and follows `gameId` (default: the newest game). */
  async start(gameId: string | null): Promise<void> {
    await this.refresh();
    const chosen = gameId ?? this.games[0]?.gameId ?? null;
    if (chosen !== null) this.follow(chosen);
  }

  /** Reads the list of games again. */
  async refresh(): Promise<void> {
    try {
      this.games = ((await (await this.#get('/inspect/games')).json()) as { games: ServedGame[] }).games;
      if (this.gameId === null) this.status = this.games.length === 0 ? 'no game on this server yet: create one in the lobby of the table, then refresh' : `${this.games.length} game(s) on this server`;
    } catch (err) {
      this.status = err instanceof Error ? err.message : String(err);
    }
    this.onChange();
  }

  /** Follows a game: opens it now, and again each time its version moves. */
  follow(gameId: string): void {
    this.gameId = gameId;
    this.#version = -1;
    this.status = `opening game ${gameId}…`;
    this.onChange();
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = setInterval(() => void this.#poll(), POLL_MS);
    void this.#poll();
  }

  async #poll(): Promise<void> {
    const gameId = this.gameId;
    if (gameId === null || this.#busy || this.#stopped) return;
    this.#busy = true;
    try {
      const game = (await (await this.#get(`/inspect/games/${encodeURIComponent(gameId)}`)).json()) as ServedGame;
      if (game.version !== this.#version && gameId === this.gameId && !this.#stopped) {
        const text = await (await this.#get(`/inspect/games/${encodeURIComponent(gameId)}/recording`)).text();
        if (gameId !== this.gameId || this.#stopped) return;
        this.#version = game.version;
        this.status = `following game ${gameId} (${game.players.join(', ')}): version ${game.version}${game.finished ? ', over' : ''}`;
        this.onRecording(text, game);
      }
    } catch (err) {
      this.status = `game ${gameId}: ${err instanceof Error ? err.message : String(err)}`;
      this.onChange();
    } finally {
      this.#busy = false;
    }
  }

  /** Stops following. */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** The header's part: the game select, a refresh button, the status. */
  header(): HTMLElement {
    const known = this.games.some((g) => g.gameId === this.gameId);
    const options = [
      ...(this.gameId !== null && !known ? [h('option', { value: this.gameId, selected: true }, this.gameId)] : []),
      ...this.games.map((g) => h('option', { value: g.gameId, selected: g.gameId === this.gameId }, `${g.gameId} · ${g.players.join(', ')} · v${g.version}${g.finished ? ' · over' : ''}`)),
    ];
    return h(
      'div',
      { class: 'served' },
      h('label', {}, 'game ', h('select', { 'data-testid': 'served-game', onchange: (e: Event) => this.follow((e.target as HTMLSelectElement).value) }, ...(options.length === 0 ? [h('option', { value: '' }, 'none yet')] : options))),
      h('button', { type: 'button', 'data-testid': 'served-refresh', onclick: () => void this.refresh() }, 'Refresh the list'),
      h('p', { class: 'remote-status', 'data-testid': 'served-status' }, this.status),
    );
  }
}
