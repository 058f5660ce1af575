/**
 * Issue 25, point 5 and its acceptance: `serve --demo` without cards in Chromium (`npm start`
 * serves the example cards: test/e2e/card-table.test.ts). The server starts as `npm start`
 * starts it (the pages built by Vite, PGlite), on a free port and a
 * temporary data folder; the lobby of the example table creates a game; two Chromium contexts
 * (two players, nothing shared) each join a seat with its link and play the game by clicking the
 * networked table's buttons for a few turns, each seeing the other's moves; the inspector,
 * served by the same server, watches the game as it goes on. The screenshot of the two tabs side
 * by side is taken here, into test-results/e2e/ (and into docs/networked-table.png with
 * UPDATE_DOCS_PICTURES=1: a test run never changes the checkout on its own).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable, demoPages, screenshot } from './harness.js';

const run = chromiumAvailable();

describe.runIf(run)('the networked table (npm start) in Chromium', () => {
  const demo = demoPages('mtg-networked-', { width: 1000, height: 720 });
  const open = (url: string) => demo.open(url);
  let alice: Page;
  let bob: Page;

  const status = (page: Page) => page.textContent('[data-testid="status"]') as Promise<string>;
  const version = async (page: Page) => Number(await page.getAttribute('[data-testid="status"]', 'data-version'));

  /** Waits until both tabs show the same version (every move reached both), and returns it. */
  async function inStep(): Promise<number> {
    for (let i = 0; i < 100; i++) {
      const [a, b] = [await version(alice), await version(bob)];
      if (a === b) return a;
      await alice.waitForTimeout(50);
    }
    throw new Error(`the tabs did not agree: Alice at version ${await version(alice)}, Bob at ${await version(bob)}`);
  }

  /** Clicks a button of the tab's own seat, then waits for the move to reach both tabs. */
  async function click(page: Page, selector: string): Promise<void> {
    const before = await inStep();
    await page.click(`.seat[data-own="true"] ${selector}`);
    await expect.poll(() => version(page), { timeout: 120_000 }).toBeGreaterThan(before);
    await inStep();
  }

  /** The tab whose seat is asked now (priority, or a declaration). */
  async function asked(): Promise<Page> {
    for (let i = 0; i < 100; i++) {
      for (const page of [alice, bob]) {
        if ((await page.locator('.seat[data-own="true"] button:is([data-action="PASS_PRIORITY"], [data-action="DECLARE_ATTACKERS"], [data-action="DECLARE_BLOCKERS"], [data-action="DISCARD"])').count()) > 0) return page;
      }
      await alice.waitForTimeout(50);
    }
    throw new Error(`no tab is asked anything: ${await status(alice)}; Alice's tab: ${await alice.textContent('.seats')}; Bob's tab: ${await bob.textContent('.seats')}`);
  }

  /** Answers what is asked the plainest way, from whichever tab is asked, until the status shows `text`. */
  async function passUntil(text: string): Promise<void> {
    for (let i = 0; i < 200 && !(await status(alice)).includes(text); i++) {
      const page = await asked();
      const declare = page.locator('.seat[data-own="true"] button:is([data-action="DECLARE_ATTACKERS"], [data-action="DECLARE_BLOCKERS"], [data-action="DISCARD"])');
      await click(page, (await declare.count()) > 0 ? `button[data-action="${await declare.first().getAttribute('data-action')}"]` : 'button[data-action="PASS_PRIORITY"]');
    }
    expect(await status(alice)).toContain(text);
    expect(await status(bob)).toContain(text);
  }

  it('the lobby creates a game; two players each join a seat from their own browser context and play three turns by clicking, each seeing the other\'s moves', async () => {
    const lobby = await open(demo.server.table);
    await lobby.click('[data-testid="lobby-open"]');
    // Clocks of 10 minutes and undo of one's own actions: the README's picture shows them.
    await lobby.selectOption('[data-testid="lobby-clock"]', '600000');
    await lobby.selectOption('[data-testid="lobby-undo"]', 'own');
    await lobby.click('[data-testid="lobby-create"]');
    await lobby.locator('[data-testid="seat-link-Alice"]').waitFor();
    const origin = new URL(demo.server.table).origin;
    const link = async (seat: string) => `${origin}${await lobby.getAttribute(`[data-testid="seat-link-${seat}"]`, 'href')}`;
    const [aliceUrl, bobUrl] = [await link('Alice'), await link('Bob')];
    expect(aliceUrl).toMatch(/\?game=[0-9a-f]+&seat=Alice&token=[\w-]{40,}$/);

    alice = await open(aliceUrl);
    bob = await open(bobUrl);
    for (const page of [alice, bob]) await page.locator('[data-testid="connection"][data-status="connected"]').waitFor();
    expect(await status(alice)).toBe('turn 1 · Alice · beginning / upkeep');
    expect(await status(bob)).toBe('turn 1 · Alice · beginning / upkeep');
    // Each tab plays its own seat only: Bob's tab has no button for Alice, and no stops of hers.
    expect(await bob.locator('[data-testid="seat-Alice"] .actions button').count()).toBe(0);
    expect(await bob.locator('[data-testid="stops-Alice"]').count()).toBe(0);
    expect(await alice.getAttribute('[data-testid="seat-Alice"]', 'data-own')).toBe('true');

    // Turn 1: Alice casts a spell in her main phase; Bob sees it on the stack, both pass, it resolves in both tabs.
    await passUntil('precombatMain / main');
    await click(alice, 'button[data-action="CAST_SPELL"][data-speed="sorcery"]');
    expect(await bob.textContent('[data-testid="stack"]')).toContain('Alice-spell');
    await click(alice, 'button[data-action="PASS_PRIORITY"]');
    await click(bob, 'button[data-action="PASS_PRIORITY"]');
    expect(await alice.textContent('[data-testid="stack"]')).not.toContain('Alice-spell');
    expect(await bob.locator('[data-testid="log"] li', { hasText: 'resolve object=' }).count()).toBe(1);

    // Combat: Alice attacks with her bear; Bob, asked in his tab, blocks it with his; Alice's tab shows the damage of both.
    await passUntil('combat / declareAttackers');
    await alice.check('[data-testid="seat-Alice"] input[data-attacker="bear"]');
    await click(alice, 'button[data-action="DECLARE_ATTACKERS"]');
    await passUntil('combat / declareBlockers');
    expect(await bob.textContent('[data-testid="awaiting-Bob"]')).toBe('declareBlockers');
    expect(await alice.textContent('[data-testid="awaiting-Bob"]')).toBe('declareBlockers');
    await bob.selectOption('[data-testid="seat-Bob"] select[data-blocker="bear"]', 'Alice-bear');
    await click(bob, 'button[data-action="DECLARE_BLOCKERS"]');
    expect(await alice.textContent('[data-testid="combat"]')).toBe('Alice-bear attacks Bob, blocked by Bob-bear');

    // The two tabs side by side: the README's picture.
    const shots = [await screenshot(alice, 'networked-alice'), await screenshot(bob, 'networked-bob')];
    const side = await open('about:blank');
    await side.setViewportSize({ width: 2010, height: 720 });
    const images = await Promise.all(shots.map(async (p) => `data:image/png;base64,${(await readFile(p)).toString('base64')}`));
    await side.setContent(`<body style="margin:0;display:flex;gap:10px;background:#555">${images.map((src) => `<img src="${src}" style="width:1000px">`).join('')}</body>`);
    const picture = await side.screenshot({ fullPage: true });
    await writeFile(resolve('test-results', 'e2e', 'networked-table.png'), picture);
    if (process.env.UPDATE_DOCS_PICTURES === '1') await writeFile(resolve('docs', 'networked-table.png'), picture);

    await passUntil('combat / endOfCombat');
    const damage = alice.locator('[data-testid="log"] li', { hasText: /^\s*combatDamage first/ });
    expect(await damage.first().textContent()).toContain('Alice-bear');
    expect(await damage.first().textContent()).toContain('Bob-bear');

    // Turn 2 is Bob's: he casts a spell in his tab, and Alice sees it; then on to turn 3.
    await passUntil('turn 2 · Bob · precombatMain / main');
    await click(bob, 'button[data-action="CAST_SPELL"][data-speed="sorcery"]');
    expect(await alice.textContent('[data-testid="stack"]')).toContain('Bob-spell');
    await passUntil('turn 3 · Alice');
    expect(await alice.getAttribute('[data-testid="seat-Alice"]', 'data-priority')).toBe('true');
  });

  it('the inspector, served by the same server with the key it printed, watches the game as it goes on', async () => {
    const inspector = await open(demo.server.inspector);
    const game = new URL((await alice.url()) as string).searchParams.get('game') as string;
    await expect.poll(() => inspector.textContent('[data-testid="served-status"]'), { timeout: 120_000 }).toContain(`following game ${game}`);
    const at = await inStep();
    expect(await inspector.textContent('[data-testid="served-status"]')).toContain(`version ${at}`);
    // The key left the address bar (the page keeps it), and the game shows at its end: turn 3, Alice.
    expect(inspector.url()).not.toContain('key=');
    expect(await inspector.textContent('[data-testid="panel"]')).toContain('Alice');
    // A move in Alice's tab reaches the inspector.
    await click(alice, 'button[data-action="PASS_PRIORITY"]');
    await expect.poll(() => inspector.textContent('[data-testid="served-status"]'), { timeout: 120_000 }).toContain(`version ${at + 1}`);
  });

  /** A new lobby game with these settings, each seat joined from its own context: Alice's and Bob's tabs. */
  async function lobbyGame(settings: { clock?: string; undo?: string }): Promise<void> {
    const lobby = await open(demo.server.table);
    await lobby.click('[data-testid="lobby-open"]');
    if (settings.clock !== undefined) await lobby.selectOption('[data-testid="lobby-clock"]', settings.clock);
    if (settings.undo !== undefined) await lobby.selectOption('[data-testid="lobby-undo"]', settings.undo);
    await lobby.click('[data-testid="lobby-create"]');
    await lobby.locator('[data-testid="seat-link-Alice"]').waitFor();
    const origin = new URL(demo.server.table).origin;
    alice = await open(`${origin}${await lobby.getAttribute('[data-testid="seat-link-Alice"]', 'href')}`);
    bob = await open(`${origin}${await lobby.getAttribute('[data-testid="seat-link-Bob"]', 'href')}`);
    for (const page of [alice, bob]) await page.locator('[data-testid="connection"][data-status="connected"]').waitFor();
  }

  it('a lobby game with clocks (issue 24 over the network): both tabs show both clocks, the one the game waits for running; the server stamps every send with its clock', async () => {
    await lobbyGame({ clock: '300000' });
    for (const page of [alice, bob]) for (const player of ['Alice', 'Bob']) expect(await page.textContent(`[data-testid="clock-${player}"]`)).toMatch(/^[45]:\d\d$/);
    // Alice's pass (stamped by the server) starts or keeps the clocks going: Bob's runs now, in both tabs.
    await click(alice, 'button[data-action="PASS_PRIORITY"]');
    for (const page of [alice, bob]) {
      expect(await page.getAttribute('[data-testid="clock-Bob"]', 'data-running')).toBe('true');
      expect(await page.getAttribute('[data-testid="clock-Alice"]', 'data-running')).toBe('false');
    }
    await click(bob, 'button[data-action="PASS_PRIORITY"]');
    for (const page of [alice, bob]) expect(await page.getAttribute('[data-testid="clock-Alice"]', 'data-running')).toBe('true');
  });

  it('a lobby game with undo by consent (issue 24 over the network): Alice asks in her tab to undo her pass, Bob is asked in his and accepts', async () => {
    await lobbyGame({ undo: 'consent' });
    await click(alice, 'button[data-action="PASS_PRIORITY"]');
    // Back to the version before her pass (the server's own sends, as seats connect, may come before it).
    const to = Number(/^Undo to v(\d+)$/.exec((await alice.textContent('[data-testid="undo-Alice"]')) ?? '')?.[1]);
    expect(to).toBe((await version(alice)) - 1);
    expect(await bob.locator('[data-testid="undo-Alice"]').count()).toBe(0);
    await click(alice, '[data-testid="undo-Alice"]');
    expect(await alice.textContent('[data-testid="awaiting-Bob"]')).toBe('undoConsent');
    expect(await bob.textContent('[data-testid="vote-Bob"]')).toContain(`Alice asks to undo to v${to}`);
    expect(await alice.locator('[data-testid="vote-Bob"]').count()).toBe(0);
    await click(bob, 'button[data-action="ACCEPT_UNDO"]');
    for (const page of [alice, bob]) {
      expect(await status(page)).toBe('turn 1 · Alice · beginning / upkeep');
      expect(await page.getAttribute('[data-testid="seat-Alice"]', 'data-priority')).toBe('true');
      expect(await page.locator('[data-testid="log"] li', { hasText: `undone toVersion=${to} ` }).count()).toBe(1);
    }
  });
});
