/**
 * The e2e harness: builds the inspector page once, serves it on localhost with `vite preview`
 * (with the relay), and drives Debian's Chromium through playwright-core. Every page records
 * console errors, page errors and requests that leave localhost, so each test can assert none.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { build, preview, type PreviewServer } from 'vite';
import { relayOf } from '../../inspector/relay.js';
import { buildWeb } from '../../scripts/build-web.js';

/** The Chromium the tests drive (Debian's package; override with CHROMIUM_PATH). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Flags for a headless Chromium in a container, with no background traffic. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'];
/** How long a page's action or wait may take before it fails (generous: the verdict is what the page shows). */
export const PAGE_TIMEOUT_MS = 120_000;

/** Where screenshots go. */
export const SCREENSHOT_DIR = resolve('test-results', 'e2e');
const CONFIG_FILE = resolve('inspector', 'vite.config.ts');

/**
 * Whether the e2e suite can run. Without Chromium it says so loudly and is skipped,
 * except when CI is set, where the missing browser is a failure.
 */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  const message = `\n${'!'.repeat(78)}\n!! e2e: no Chromium at ${CHROMIUM_PATH}; the browser tests of the inspector are SKIPPED.\n!! Install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH).\n${'!'.repeat(78)}\n`;
  if (process.env.CI) throw new Error(`${message}CI is set: the e2e suite must run.`);
  console.warn(message);
  return false;
}

/** A built and served inspector. */
export interface ServedInspector {
  url: string;
  relayUrl: string;
  outDir: string;
  close(): Promise<void>;
}

/** Builds the page into a temporary folder and serves it on 127.0.0.1 at a free port. */
export async function serveInspector(): Promise<ServedInspector> {
  const outDir = await mkdtemp(join(tmpdir(), 'mtg-inspector-'));
  await build({ configFile: CONFIG_FILE, logLevel: 'error', build: { outDir, emptyOutDir: true } });
  const server: PreviewServer = await preview({ configFile: CONFIG_FILE, logLevel: 'error', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false } });
  const address = server.httpServer.address();
  if (address === null || typeof address === 'string') throw new Error('the preview server has no port');
  const url = `http://127.0.0.1:${address.port}/`;
  const relay = relayOf(server.httpServer);
  if (relay === undefined) throw new Error('the preview server has no relay');
  return {
    url,
    relayUrl: `ws://127.0.0.1:${address.port}/relay?token=${relay.token}`,
    outDir,
    async close() {
      await server.close();
      await rm(outDir, { recursive: true, force: true });
    },
  };
}

/** The gzipped size of the built page's assets, in bytes. */
export async function gzippedSize(outDir: string): Promise<{ total: number; files: Record<string, number> }> {
  const files: Record<string, number> = {};
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else files[path.slice(outDir.length + 1)] = gzipSync(await readFile(path), { level: 9 }).length;
    }
  };
  await walk(outDir);
  return { total: Object.values(files).reduce((a, b) => a + b, 0), files };
}

/** What a page did that it must not: console errors, uncaught errors, requests off localhost. */
export interface PageProblems {
  consoleErrors: string[];
  pageErrors: string[];
  foreignRequests: string[];
}

/** Launches Chromium. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

function isLocal(url: string): boolean {
  if (url.startsWith('data:') || url.startsWith('blob:') || url === 'about:blank') return true;
  try {
    const { hostname } = new URL(url);
    return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
  } catch {
    return false;
  }
}

/** Opens a page that records its problems; requests off localhost are recorded and aborted. */
export async function openPage(browser: Browser, url: string): Promise<{ page: Page; problems: PageProblems; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, colorScheme: 'light' });
  // A busy machine may take long to paint: a wait fails on what the page shows, not on how fast.
  context.setDefaultTimeout(PAGE_TIMEOUT_MS);
  const problems: PageProblems = { consoleErrors: [], pageErrors: [], foreignRequests: [] };
  await context.route('**/*', (route) => {
    const target = route.request().url();
    if (isLocal(target)) return route.continue();
    problems.foreignRequests.push(target);
    return route.abort();
  });
  context.on('request', (request) => {
    if (!isLocal(request.url())) problems.foreignRequests.push(request.url());
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.consoleErrors.push(message.text());
  });
  page.on('pageerror', (err) => problems.pageErrors.push(err.message));
  page.on('websocket', (ws) => {
    if (!isLocal(ws.url())) problems.foreignRequests.push(ws.url());
  });
  await page.goto(url);
  return { page, problems, close: () => context.close() };
}

/** The pages a test file opened: each recorded its problems, and none may have any when they are closed. */
export class OpenedPages {
  readonly #pages: { problems: PageProblems; close(): Promise<void> }[] = [];

  /** Opens a page (in a Chromium context of its own, see {@link openPage}) and keeps it. */
  async open(browser: Browser, url: string): Promise<Page> {
    const o = await openPage(browser, url);
    this.#pages.push(o);
    return o.page;
  }

  /** Asserts that no page had an error or a request off localhost, and closes them all. */
  async closeAll(): Promise<void> {
    for (const o of this.#pages.splice(0)) {
      expect(o.problems.pageErrors).toEqual([]);
      expect(o.problems.consoleErrors).toEqual([]);
      expect(o.problems.foreignRequests).toEqual([]);
      await o.close();
    }
  }
}

/**
 * One inspector page at a time, for the tests of a describe block: `open(hash)` opens the served
 * page (at `url()` + `hash`) and waits for its chart; after each test the page is photographed
 * (test-results/e2e/, named by the test), its hygiene asserted (no console errors, no uncaught
 * errors, no request off localhost) and it is closed.
 */
