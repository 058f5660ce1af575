/**
 * Issue 24's acceptance: "The example table shows each player's clock, an undo button with its
 * horizon, and a shortcut proposal, tested in Chromium". The example table (examples/table) in
 * its local mode, built with Vite into a temporary folder and served on 127.0.0.1: the page is
 * the host, so it stamps its events with its clock (`at`) and sends the TICK of a time-out.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable, exampleTablePages } from './harness.js';

const run = chromiumAvailable();

describe.runIf(run)('the example table between people, in Chromium (issue 24)', () => {
  const openTable = exampleTablePages('mtg-table-people-');

  /** The table with a new 2-player game of these options. */
  async function open(options: { clock?: string; undo?: string } = {}): Promise<Page> {
    const page = await openTable();
    if (options.clock !== undefined) await page.selectOption('[data-testid="option-clock"]', options.clock);
    if (options.undo !== undefined) await page.selectOption('[data-testid="option-undo"]', options.undo);
    await page.click('[data-testid="new-2"]');
    return page;
  }

  const status = (page: Page) => page.textContent('[data-testid="status"]') as Promise<string>;
  const running = (page: Page, player: string) => page.getAttribute(`[data-testid="clock-${player}"]`, 'data-running');
  const pass = (page: Page, player: string) => page.click(`[data-testid="seat-${player}"] button[data-action="PASS_PRIORITY"]`);

  it("clocks: each player's clock shows, the one the game waits for runs (highlighted) and counts down, every event carries the page's clock (at)", async () => {
    const page = await open({ clock: '60000' });
    expect(await page.textContent('[data-testid="clock-Alice"]')).toBe('1:00');
    expect(await page.textContent('[data-testid="clock-Bob"]')).toBe('1:00');
    // Clocks start at the first event that carries `at`.
    expect(await running(page, 'Alice')).toBe('false');
    await pass(page, 'Alice');
    expect(await page.locator('[data-testid="log"] li[data-kind="sent"]', { hasText: /^PASS_PRIORITY player=Alice at=\d+$/ }).count()).toBe(1);
    // Bob holds priority now: his clock runs, Alice's is stopped.
    expect(await running(page, 'Bob')).toBe('true');
    expect(await running(page, 'Alice')).toBe('false');
    await expect.poll(() => page.textContent('[data-testid="clock-Bob"]'), { timeout: 120_000 }).toBe('0:59');
    await pass(page, 'Bob');
    expect(await running(page, 'Alice')).toBe('true');
    expect(await running(page, 'Bob')).toBe('false');
  });

  it('clocks: a clock that runs out is seen without anyone acting (the page sends a TICK at nextDeadline); its player loses', async () => {
    const page = await open({ clock: '10000' });
    await pass(page, 'Alice');
    expect(await running(page, 'Bob')).toBe('true');
    await expect.poll(() => page.textContent('[data-testid="clock-Bob"]'), { timeout: 120_000 }).toBe('0:09');
    await expect.poll(() => status(page), { timeout: 120_000 }).toBe('game over: Alice won');
    expect(await page.locator('[data-testid="log"] li[data-kind="sent"]', { hasText: /^TICK at=\d+$/ }).count()).toBe(1);
    expect(await page.locator('[data-testid="log"] li', { hasText: 'playerLeft player=Bob reason=time' }).count()).toBe(1);
  });

  const priority = (page: Page, player: string) => page.getAttribute(`[data-testid="seat-${player}"]`, 'data-priority');

  it("undo ('own'): the button shows its horizon and is disabled while nothing can be undone; it takes back the player's own pass", async () => {
    const page = await open({ undo: 'own' });
    expect(await page.isDisabled('[data-testid="undo-Alice"]')).toBe(true);
    expect(await page.textContent('[data-testid="undo-horizon-Alice"]')).toBe('nothing to undo');
    await pass(page, 'Alice');
    expect(await priority(page, 'Bob')).toBe('true');
    expect(await page.textContent('[data-testid="undo-Alice"]')).toBe('Undo to v0');
    expect(await page.textContent('[data-testid="undo-horizon-Alice"]')).toBe('back as far as v0');
    // Bob has decided nothing: nothing of his to undo (and never past Alice's pass).
    expect(await page.isDisabled('[data-testid="undo-Bob"]')).toBe(true);
    await page.click('[data-testid="undo-Alice"]');
    expect(await status(page)).toBe('turn 1 · Alice · beginning / upkeep');
    expect(await priority(page, 'Alice')).toBe('true');
    expect(await page.locator('[data-testid="log"] li', { hasText: /undone toVersion=0 toSeq=\d+/ }).count()).toBe(1);
    expect(await page.isDisabled('[data-testid="undo-Alice"]')).toBe(true);
  });

  it("undo ('consent'): the other player is asked (accept or decline); a decline keeps the game, an accept takes it back", async () => {
    const page = await open({ undo: 'consent' });
    await pass(page, 'Alice');
    await page.click('[data-testid="undo-Alice"]');
    expect(await page.textContent('[data-testid="awaiting-Bob"]')).toBe('undoConsent');
    expect(await page.textContent('[data-testid="vote-Bob"]')).toContain('Alice asks to undo to v0');
    await page.click('[data-testid="vote-Bob"] button[data-action="DECLINE_UNDO"]');
    expect(await page.locator('[data-testid="vote-Bob"]').count()).toBe(0);
    expect(await priority(page, 'Bob')).toBe('true');
    expect(await page.locator('[data-testid="log"] li', { hasText: 'undone' }).count()).toBe(0);
    await page.click('[data-testid="undo-Alice"]');
    await page.click('[data-testid="vote-Bob"] button[data-action="ACCEPT_UNDO"]');
    expect(await priority(page, 'Alice')).toBe('true');
    expect(await status(page)).toBe('turn 1 · Alice · beginning / upkeep');
    expect(await page.locator('[data-testid="log"] li', { hasText: /undone toVersion=0/ }).count()).toBe(1);
  });

  it('a shortcut (CR 732): Alice proposes to pass until the end step, Bob shortens it to the main phase (732.2b); everyone passes up to there in one send', async () => {
    const page = await open();
    expect(await page.isDisabled('[data-testid="shortcut-Bob"]')).toBe(true);
    await page.selectOption('[data-testid="shortcut-step-Alice"]', 'end');
    await page.click('[data-testid="shortcut-Alice"]');
    expect(await page.textContent('[data-testid="awaiting-Bob"]')).toBe('shortcut');
    expect(await page.textContent('[data-testid="vote-Bob"]')).toContain('Alice proposes to pass until end');
    await page.selectOption('[data-testid="shorten-step-Bob"]', 'main');
    await page.click('[data-testid="vote-Bob"] button[data-action="SHORTEN_SHORTCUT"]');
    expect(await status(page)).toBe('turn 1 · Alice · precombatMain / main');
    expect(await priority(page, 'Alice')).toBe('true');
    expect(await page.locator('[data-testid="log"] li', { hasText: /autoPass player=\w+ .*reason=shortcut/ }).count()).toBeGreaterThan(0);
  });

  it('a shortcut accepted as proposed: from the main phase to the end step, stopping where a declaration is due (declare attackers)', async () => {
    const page = await open();
    await page.selectOption('[data-testid="shortcut-step-Alice"]', 'main');
    await page.click('[data-testid="shortcut-Alice"]');
    await page.click('[data-testid="vote-Bob"] button[data-action="ACCEPT_SHORTCUT"]');
    expect(await status(page)).toBe('turn 1 · Alice · precombatMain / main');
    await page.selectOption('[data-testid="shortcut-step-Alice"]', 'end');
    await page.click('[data-testid="shortcut-Alice"]');
    await page.click('[data-testid="vote-Bob"] button[data-action="ACCEPT_SHORTCUT"]');
    expect(await status(page)).toBe('turn 1 · Alice · combat / declareAttackers');
    expect(await page.textContent('[data-testid="awaiting-Alice"]')).toBe('declareAttackers');
  });
});
