/**
 * Issue 25, point 5: `serve --demo` (`npm start`) serves the example table and the inspector as
 * static files beside Colyseus, and a lobby route that creates games for the example table
 * without the admin key; it is for this machine only. The routes of src/cli/web.ts on a plain
 * HTTP server (the lobby's createGame a stand-in), and the command's refusals in a child process.
 * The whole of `npm start` in Chromium: test/e2e/networked-table.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoRoutes, lobbyOptions, pageFolders, PAGE_CSP } from '../../src/cli/web.js';
import { isLoopback } from '../../src/cli/serve.js';

const root = resolve(import.meta.dirname, '../..');

describe('serve --demo: the pages and the lobby (issue 25, point 5)', () => {
  let dir: string;
  let http: Server;
  let base: string;
  const created: Record<string, unknown>[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mtg-demo-'));
    await mkdir(join(dir, 'web', 'table', 'assets'), { recursive: true });
    await mkdir(join(dir, 'web', 'inspector'), { recursive: true });
    await writeFile(join(dir, 'web', 'table', 'index.html'), '<!doctype html><title>table</title>');
    await writeFile(join(dir, 'web', 'table', 'assets', 'index-abc.js'), 'console.log(1)');
    await writeFile(join(dir, 'web', 'inspector', 'index.html'), '<!doctype html><title>inspector</title>');
    await writeFile(join(dir, 'secret.txt'), 'not a page');
    const folders = await pageFolders(join(dir, 'web'));
    const routes = demoRoutes({
      folders,
      perMinute: 5,
      inspectKey: 'inspect-key-0123456789',
      createGame: async (options) => {
        if ((options as { clock?: unknown }).clock === 'bad') throw Object.assign(new Error('options.clock: must be an object'), { code: 'INVALID_OPTIONS' });
        created.push(options);
        const players = options.players as string[];
        return { gameId: `g${created.length}`, tokens: Object.fromEntries(players.map((p) => [p, `token-of-${p}`])) };
      },
    });
    http = createServer((req, res) => {
      void Promise.resolve(routes(req, res)).then((answered) => {
        if (!answered) res.writeHead(418).end('left to the other routes');
      });
    });
    await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((done) => http.close(() => done()));
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the table at / and the inspector at /inspector/, with a strict CSP and nosniff; assets are cached for good', async () => {
    const page = await fetch(`${base}/?game=g1&seat=Alice&token=t`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>table</title>');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(PAGE_CSP).toMatch(/default-src 'self'/);
    expect(PAGE_CSP).not.toMatch(/unsafe-eval/);
    const asset = await fetch(`${base}/assets/index-abc.js`);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const inspector = await fetch(`${base}/inspector/`);
    expect(await inspector.text()).toContain('<title>inspector</title>');
    const redirect = await fetch(`${base}/inspector?game=g1`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/inspector/?game=g1');
  });

  it('serves nothing outside the page folders: .., encoded or not, and missing files are 404', async () => {
    const { request } = await import('node:http');
    const raw = (path: string) =>
      new Promise<number>((done, fail) => {
        const req = request(`${base}${path}`, { method: 'GET' }, (res) => (res.resume(), done(res.statusCode ?? 0)));
        req.on('error', fail);
        req.end();
      });
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/inspector/../../secret.txt', '/inspector/%2e%2e%2f%2e%2e%2fsecret.txt', '/nothing.js', '/%00', '/%E0%A4%A']) {
      expect(await raw(path), path).toBe(404);
    }
  });

  it('leaves the admin route, the inspection routes and every other method to the server', async () => {
    for (const [path, method] of [['/games', 'POST'], ['/games', 'GET'], ['/inspect/games', 'GET'], ['/', 'POST'], ['/', 'DELETE']] as const) {
      expect((await fetch(`${base}${path}`, { method })).status, `${method} ${path}`).toBe(418);
    }
  });

  const lobby = (body: unknown, headers: Record<string, string> = {}, method = 'POST') =>
    fetch(`${base}/lobby/games`, { method, headers: { 'Content-Type': 'application/json', ...headers }, ...(method === 'POST' ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}) });

  it('the lobby creates a game of the example seats and answers each seat\'s link, with its token, and the inspector\'s', async () => {
    const res = await lobby({ players: 3 });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { gameId: string; seats: { player: string; url: string }[]; inspector: string };
    expect(created.at(-1)).toEqual({ players: ['Alice', 'Bob', 'Carol'] });
    expect(body.seats).toEqual(['Alice', 'Bob', 'Carol'].map((p) => ({ player: p, url: `/?game=${body.gameId}&seat=${p}&token=token-of-${p}` })));
    // The inspector's link carries its key (issue 32): the inspector keeps it and takes it out of the address.
    expect(body.inspector).toBe(`/inspector/?game=${body.gameId}#key=inspect-key-0123456789`);
    expect((await lobby({})).status).toBe(200);
    expect(created.at(-1)).toEqual({ players: ['Alice', 'Bob'] });
  });

  it('the lobby refuses what is not its to create (400 naming the field), another site (403), another body type (415), a big body (413), a GET (405)', async () => {
    const before = created.length;
    for (const [body, field] of [
      [{ players: 1 }, /body\.players/],
      [{ players: 5 }, /body\.players/],
      [{ players: '2' }, /body\.players/],
      [{ players: 2, variant: 'archenemy' }, /body\.variant/],
      [{ players: 2, seed: 1 }, /body\.seed/],
      [[2], /body/],
      ['{', /not JSON/],
      [{ players: 2, clock: 'bad' }, /options\.clock/],
    ] as const) {
      const res = await lobby(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { error: { code: string; message: string } }).error.message).toMatch(field);
    }
    expect((await lobby({}, { Origin: 'http://evil.example' })).status).toBe(403);
    expect((await lobby({}, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await lobby({}, { 'Content-Type': 'text/plain' })).status).toBe(415);
    expect((await lobby(JSON.stringify({ players: 2, pad: 'x'.repeat(8000) }))).status).toBe(413);
    expect((await lobby({}, {}, 'GET')).status).toBe(405);
    expect(created.length).toBe(before);
    expect(lobbyOptions({ players: 2, undo: { mode: 'own' } })).toEqual({ ok: true, options: { players: ['Alice', 'Bob'], undo: { mode: 'own' } } });
    // "Play against a bot" (issue 32): the server plays every seat but the first.
    expect(lobbyOptions({ players: 2, bot: true })).toEqual({ ok: true, options: { players: ['Alice', 'Bob'], bots: ['Bob'] } });
    expect(lobbyOptions({ bot: 'yes' })).toMatchObject({ ok: false, message: expect.stringMatching(/body\.bot/) });
    // "Play against a Monte Carlo bot" (issue 34): a named bot of the cards plays every seat but the first.
    expect(lobbyOptions({ players: 2, bot: 'montecarlo' }, ['montecarlo'])).toEqual({ ok: true, options: { players: ['Alice', 'Bob'], bots: [{ seat: 'Bob', bot: 'montecarlo' }] } });
    expect(lobbyOptions({ bot: 'montecarlo' })).toMatchObject({ ok: false, message: expect.stringMatching(/body\.bot/) });
    expect(lobbyOptions({ bot: 'nope' }, ['montecarlo'])).toMatchObject({ ok: false, message: expect.stringMatching(/body\.bot: .*\(montecarlo\)/) });
  });

  it('the lobby creates at most perMinute games a minute (429 after)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await lobby({})).status);
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(5);
  });
});

/** Runs `mtg-turn-engine serve <args>` from the sources; its exit code and output. */
function serve(args: string[]): Promise<{ code: number | null; out: string }> {
  const code = "const { main } = await import('./src/cli/main.ts'); process.exitCode = await main(process.argv.slice(1));";
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code, '--', 'serve', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((done) => child.on('exit', (c) => done({ code: c, out })));
}

