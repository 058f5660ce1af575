/**
 * The inspector's new-game form and host events in a real browser (issue 22): a variant from
 * the form (Two-Headed Giant, CR 810; Archenemy, 904; Grand Melee, 807), effects in force
 * (ADD_EFFECT, REMOVE_EFFECT, CR 611, 613), END_TURN (724.1) and control of a player's next
 * turn (CONTROL_PLAYER, 723.1), each seen changing the panel.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium, inspectorPages, serveInspector, type ServedInspector } from './harness.js';

const hasChromium = chromiumAvailable();

let served: ServedInspector | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  if (!hasChromium) return;
  served = await serveInspector();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
});

const text = async (page: Page, selector: string) => (await page.textContent(selector))?.trim();
const options = (page: Page, selector: string) => page.locator(`${selector} option`).evaluateAll((list) => list.map((o) => (o as HTMLOptionElement).value));

describe.skipIf(!hasChromium)('the new-game form and the host events (issue 22)', () => {
  const open = inspectorPages(() => browser as Browser, () => (served as ServedInspector).url);

  it('creates a Two-Headed Giant game from the form: two teams of two, and the starting team skips its first draw (CR 810.1, 103.8b)', async () => {
    const page = await open();
    expect(await text(page, '[data-testid="variant"]')).toBe('freeForAll');
    await page.selectOption('[data-field="variant"]', 'twoHeadedGiant');
    expect(await page.inputValue('[data-field="players"]')).toBe('4');
    await page.selectOption('[data-field="starting"]', 'C');
    await page.click('[data-testid="new-game"]');
    expect(await text(page, '[data-testid="variant"]')).toBe('twoHeadedGiant');
    expect(await text(page, '[data-testid="teams"]')).toBe('AB: A, B · CD: C, D');
    expect(await page.locator('[data-testid="players"] li').count()).toBe(4);
    expect(await text(page, '[data-testid="active-player"]')).toBe('C');
    // The active team's members are all active players (805.2).
    for (const [p, turn] of [['A', 0], ['B', 0], ['C', 1], ['D', 1]] as const) expect(await page.locator(`[data-testid="players"] li[data-player="${p}"] .turn-badge`).count()).toBe(turn);
    expect(await page.getAttribute('[data-state="beginning.draw"]', 'data-skipped')).toBe('true');
    expect(await text(page, '[data-testid="log"] li')).toContain('Two-Headed Giant, AB (A, B) against CD (C, D); C starts');
  });

  it('creates an Archenemy game from the form: the archenemy alone against the heroes, and only the archenemy may start (CR 904.2, 904.6)', async () => {
    const page = await open();
    await page.selectOption('[data-field="variant"]', 'archenemy');
    expect(await page.inputValue('[data-field="players"]')).toBe('3');
    expect(await options(page, '[data-field="starting"]')).toEqual(['A']);
    await page.fill('[data-field="players"]', '4');
    await page.dispatchEvent('[data-field="players"]', 'change');
    await page.click('[data-testid="new-game"]');
    expect(await text(page, '[data-testid="variant"]')).toBe('archenemy');
    expect(await text(page, '[data-testid="teams"]')).toBe('archenemy: A · heroes: B, C, D');
    expect(await text(page, '[data-testid="active-player"]')).toBe('A');
  });

  it('creates a Grand Melee game from the form: ten players, two turn markers (CR 807.1, 807.4a); END_TURN ends the turn of the marker chosen (807.5b)', async () => {
    const page = await open();
    await page.selectOption('[data-field="variant"]', 'grandMelee');
    expect(await page.inputValue('[data-field="players"]')).toBe('10');
    await page.click('[data-testid="new-game"]');
    expect(await text(page, '[data-testid="variant"]')).toBe('grandMelee');
    expect(await page.locator('[data-testid="players"] li').count()).toBe(10);
    const markers = page.locator('[data-testid="turn-markers"] li');
    expect(await markers.count()).toBe(2);
    expect(await page.getAttribute('[data-turn-marker="1"]', 'data-active-player')).toBe('A');
    expect(await page.getAttribute('[data-turn-marker="2"]', 'data-active-player')).toBe('E');
    for (const p of ['A', 'E']) expect(await page.locator(`[data-testid="players"] li[data-player="${p}"] .turn-badge`).count()).toBe(1);
    // Each turn's player holding priority has their decisions (807.5).
    expect(await page.locator('[data-testid="decisions"] button[data-action="PASS_PRIORITY"]').count()).toBe(2);
    await page.selectOption('[data-field="host-turn-marker"]', '2');
    await page.click('button[data-action="END_TURN"]');
    expect(await page.getAttribute('[data-turn-marker="2"]', 'data-active-player')).toBe('F');
    expect(await page.getAttribute('[data-turn-marker="1"]', 'data-active-player')).toBe('A');
    expect(await page.locator('[data-testid="log"] li[data-kind="refused"]').count()).toBe(0);
    expect(await page.locator('[data-testid="log"] li', { hasText: 'ending / cleanup begins' }).count()).toBe(1);
  });

  it("adds and removes effects, gives a player control of another's next turn, and END_TURN ends the turn (CR 611.2, 723.1, 724.1, 514.2)", async () => {
    const page = await open();
    expect(await page.locator('[data-testid="effects"] li').count()).toBe(0);
    // An effect until the end of the turn: lands each turn +1 for A.
    await page.selectOption('[data-field="effect-kind"]', 'landPlays');
    await page.fill('[data-field="effect-amount"]', '1');
    await page.selectOption('[data-field="effect-players"]', 'A');
    await page.selectOption('[data-field="effect-duration"]', 'endOfTurn');
    await page.click('button[data-action="ADD_EFFECT"]');
    expect(await text(page, '[data-effect-id="effect-1"]')).toBe('effect-1: landPlays change 1 (A), endOfTurn');
    // A second effect, until removed: B skips their draw steps; then it is removed.
    await page.selectOption('[data-field="effect-kind"]', 'skip');
    await page.selectOption('[data-field="effect-what"]', 'draw');
    await page.selectOption('[data-field="effect-players"]', 'B');
    await page.selectOption('[data-field="effect-duration"]', 'untilRemoved');
    await page.click('button[data-action="ADD_EFFECT"]');
    expect(await text(page, '[data-effect-id="effect-2"]')).toBe('effect-2: skip draw (B), untilRemoved');
    await page.selectOption('[data-field="effect-remove"]', 'effect-2');
    await page.click('button[data-action="REMOVE_EFFECT"]');
    expect(await page.locator('[data-effect-id="effect-2"]').count()).toBe(0);
    expect(await page.locator('[data-effect-id="effect-1"]').count()).toBe(1);
    // A controls B's next turn (723.1): pending until that turn begins.
    await page.selectOption('[data-field="control-controller"]', 'A');
    await page.selectOption('[data-field="control-player"]', 'B');
    await page.click('button[data-action="CONTROL_PLAYER"]');
    expect(await text(page, '[data-testid="control-next"]')).toBe("A controls B's next turn (CR 723.1)");
    expect(await page.locator('[data-testid="decided-by-B"]').count()).toBe(0);
    // END_TURN: straight to cleanup, where the end-of-turn effect ends (514.2); B's turn, decided by A.
    await page.click('button[data-action="END_TURN"]');
    expect(await text(page, '[data-testid="turn"]')).toBe('2');
    expect(await text(page, '[data-testid="active-player"]')).toBe('B');
    expect(await page.locator('[data-effect-id="effect-1"]').count()).toBe(0);
    expect(await text(page, '[data-testid="decided-by-B"]')).toBe('controlled by A');
    expect(await page.locator('[data-testid="control-next"]').count()).toBe(0);
    expect(await page.locator('[data-testid="log"] li[data-kind="refused"]').count()).toBe(0);
  });

  it('reports an effect the engine refuses in the log, naming the field, and changes nothing', async () => {
    const page = await open();
    await page.selectOption('[data-field="effect-kind"]', 'spellLimit');
    await page.fill('[data-field="effect-amount"]', '-1');
    await page.click('button[data-action="ADD_EFFECT"]');
    const refused = page.locator('[data-testid="log"] li[data-kind="refused"]');
    expect(await refused.count()).toBe(1);
    expect(await refused.textContent()).toMatch(/ADD_EFFECT.*INVALID_EVENT.*perTurn/);
    expect(await page.locator('[data-testid="effects"] li').count()).toBe(0);
  });
});
