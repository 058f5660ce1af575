/**
 * Many server processes for the scale-out test and the server benchmark (issue 25, point 6):
 * `mtg-turn-engine serve` run from the sources as real child processes (one of many, sharing a
 * PostgreSQL store and Redis), scripted players (bots) that play a served game through
 * `connectTable`, keeping every event they receive and every answer they get, and the game as
 * the store has it (every event, replayed from its sends) to compare them with.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import type { EmittedEvent, LegalAction, SeatEvent } from '../../src/index.js';
import type { Table, TableSendResult } from '../../src/client/index.js';
import { replayCardSends } from '../../src/server/cardReload.js';
import { servedCards } from '../../src/server/cardGames.js';
import { seatEvents, viewerOf } from '../../src/server/seatState.js';
import type { GameStore, StoredSend } from '../../src/server/index.js';

const root = resolve(import.meta.dirname, '../..');
const RUN_MAIN = "const { main } = await import('./src/cli/main.ts'); process.exitCode = await main(process.argv.slice(1));";

/** A `mtg-turn-engine serve` child process. */
export interface ServeProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Every line it printed. */
  readonly out: string[];
  /** Resolves with its exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  /** Resolves with the first line matching `test` (printed already, or later). */
  line(test: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
}

/** Runs `mtg-turn-engine <args>` from the sources in a child process. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): ServeProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', RUN_MAIN, '--', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const out: string[] = [];
  const waiting: { test: RegExp; resolve: (m: RegExpExecArray) => void }[] = [];
  const take = (chunk: Buffer) => {
    for (const text of chunk.toString('utf8').split('\n').filter((l) => l.length > 0)) {
      out.push(text);
      for (const w of [...waiting]) {
        const m = w.test.exec(text);
        if (m !== null) {
          waiting.splice(waiting.indexOf(w), 1);
          w.resolve(m);
        }
      }
    }
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const line = (test: RegExp, timeoutMs = 120_000) =>
    new Promise<RegExpExecArray>((found, fail) => {
      const seen = out.map((l) => test.exec(l)).find((m) => m !== null);
      if (seen !== undefined) return found(seen);
      const timer = setTimeout(() => fail(new Error(`no line ${test} in:\n${out.join('\n')}`)), timeoutMs);
      waiting.push({
        test,
        resolve: (m) => {
          clearTimeout(timer);
          found(m);
        },
      });
    });
  return { child, pid: child.pid as number, out, exited, line };
}

/** Starts `serve` as one process of a cluster and resolves once it listens and has printed what it says on starting (its last line names POST /games). */
export async function startClusterProcess(options: { store: string; redis: string; port: number; adminKey: string }): Promise<ServeProcess> {
  const run = runCli(['serve', '--store', options.store, '--redis', options.redis, '--port', String(options.port), '--admin-key', options.adminKey]);
  await Promise.race([
    run.line(/^POST http:\/\/.*\/games/),
    run.exited.then((code) => {
      throw new Error(`serve exited (${String(code)}) before it listened:\n${run.out.join('\n')}`);
    }),
  ]);
  return run;
}

