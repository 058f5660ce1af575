/**
 * The lobby (served by `npm start`, `serve --demo`): creates a game on the server that serves
 * the page (`POST /lobby/games`; the admin key stays on the server) and links its seats, each
 * with its token, to be opened in its own tab or browser, the game in the inspector (its link
 * carries the inspector's key) and as a spectator; "Play against a bot" makes the server play every
 * seat but the first with random legal actions, "Play against a Monte Carlo bot" (on a server of
 * cards whose definition has `bots.montecarlo`, the `X-Lobby-Bots` header) with the planner. On a server of card games (`npm start`: the example cards, `about.cards`)
 * the games are two-seat card games, each seat's link opening the card table.
 */
import { useState } from 'react';
import { gameOptions, PLAIN, SettingsFields, type TableSettings } from './Settings.tsx';

interface Created {
  gameId: string;
  seats: { player: string; url: string }[];
  inspector: string;
}

/** What the server that serves the page creates (`serve --demo --cards`: card games of a definition, two seats), or null: games without cards, or no lobby. */
export interface LobbyAbout {
  cards: string | null;
  seats: number;
  /** The cards' named bots (bots that plan, e.g. `montecarlo`), offered beside the random bot. */
  bots?: string[];
}

/** How the lobby names a named bot on its button. */
const BOT_LABELS: Record<string, string> = { montecarlo: 'a Monte Carlo bot' };

/** Asks the server what its lobby creates: the `X-Lobby-Cards` header of the page (a HEAD of `/`, there whoever serves the page). */
export async function lobbyAbout(): Promise<LobbyAbout | null> {
  try {
    const res = await fetch('/', { method: 'HEAD' });
    const cards = res.headers.get('X-Lobby-Cards');
    const bots = res.headers.get('X-Lobby-Bots');
    return cards === null ? null : { cards: decodeURIComponent(cards), seats: 2, bots: bots === null ? [] : decodeURIComponent(bots).split(',').filter((b) => b !== '') };
  } catch {
    return null;
  }
}

export function Lobby({ back, about }: { back: () => void; about: LobbyAbout | null }) {
  const [players, setPlayers] = useState(2);
  const cards = about?.cards ?? null;
  const most = about?.seats ?? 4;
  const [settings, setSettings] = useState<TableSettings>(PLAIN);
  const [created, setCreated] = useState<Created | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const create = async (bot: boolean | string = false) => {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch('/lobby/games', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ players, ...(bot !== false ? { bot } : {}), ...gameOptions(settings) }) });
      const body = (await res.json().catch(() => null)) as (Created & { error?: { message: string } }) | null;
      if (!res.ok || body === null) throw new Error(body?.error?.message ?? `the server answered ${res.status}: is it \`npm start\`?`);
      setCreated(body);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <header>
        <h1>mtg-turn-engine · {cards === null ? 'lobby' : 'example cards'}</h1>
        <button data-testid="lobby-back" onClick={back}>
          Back to the local table
        </button>
      </header>
      <main className="lobby">
        <section>
          <h2>{cards === null ? 'A game over the network' : 'A card game over the network'}</h2>
          {cards !== null && (
            <p data-testid="lobby-cards">
              Two players, 20-card decks of ten kinds (lands, creatures, Shock, Lava Axe, Counterspell, ...), 20 life: the server plays the cards (<code>{cards}</code>), keeps each hand to its seat, and ends the game at 0 life or on an empty library.
            </p>
          )}
          <p>The server keeps the game; each seat plays it from its own tab (or browser), with the link below. A link holds its seat's token: give each player only their own.</p>
          <label>
            seats{' '}
            <select data-testid="lobby-players" value={players} onChange={(e) => setPlayers(Number(e.target.value))}>
              {[2, 3, 4].filter((n) => n <= most).map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>{' '}
          <SettingsFields settings={settings} set={setSettings} prefix="lobby" />{' '}
          <button data-testid="lobby-create" onClick={() => void create()} disabled={busy}>
            Create a game
          </button>{' '}
          <button data-testid="lobby-bot" onClick={() => void create(true)} disabled={busy}>
            Play against a bot
          </button>
          {(about?.bots ?? []).map((name) => (
            <span key={name}>
              {' '}
              <button data-testid={`lobby-bot-${name}`} onClick={() => void create(name)} disabled={busy}>
                Play against {BOT_LABELS[name] ?? `the ${name} bot`}
              </button>
            </span>
          ))}
          {error !== null && (
            <p className="error" data-testid="lobby-error">
              {error}
            </p>
          )}
          {created !== null && (
            <div data-testid="lobby-game" data-game={created.gameId}>
              <p>game {created.gameId}:</p>
              <ul>
                {created.seats.map((s) => (
                  <li key={s.player}>
                    <a data-testid={`seat-link-${s.player}`} href={s.url} target="_blank" rel="noopener noreferrer">
                      play as {s.player}
                    </a>
                  </li>
                ))}
                <li>
                  <a data-testid="inspector-link" href={created.inspector} target="_blank" rel="noopener noreferrer">
                    watch it in the inspector
                  </a>
                </li>
                <li>
                  <a data-testid="spectator-link" href={`/?${new URLSearchParams({ game: created.gameId, spectator: '1' }).toString()}`} target="_blank" rel="noopener noreferrer">
                    watch as a spectator
                  </a>
                </li>
              </ul>
            </div>
          )}
        </section>
      </main>
    </>
  );
}