export function inspectorPages(browser: () => Browser, url: () => string): (hash?: string) => Promise<Page> {
  let opened: Awaited<ReturnType<typeof openPage>> | undefined;
  afterEach(async (ctx) => {
    if (opened === undefined) return;
    const { page, problems, close } = opened;
    opened = undefined;
    await screenshot(page, ctx.task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase());
    expect(problems.consoleErrors, 'console errors').toEqual([]);
    expect(problems.pageErrors, 'uncaught errors').toEqual([]);
    expect(problems.foreignRequests, 'requests off localhost').toEqual([]);
    await close();
  });
  return async (hash = '') => {
    opened = await openPage(browser(), `${url()}${hash}`);
    await opened.page.locator('[data-state]').first().waitFor();
    return opened.page;
  };
}

/** The example table (examples/table) built by Vite into a temporary folder (named from `prefix`) and served on 127.0.0.1. */
export async function serveExampleTable(prefix: string): Promise<{ url: string; close(): Promise<void> }> {
  const configFile = resolve('examples', 'table', 'vite.config.ts');
  const outDir = await mkdtemp(join(tmpdir(), prefix));
  await build({ configFile, logLevel: 'error', build: { outDir, emptyOutDir: true } });
  const server: PreviewServer = await preview({ configFile, logLevel: 'error', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false } });
  const address = server.httpServer.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: async () => {
      await server.close();
      await rm(outDir, { recursive: true, force: true });
    },
  };
}

/**
 * The example table for the tests of a describe block: built and served (see
 * {@link serveExampleTable}) with Chromium launched before them; `open()` opens a page of it and
 * waits for its status line. After them, every page opened must have had no problem (see
 * {@link OpenedPages}), and all is closed.
 */
export function exampleTablePages(prefix: string): () => Promise<Page> {
  let browser: Browser | undefined;
  let table: { url: string; close(): Promise<void> } | undefined;
  const opened = new OpenedPages();
  beforeAll(async () => {
    table = await serveExampleTable(prefix);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await opened.closeAll();
    await browser?.close();
    await table?.close();
  });
  return async () => {
    if (browser === undefined || table === undefined) throw new Error('the example table is not served yet (open() before the tests run)');
    const page = await opened.open(browser, table.url);
    await page.waitForSelector('[data-testid="status"]');
    return page;
  };
}

/** Saves a full-page screenshot under test-results/e2e/. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** A `serve --demo` process started by {@link startDemo}: the addresses it printed, and its output. */
export interface DemoServer {
  child: ChildProcess;
  table: string;
  inspector: string;
  out: string[];
  /** Stops it (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

const RUN_MAIN = "const { main } = await import('./src/cli/main.ts'); process.exitCode = await main(process.argv.slice(1));";

/** `mtg-turn-engine serve --demo` from the sources, as `npm start` runs it, on a free port (with `args`, e.g. `--cards`); resolves with the addresses it printed. */
export async function startDemo(web: string, data: string, args: readonly string[] = []): Promise<DemoServer> {
  const root = resolve(import.meta.dirname, '../..');
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', RUN_MAIN, '--', 'serve', '--demo', '--web', web, '--port', '0', '--data', data, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: string[] = [];
  const printed = new Promise<{ table: string; inspector: string }>((found, fail) => {
    const timer = setTimeout(() => fail(new Error(`serve --demo printed no addresses:\n${out.join('\n')}`)), 90_000);
    const take = (chunk: Buffer) => {
      out.push(...chunk.toString('utf8').split('\n').filter((l) => l !== ''));
      const table = out.map((l) => /^the example table: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(l)?.[1]).find((u) => u !== undefined);
      const inspector = out.map((l) => /^the inspector: (http:\/\/127\.0\.0\.1:\d+\/inspector\/#key=\S+)$/.exec(l)?.[1]).find((u) => u !== undefined);
      if (table !== undefined && inspector !== undefined) {
        clearTimeout(timer);
        found({ table, inspector });
      }
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    child.on('exit', (code) => fail(new Error(`serve --demo exited (${code}):\n${out.join('\n')}`)));
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  };
  try {
    return { child, out, stop, ...(await printed) };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * `serve --demo` (see {@link startDemo}) for the tests of a describe block, as `npm start` serves
 * it: the pages built by Vite into a temporary folder (named from `prefix`), a temporary data
 * folder, `args` (e.g. `--cards`), and Chromium. `open(url)` opens a page in a context of its own
 * (a player of their own: nothing shared) at this viewport. After the tests, every page opened
 * must have had no problem (see {@link OpenedPages}), and all is stopped and removed.
 */
export function demoPages(prefix: string, viewport: { width: number; height: number }, args: readonly string[] = []): { readonly server: DemoServer; open(url: string): Promise<Page> } {
  let dir: string | undefined;
  let server: DemoServer | undefined;
  let browser: Browser | undefined;
  const opened = new OpenedPages();
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
    await buildWeb(join(dir, 'web'), 'error');
    server = await startDemo(join(dir, 'web'), join(dir, 'data'), args);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await opened.closeAll();
    await browser?.close();
    await server?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });
  return {
    get server(): DemoServer {
      if (server === undefined) throw new Error('the demo server is not started yet (read it in a test)');
      return server;
    },
    async open(url: string): Promise<Page> {
      if (browser === undefined) throw new Error('Chromium is not launched yet (open() in a test)');
      const page = await opened.open(browser, url);
      await page.setViewportSize(viewport);
      return page;
    },
  };
}