/** Creates a game through `POST /games` on a server. */
export async function postGame(httpUrl: string, adminKey: string, options: Record<string, unknown>): Promise<{ gameId: string; tokens: Record<string, string> }> {
  const res = await fetch(`${httpUrl}/games`, { method: 'POST', headers: { Authorization: `Bearer ${adminKey}`, 'Content-Type': 'application/json' }, body: JSON.stringify(options) });
  if (res.status !== 200) throw new Error(`POST /games answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { gameId: string; tokens: Record<string, string> };
}

/** The process id (pid) in a lease owner's name (`host:pid:server:processId`), or null. */
export function pidOfOwner(owner: string | null): number | null {
  const parts = owner?.split(':') ?? [];
  const pid = Number(parts[parts.length - 3]);
  return Number.isSafeInteger(pid) ? pid : null;
}

/** A send the bot made. */
export interface BotSend {
  readonly event: Record<string, unknown>;
  /**
   * The version of the view it was decided on. Only this seat could act there, so the send made
   * the next version (after any sends of the server's own: seat status, TICK). The view when the
   * answer comes cannot tell: the other seat's next update may be read with the answer.
   */
  readonly before: number;
}

/**
 * A scripted player of one seat: whenever its table may act (and the bot is not paused), it sends
 * its seat's decision: attack with one creature, block with none, discard what is asked, pass.
 * It keeps every event its table receives, each accepted send with the version it made, and the
 * sends answered DISCONNECTED (taken or not: the store tells).
 */
export class Bot {
  readonly events: SeatEvent[] = [];
  readonly accepted: BotSend[] = [];
  readonly disconnected: Record<string, unknown>[] = [];
  /** Refusals other than DISCONNECTED (a decision that the game had moved past): code -> count. */
  readonly refused = new Map<string, number>();
  /** The `seq` of the view when the table joined (its events come after it). */
  readonly joinedSeq: number;
  /** Called before each send, with the event; after each answer, with the result. */
  beforeSend: ((event: Record<string, unknown>) => void) | null = null;
  afterAnswer: ((event: Record<string, unknown>, result: TableSendResult) => void) | null = null;
  #busy = false;
  #stopped = false;
  #idle: (() => void)[] = [];

  constructor(
    readonly table: Table,
    readonly seat: string,
    /** Whether the bot must not start a send now. */
    private readonly paused: () => boolean,
    /** Whether the game is far enough: the bot stops. */
    private readonly done: (table: Table) => boolean,
  ) {
    this.joinedSeq = table.getSnapshot().seq;
    table.on('*', (e) => this.events.push(e));
    table.subscribe(() => this.kick());
    table.onStatus(() => this.kick());
  }

  /** Whether a send is under way. */
  get busy(): boolean {
    return this.#busy;
  }

  /** Sends the next decision, if the bot may. */
  kick(): void {
    if (this.#busy || this.#stopped || this.paused() || this.table.status !== 'connected') return this.#settle();
    if (this.done(this.table)) return this.#settle();
    const action = this.table.legalActions().find((a) => ['DECLARE_ATTACKERS', 'DECLARE_BLOCKERS', 'DISCARD', 'PASS_PRIORITY'].includes(a.type));
    if (action === undefined) return this.#settle();
    const event = this.#fill(action);
    this.#busy = true;
    this.beforeSend?.(event);
    const before = this.table.getSnapshot().version;
    void this.table.send(event as unknown).then((result) => {
      this.#busy = false;
      if (result.ok) this.accepted.push({ event, before });
      else if (result.error.code === 'DISCONNECTED') this.disconnected.push(event);
      else this.refused.set(result.error.code, (this.refused.get(result.error.code) ?? 0) + 1);
      this.afterAnswer?.(event, result);
      this.kick();
    });
  }

  /** Resolves once the bot has no send under way. */
  idle(): Promise<void> {
    if (!this.#busy) return Promise.resolve();
    return new Promise((done) => this.#idle.push(done));
  }

  stop(): void {
    this.#stopped = true;
  }

  #settle(): void {
    if (this.#busy) return;
    for (const done of this.#idle.splice(0)) done();
  }

  #fill(action: LegalAction): Record<string, unknown> {
    const { choose, ...event } = action as LegalAction & Record<string, unknown>;
    const view = this.table.getSnapshot();
    for (const field of choose as string[]) {
      if (field === 'attackers') event.attackers = [{ id: `${this.seat}-creature-${view.turn}`, defender: view.players.find((p) => p !== this.seat) }];
      else if (field === 'blockers') event.blockers = [];
    }
    return event;
  }
}

/** Every event of a stored game (replayed from its first snapshot and every send), and its sends. */
export async function storedGame(store: GameStore, gameId: string): Promise<{ events: EmittedEvent[]; sends: StoredSend[] }> {
  const first = (await store.snapshots(gameId))[0];
  if (first === undefined) throw new Error(`game ${gameId}: no snapshot`);
  const sends = await store.sends(gameId, first.version);
  // The games of `serve` are served card games of the v3 cards without hooks (src/cli/serve.ts).
  return { events: replayCardSends(gameId, first, sends, servedCards({ saveState: () => null, loadState: () => undefined })).events, sends };
}

/** What a bot saw and sent, held against the store: every discrepancy, as a line (none: all is well). */
export function compareWithStore(bot: Bot, stored: { events: EmittedEvent[]; sends: StoredSend[] }): string[] {
  const problems: string[] = [];
  const who = `seat ${bot.seat}`;
  // 1. The bot's events are the store's, as its seat receives them, each once and in order, from its join on.
  const expected = seatEvents(
    stored.events.filter((e) => (e.seq ?? 0) > bot.joinedSeq),
    viewerOf(bot.seat),
  );
  if (JSON.stringify(bot.events) !== JSON.stringify(expected)) {
    const at = bot.events.findIndex((e, i) => JSON.stringify(e) !== JSON.stringify(expected[i]));
    problems.push(`${who}: its ${bot.events.length} events differ from the store's ${expected.length}, first at ${at} (seq ${bot.events[at]?.seq} / ${expected[at]?.seq})`);
  }
  // 2. Every accepted send is in the store, once, at the version it made: the next after the view it was decided on.
  for (const sent of bot.accepted) {
    const row = madeBy(sent, stored.sends);
    if (row === undefined) problems.push(`${who}: the accepted ${JSON.stringify(sent.event)}, decided at version ${sent.before}, is not the store's next send (${JSON.stringify(stored.sends.find((s) => s.version === sent.before + 1)?.event)})`);
  }
  return problems;
}

