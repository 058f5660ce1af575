/**
 * The example table (examples/table, Vite + React over the public API) in Chromium: a whole
 * turn with a spell, a combat with a block, a stop that passes an opponent's upkeep by, undo.
 * Built with Vite into a temporary folder and served on 127.0.0.1. The screenshot in the
 * README (docs/table.png) is taken here.
 */
import { copyFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable, exampleTablePages, screenshot } from './harness.js';

const run = chromiumAvailable();

describe.runIf(run)('example table in Chromium', () => {
  const open = exampleTablePages('mtg-table-');

  const status = (page: Page) => page.textContent('[data-testid="status"]') as Promise<string>;

  /** Answers what is awaited the plainest way (the seat with priority passes; declarations are empty) until the status shows `text`. */
  async function passUntil(page: Page, text: string): Promise<void> {
    for (let i = 0; i < 200 && !(await status(page)).includes(text); i++) {
      const declare = page.locator('button[data-action="DECLARE_ATTACKERS"], button[data-action="DECLARE_BLOCKERS"], button[data-action="DISCARD"]');
      if ((await declare.count()) > 0) await declare.first().click();
      else await page.locator('.seat[data-priority="true"] button[data-action="PASS_PRIORITY"]').click();
    }
    expect(await status(page)).toContain(text);
  }

  it('a whole turn with a spell: cast in the main phase, both pass, it resolves; then the next turn begins', async () => {
    const page = await open();
    expect(await status(page)).toBe('turn 1 · Alice · beginning / upkeep');
    expect(await page.getAttribute('[data-testid="seat-Alice"]', 'data-priority')).toBe('true');
    await passUntil(page, 'precombatMain / main');
    await page.click('[data-testid="seat-Alice"] button[data-action="CAST_SPELL"][data-speed="sorcery"]');
    expect(await page.textContent('[data-testid="stack"]')).toContain('Alice-spell');
    await page.click('[data-testid="seat-Alice"] button[data-action="PASS_PRIORITY"]');
    await page.click('[data-testid="seat-Bob"] button[data-action="PASS_PRIORITY"]');
    expect(await page.textContent('[data-testid="stack"]')).not.toContain('Alice-spell');
    expect(await page.locator('[data-testid="log"] li', { hasText: 'resolve object=' }).count()).toBe(1);
    await passUntil(page, 'turn 2 · Bob');
    expect(await page.getAttribute('[data-testid="seat-Bob"]', 'data-priority')).toBe('true');
  });

  it('a combat with a block: Alice attacks with her bear, Bob blocks it with his, both deal damage', async () => {
    const page = await open();
    await passUntil(page, 'combat / declareAttackers');
    await page.check('[data-testid="seat-Alice"] input[data-attacker="bear"]');
    await page.click('[data-testid="seat-Alice"] button[data-action="DECLARE_ATTACKERS"]');
    await page.click('[data-testid="seat-Alice"] button[data-action="PASS_PRIORITY"]');
    await page.click('[data-testid="seat-Bob"] button[data-action="PASS_PRIORITY"]');
    expect(await page.textContent('[data-testid="awaiting-Bob"]')).toBe('declareBlockers');
    await page.selectOption('[data-testid="seat-Bob"] select[data-blocker="bear"]', 'Alice-bear');
    await page.click('[data-testid="seat-Bob"] button[data-action="DECLARE_BLOCKERS"]');
    await passUntil(page, 'combat / endOfCombat');
    const damage = page.locator('[data-testid="log"] li', { hasText: /^\s*combatDamage first/ });
    expect(await damage.first().textContent()).toContain('Alice-bear');
    expect(await damage.first().textContent()).toContain('Bob-bear');
    const picture = await screenshot(page, 'table');
    // Into docs/ only with UPDATE_DOCS_PICTURES=1 (a test run never changes the checkout on its own).
    if (process.env.UPDATE_DOCS_PICTURES === '1') await copyFile(picture, resolve('docs', 'table.png'));
  });

  it("a stop: Bob stops only in main phases, so he passes Alice's upkeep by automatically; undo takes it back", async () => {
    const page = await open();
    await page.check('[data-testid="seat-Bob"] input[data-stop="main"]');
    expect(await page.textContent('[data-testid="next-stop-Bob"]')).toContain('main');
    await page.click('[data-testid="seat-Alice"] button[data-action="PASS_PRIORITY"]');
    // Bob had no stop in Alice's upkeep: the engine passed for him, and Alice's main phase began.
    expect(await page.locator('[data-testid="log"] li', { hasText: 'autoPass player=Bob' }).count()).toBe(1);
    expect(await status(page)).toBe('turn 1 · Alice · precombatMain / main');
    await page.click('[data-testid="undo"]');
    expect(await status(page)).toBe('turn 1 · Alice · beginning / upkeep');
    expect(await page.locator('[data-testid="log"] li', { hasText: 'autoPass' }).count()).toBe(0);
  });
});
