/**
 * Issue 32, point 3 and its served acceptance: `npm start` serves the example card game
 * (`serve --demo --cards examples/cards/definition.ts`), and two Chromium pages (two seats, each
 * in its own context) and a spectator page play a WHOLE game of it over the networked table, to
 * its end, by clicking the card table's own controls: lands played and tapped, creatures and
 * spells cast with their targets, attacks every turn, blocks. At every step each page's DOM is
 * checked: no page but a seat's own ever shows a card of that seat's hand (no card id of it, in
 * any attribute or text), and the spectator shows no hand. A tab that leaves shows as away on the
 * other pages. The end is told in words ("Bob's life
 * reached 0"). The README's picture of the card table (docs/card-table.png, with UPDATE_DOCS_PICTURES=1) is taken here.
 *
 * Sized by count (a cap of moves: the game ends well within it, as every library runs out by
 * turn 30), with generous timeouts and no verdict on speed: the box is a loaded 2-core one.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable, demoPages } from './harness.js';

const run = chromiumAvailable();
const SEATS = ['Alice', 'Bob'] as const;
/** At most this many clicks: a game of the example ends long before (both libraries are empty by turn 30). */
const MAX_MOVES = 2000;
const OWN = '.player[data-own="true"]';

/** What a page shows, read in one go. */
interface Shown {
  version: number;
  sending: boolean;
  over: string | null;
  awaited: boolean;
  refused: number;
  turn: string;
  /** The ids of the cards in this page's own hand. */
  hand: string[];
  /** The ids of the cards in any hand zone of this page. */
  inHands: string[];
  html: string;
}

function shown(page: Page): Promise<Shown> {
  return page.evaluate((own) => {
    const ids = (selector: string) => Array.from(document.querySelectorAll(selector), (e) => e.getAttribute('data-card') ?? '');
    return {
      version: Number(document.querySelector('[data-testid="status"]')?.getAttribute('data-version')),
      sending: document.querySelector('[data-testid="card-table"]')?.getAttribute('data-sending') === 'true',
      over: document.querySelector('[data-testid="game-over"]')?.textContent ?? null,
      awaited: document.querySelector(own)?.getAttribute('data-awaited') === 'true',
      refused: document.querySelectorAll('[data-testid="log"] li[data-kind="refused"]').length,
      turn: document.querySelector('[data-testid="status"]')?.textContent ?? '',
      hand: ids(`${own} .hand [data-card]`),
      inHands: ids('.hand [data-card]'),
      html: document.body.innerHTML,
    };
  }, OWN);
}

/** Whether `html` names card `id` anywhere (an attribute or text; `spell-c5`, a cast card's stack id, is another name). */
const names = (html: string, id: string) => new RegExp(`(?<![\\w-])${id}(?!\\w)`).test(html);