/** The store's send that an accepted send made: the first after the version it was decided on, past the server's own sends; undefined if that is another send. */
export function madeBy(sent: BotSend, sends: readonly StoredSend[]): StoredSend | undefined {
  for (const row of sends) {
    if (row.version <= sent.before) continue;
    if (sameSend(sent.event, row.event)) return row;
    if (!serverSend(row)) return undefined;
  }
  return undefined;
}

/** Whether a stored send is the server's own (seat status, TICK), not a table's. */
function serverSend(row: StoredSend): boolean {
  const type = (row.event as { type?: unknown }).type;
  return type === 'SET_SEAT_STATUS' || type === 'TICK';
}

/** Whether a stored event is the send (the server adds `at`). */
export function sameSend(sent: Record<string, unknown>, stored: unknown): boolean {
  if (typeof stored !== 'object' || stored === null) return false;
  return Object.entries(sent).every(([key, value]) => JSON.stringify((stored as Record<string, unknown>)[key]) === JSON.stringify(value));
}

/**
 * The store's sends of a game that no bot's accepted answer accounts for: each must be a server
 * send (seat status, TICK) or one of the sends answered DISCONNECTED (taken before the drop).
 * The lines name those that are neither (a send applied twice, or out of nowhere).
 */
export function unaccounted(bots: Bot[], sends: readonly StoredSend[]): string[] {
  const problems: string[] = [];
  const accepted = new Map<number, BotSend>();
  for (const sent of bots.flatMap((b) => b.accepted)) {
    const row = madeBy(sent, sends);
    if (row === undefined) continue; // compareWithStore says so
    const other = accepted.get(row.version);
    if (other !== undefined) problems.push(`version ${row.version}: two accepted answers (${JSON.stringify(other.event)} at ${other.before}, ${JSON.stringify(sent.event)} at ${sent.before}) for one send`);
    accepted.set(row.version, sent);
  }
  const maybe = bots.flatMap((b) => b.disconnected);
  for (const row of sends) {
    if (accepted.has(row.version) || serverSend(row)) continue;
    const i = maybe.findIndex((e) => sameSend(e, row.event));
    if (i < 0) problems.push(`version ${row.version}: ${JSON.stringify(row.event)} was accepted by nobody's answer and is no send answered DISCONNECTED (applied twice?)`);
    else maybe.splice(i, 1);
  }
  return problems;
}