describe('serve --demo refuses what is not for one machine (issue 25, point 5)', () => {
  it('--demo on an address other than loopback, --web without --demo, pages that were not built: exit 2 naming the option', async () => {
    const missing = join(tmpdir(), 'mtg-no-pages-here');
    for (const [args, message] of [
      [['--demo', '--host', '0.0.0.0'], /--demo is for this machine only/],
      [['--web', missing], /--web needs --demo/],
      [['--demo', '--web', missing], /npm run build:web/],
      [['--demo', '--inspect-key', 'short'], /--inspect-key/],
    ] as const) {
      const { code, out } = await serve([...args, '--port', '0']);
      expect(code, args.join(' ')).toBe(2);
      expect(out).toMatch(message);
    }
  });

  it('knows loopback addresses', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopback(host)).toBe(true);
    for (const host of ['0.0.0.0', '192.168.1.2', 'example.com', '::']) expect(isLoopback(host)).toBe(false);
  });
});

describe('serve --help (issue 33)', () => {
  it('says --demo is for the repository only (npm start in a clone: the pages are not in the installed package)', async () => {
    const { main } = await import('../../src/cli/main.js');
    const out: string[] = [];
    const log = console.log;
    console.log = (line: unknown) => void out.push(String(line));
    try {
      expect(await main(['serve', '--help'])).toBe(0);
    } finally {
      console.log = log;
    }
    const demo = out.join('\n').split('\n').find((l) => l.trimStart().startsWith('--demo'));
    expect(demo).toMatch(/^\s*--demo\s+for the repository only \(npm start in a clone of it\):.*not in the installed package.*loopback only$/);
  });
});