describe.runIf(run)('the example card game (npm start) in Chromium: two seats and a spectator play a whole game', () => {
  const demo = demoPages('mtg-cards-', { width: 1200, height: 820 }, ['--cards', 'examples/cards/definition.ts']);
  const open = (url: string) => demo.open(url);

  it('the lobby creates a card game; Alice and Bob play it to its end by clicking, a spectator watches; no page ever shows another seat\'s hand; the end is told in words', async () => {
    expect(demo.server.out.join('\n')).toContain('cards: example-cards@1');
    // The page opens at the card game's lobby (the card game is what npm start serves).
    const lobby = await open(demo.server.table);
    await lobby.locator('[data-testid="lobby-cards"]').waitFor({ timeout: 120_000 });
    await lobby.click('[data-testid="lobby-create"]');
    await lobby.locator('[data-testid="seat-link-Alice"]').waitFor();
    const origin = new URL(demo.server.table).origin;
    const href = async (testId: string) => `${origin}${await lobby.getAttribute(`[data-testid="${testId}"]`, 'href')}`;
    // The inspector's link carries its key (issue 32).
    expect(await href('inspector-link')).toMatch(/\/inspector\/\?game=[0-9a-f]+#key=\S{16,}$/);
    const pages: Record<(typeof SEATS)[number], Page> = { Alice: await open(await href('seat-link-Alice')), Bob: await open(await href('seat-link-Bob')) };
    for (const page of Object.values(pages)) await page.locator('[data-testid="connection"][data-status="connected"]').waitFor({ timeout: 120_000 });
    // The spectator link of the card table.
    const spectator = await open(`${origin}${await pages.Alice.getAttribute('[data-testid="spectator-link"]', 'href')}`);
    await spectator.locator('[data-testid="connection"][data-status="connected"]').waitFor({ timeout: 120_000 });
    expect(await spectator.textContent('[data-testid="me"]')).toBe('watching');

    // Each seat's page has its own controls only; the spectator none; both see 7 cards in the other's hand, 20 life.
    for (const [seat, other] of [['Alice', 'Bob'], ['Bob', 'Alice']] as const) {
      const page = pages[seat];
      expect(await page.locator(`[data-testid="player-${other}"] button, [data-testid="player-${other}"] input, [data-testid="player-${other}"] select`).count()).toBe(0);
      expect(await page.locator(`[data-testid="player-${seat}"] [data-action="CONCEDE"]`).count()).toBe(1);
      expect(await page.textContent(`[data-testid="handcount-${other}"]`)).toBe('7');
      expect(await page.locator(`[data-testid="hand-${seat}"] [data-card]`).count()).toBe(7);
      expect(await page.textContent(`[data-testid="life-${other}"]`)).toBe('♥ 20');
    }
    expect(await spectator.locator('button, input, select').count()).toBe(0);

    // Bob's tab leaves (his seat drops): Alice's page and the spectator's show him away; he comes back.
    const bobUrl = pages.Bob.url();
    await pages.Bob.goto('about:blank');
    for (const page of [pages.Alice, spectator]) await expect.poll(() => page.textContent('[data-testid="away-Bob"]'), { timeout: 120_000 }).toBe('away');
    await pages.Bob.goto(bobUrl);
    await pages.Bob.locator('[data-testid="connection"][data-status="connected"]').waitFor({ timeout: 120_000 });
    await expect.poll(() => pages.Alice.textContent('[data-testid="away-Bob"]'), { timeout: 120_000 }).toBe('here');

    /** Waits until both seats' pages show the same version with no send under way; returns what they show. */
    const settled = async (): Promise<Record<string, Shown>> => {
      for (let i = 0; i < 1200; i++) {
        const [a, b] = [await shown(pages.Alice), await shown(pages.Bob)];
        if (a.version === b.version && !a.sending && !b.sending && a.awaited !== b.awaited) return { Alice: a, Bob: b };
        if (a.version === b.version && !a.sending && !b.sending && a.over !== null && b.over !== null) return { Alice: a, Bob: b };
        await pages.Alice.waitForTimeout(50);
      }
      throw new Error(`the pages did not settle: ${(await shown(pages.Alice)).turn} / ${(await shown(pages.Bob)).turn}`);
    };

    /** No page shows a card of another seat's hand; the spectator shows no hand at all. */
    const checkHidden = async (now: Record<string, Shown>) => {
      const watched = await shown(spectator);
      expect(watched.inHands).toEqual([]);
      for (const seat of SEATS) {
        const mine = now[seat] as Shown;
        expect(mine.inHands.sort()).toEqual([...mine.hand].sort());
        for (const other of SEATS.filter((s) => s !== seat)) {
          for (const id of mine.hand) {
            expect(names((now[other] as Shown).html, id), `${other}'s page names ${id} of ${seat}'s hand`).toBe(false);
            expect(names(watched.html, id), `the spectator's page names ${id} of ${seat}'s hand`).toBe(false);
          }
        }
      }
    };

    /** Clicks `selector` in `page` and waits for the move to be taken (or refused). */
    const click = async (page: Page, selector: string, before: Shown): Promise<boolean> => {
      await page.click(selector);
      await page.waitForFunction(
        ({ version, refused }) =>
          (Number(document.querySelector('[data-testid="status"]')?.getAttribute('data-version')) > version && document.querySelector('[data-testid="card-table"]')?.getAttribute('data-sending') === 'false') ||
          document.querySelectorAll('[data-testid="log"] li[data-kind="refused"]').length > refused,
        { version: before.version, refused: before.refused },
        { timeout: 120_000, polling: 50 },
      );
      return (await shown(page)).refused === before.refused;
    };

    // Both seats are asked only in their own main phases, on declarations, and when a spell is cast.
    for (const seat of SEATS) {
      const before = await shown(pages[seat]);
      expect(await click(pages[seat], `${OWN} [data-testid="quick-stops"]`, before)).toBe(true);
    }

    const tried = new Set<string>();
    let casts = 0;
    let blocks = 0;
    let pictured = false;
    let moves = 0;
    for (; moves < MAX_MOVES; moves++) {
      const now = await settled();
      await checkHidden(now);
      if (now.Alice?.over != null) break;
      const seat = SEATS.find((s) => now[s]?.awaited === true) as (typeof SEATS)[number];
      const page = pages[seat];
      const before = now[seat] as Shown;
      const has = async (selector: string) => (await page.locator(`${OWN} ${selector}`).count()) > 0;
      if (!pictured && /^turn (\d+)/.test(before.turn) && Number(/^turn (\d+)/.exec(before.turn)?.[1]) >= 7 && seat === 'Alice') {
        // The README's picture: Alice's page in the middle of the game.
        // Into test-results/e2e/, and into docs/ with UPDATE_DOCS_PICTURES=1 (a run never changes the checkout on its own).
        const picture = await page.screenshot({ fullPage: false });
        await mkdir(resolve('test-results', 'e2e'), { recursive: true });
        await writeFile(resolve('test-results', 'e2e', 'card-table.png'), picture);
        if (process.env.UPDATE_DOCS_PICTURES === '1') await writeFile(resolve('docs', 'card-table.png'), picture);
        pictured = true;
      }
      if (await has('[data-action="DECLARE_ATTACKERS"]')) {
        // Attack with everything that can.
        for (const box of await page.locator(`${OWN} input[data-attacker]`).all()) await box.check();
        await click(page, `${OWN} [data-action="DECLARE_ATTACKERS"]`, before);
      } else if (await has('[data-action="DECLARE_BLOCKERS"]')) {
        // Bob blocks with his first creature that can; Alice never blocks.
        const blocker = page.locator(`${OWN} select[data-blocker]`);
        if (seat === 'Bob' && (await blocker.count()) > 0) {
          await blocker.first().selectOption({ index: 1 });
          blocks++;
        }
        await click(page, `${OWN} [data-action="DECLARE_BLOCKERS"]`, before);
      } else if (await has('[data-action="DISCARD"]')) {
        await click(page, `${OWN} [data-action="DISCARD"]`, before);
      } else {
        // Play a land, else cast what can be cast (each card tried once at a version), else pass.
        const land = page.locator(`${OWN} button[data-action="PLAY_LAND"]`);
        const castable = [];
        for (const button of await page.locator(`${OWN} button[data-action="CAST_SPELL"]`).all()) {
          const card = (await button.getAttribute('data-card')) as string;
          if (!tried.has(`${before.version}:${card}`)) castable.push(card);
        }
        if ((await land.count()) > 0 && !tried.has(`${before.version}:land`)) {
          tried.add(`${before.version}:land`);
          await click(page, `${OWN} button[data-action="PLAY_LAND"] >> nth=0`, before);
        } else if (castable[0] !== undefined) {
          tried.add(`${before.version}:${castable[0]}`);
          if (await click(page, `${OWN} button[data-action="CAST_SPELL"][data-card="${castable[0]}"]`, before)) casts++;
        } else {
          await click(page, `${OWN} [data-action="PASS_PRIORITY"]`, before);
        }
      }
    }
    expect(moves).toBeLessThan(MAX_MOVES);
    expect(casts).toBeGreaterThan(0);
    expect(pictured).toBe(true);

    // The end, told in words on every page (the spectator's too), and no controls left.
    const ends = await Promise.all(
      [pages.Alice, pages.Bob, spectator].map(async (page) => {
        await page.locator('[data-testid="game-over"]').waitFor({ timeout: 120_000 });
        return (await page.textContent('[data-testid="game-over"]')) as string;
      }),
    );
    expect(new Set(ends).size).toBe(1);
    const end = /^(Alice|Bob)('s life reached 0| drew from an empty library)\. (Alice|Bob) wins\.$/.exec(ends[0] as string);
    expect(end, ends[0]).not.toBeNull();
    expect(end?.[1]).not.toBe(end?.[3]);
    for (const page of Object.values(pages)) expect(await page.locator('[data-testid="controls"]').count()).toBe(0);
    // The log tells the game with card names.
    const log = (await pages.Alice.textContent('[data-testid="log"]')) as string;
    expect(log).toMatch(/(Alice|Bob) plays (Forest|Mountain)/);
    expect(log).toMatch(/(Alice|Bob) casts (Goblin Raider|Grizzly Bears|Hill Giant|Scroll Keeper|Shock|Lava Axe|Counterspell|Relentless Assault)/);
    // Every spell is named in both seats' logs, the other seat's included.
    for (const page of Object.values(pages)) expect((await page.textContent('[data-testid="log"]')) as string).not.toMatch(/casts c\d+/);
    console.log(`card-table e2e: ${moves} moves, ${casts} casts, ${blocks} blocks; ${ends[0]}`);
  });

  it('"Play against a bot": the server plays Bob with the definition\'s bot (a moment between moves); Alice\'s page links only her seat; a concession is told in words', async () => {
    const lobby = await open(demo.server.table);
    await lobby.locator('[data-testid="lobby-cards"]').waitFor({ timeout: 120_000 });
    await lobby.click('[data-testid="lobby-bot"]');
    await lobby.locator('[data-testid="seat-link-Alice"]').waitFor();
    expect(await lobby.locator('[data-testid="seat-link-Bob"]').count()).toBe(0);
    const alice = await open(`${new URL(demo.server.table).origin}${await lobby.getAttribute('[data-testid="seat-link-Alice"]', 'href')}`);
    await alice.locator('[data-testid="connection"][data-status="connected"]').waitFor({ timeout: 120_000 });
    expect(await alice.textContent('[data-testid="status"]')).toBe('turn 1 · Alice · beginning / upkeep');
    // Alice passes; the bot, given priority, passes too: the game moves on to her draw step (skipped on turn 1) and main phase.
    await alice.click(`${OWN} [data-action="PASS_PRIORITY"]`);
    await expect.poll(() => alice.textContent('[data-testid="status"]'), { timeout: 120_000 }).toBe('turn 1 · Alice · precombatMain / main');
    await alice.click(`${OWN} [data-action="CONCEDE"]`);
    await expect.poll(() => alice.textContent('[data-testid="game-over"]'), { timeout: 120_000 }).toBe('Alice conceded. Bob wins.');
  });

  it('"Play against a Monte Carlo bot" (issue 34): offered beside the random bot; the server plays Bob with the cards\' planner', async () => {
    const lobby = await open(demo.server.table);
    await lobby.locator('[data-testid="lobby-cards"]').waitFor({ timeout: 120_000 });
    await lobby.locator('[data-testid="lobby-bot-montecarlo"]').waitFor({ timeout: 120_000 });
    expect(await lobby.textContent('[data-testid="lobby-bot-montecarlo"]')).toBe('Play against a Monte Carlo bot');
    expect(await lobby.textContent('[data-testid="lobby-bot"]')).toBe('Play against a bot');
    await lobby.click('[data-testid="lobby-bot-montecarlo"]');
    await lobby.locator('[data-testid="seat-link-Alice"]').waitFor();
    expect(await lobby.locator('[data-testid="seat-link-Bob"]').count()).toBe(0);
    const alice = await open(`${new URL(demo.server.table).origin}${await lobby.getAttribute('[data-testid="seat-link-Alice"]', 'href')}`);
    await alice.locator('[data-testid="connection"][data-status="connected"]').waitFor({ timeout: 120_000 });
    // Alice passes; the planner, given priority, passes too (it has nothing else it can do yet).
    await alice.click(`${OWN} [data-action="PASS_PRIORITY"]`);
    await expect.poll(() => alice.textContent('[data-testid="status"]'), { timeout: 120_000 }).toBe('turn 1 · Alice · precombatMain / main');
    await alice.click(`${OWN} [data-action="CONCEDE"]`);
    await expect.poll(() => alice.textContent('[data-testid="game-over"]'), { timeout: 120_000 }).toBe('Alice conceded. Bob wins.');
  });
});
