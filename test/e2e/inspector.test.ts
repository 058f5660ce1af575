/**
 * The inspector page in a real browser (Debian's Chromium via playwright-core): the chart
 * follows the game (CR 500.1 step order, 103.8a, 510.4 first strike, 514.3a cleanup loop),
 * time travel, refused events, remote games over the relay, and the page's hygiene (no
 * console errors, no request off localhost, bundle under 300 KB gzipped).
 */
import { copyFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { chromiumAvailable, gzippedSize, inspectorPages, launchChromium, openPage, screenshot, serveInspector, type ServedInspector } from './harness.js';

const hasChromium = chromiumAvailable();
const BUNDLE_LIMIT_BYTES = 300 * 1024;

let served: ServedInspector;
let browser: Browser | undefined;

beforeAll(async () => {
  served = await serveInspector();
  if (hasChromium) browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
});

describe('inspector bundle', () => {
  it(`is under ${BUNDLE_LIMIT_BYTES / 1024} KB gzipped`, async () => {
    const { total, files } = await gzippedSize(served.outDir);
    console.log(`inspector bundle: ${(total / 1024).toFixed(1)} KB gzipped`, files);
    expect(total).toBeLessThan(BUNDLE_LIMIT_BYTES);
  });
});

/** The dotted path of the highlighted step. */
async function activeStep(page: Page): Promise<string | null> {
  return page.locator('.step[data-active="true"]').first().getAttribute('data-state');
}

/** The player the game awaits, from the players list. */
async function awaited(page: Page): Promise<string | null> {
  const li = page.locator('[data-testid="players"] li[data-awaited="true"]');
  return (await li.count()) === 0 ? null : li.first().getAttribute('data-player');
}

/** Clicks the plainest answer (pass, no attackers, no blockers) until `step` is highlighted. */
async function passUntil(page: Page, step: string, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if ((await activeStep(page)) === step) return;
    for (const action of ['PASS_PRIORITY', 'DECLARE_ATTACKERS', 'DECLARE_BLOCKERS', 'DISCARD']) {
      const button = page.locator(`button[data-action="${action}"]`);
      if ((await button.count()) > 0) {
        await button.first().click();
        break;
      }
    }
  }
  throw new Error(`never reached ${step}; stuck in ${await activeStep(page)}`);
}

describe.skipIf(!hasChromium)('inspector page in Chromium', () => {
  const open = inspectorPages(() => browser as Browser, () => served.url);

  it('a new game starts in upkeep with the starting player holding priority (CR 103.1, 117.3a)', async () => {
    const page = await open();
    await expect.poll(() => activeStep(page)).toBe('beginning.upkeep');
    expect(await page.locator('[data-state="beginning"]').getAttribute('data-active')).toBe('true');
    expect(await page.textContent('[data-testid="turn"]')).toBe('1');
    expect(await page.textContent('[data-testid="active-player"]')).toBe('A');
    expect(await page.textContent('[data-testid="priority"]')).toBe('A');
    expect(await page.getAttribute('[data-testid="players"] li[data-player="A"]', 'data-priority')).toBe('true');
    expect(await page.locator('[data-testid="players"] li[data-player="A"] .priority-badge').isVisible()).toBe(true);
    // The new game form: three players, B starts, classic rules.
    await page.fill('[data-field="players"]', '3');
    await page.dispatchEvent('[data-field="players"]', 'change');
    await page.selectOption('[data-field="starting"]', 'B');
    await page.selectOption('[data-field="rules"]', 'classic');
    await page.click('[data-testid="new-game"]');
    await expect.poll(() => page.textContent('[data-testid="priority"]')).toBe('B');
    expect(await activeStep(page)).toBe('beginning.upkeep');
    expect(await page.textContent('[data-testid="active-player"]')).toBe('B');
    expect(await page.textContent('[data-testid="rules"]')).toBe('classic');
    expect(await page.locator('[data-testid="players"] li').count()).toBe(3);
  });

  it('passing priority for each awaited player walks the chart step by step (CR 117.4, 500.2, 103.8a)', async () => {
    const page = await open();
    const seen: string[] = [];
    const expected = ['beginning.upkeep', 'precombatMain.main', 'combat.beginningOfCombat', 'combat.declareAttackers', 'combat.endOfCombat', 'postcombatMain.main', 'ending.end', 'beginning.upkeep'];
    for (const step of expected) {
      expect(await activeStep(page)).toBe(step);
      seen.push(step);
      if (seen.length === expected.length) break;
      if ((await awaited(page)) !== null && (await page.locator('button[data-action="DECLARE_ATTACKERS"]').count()) > 0) {
        await page.click('button[data-action="DECLARE_ATTACKERS"]'); // no attackers: CR 508.8
        expect(await activeStep(page)).toBe(step);
      }
      // Each player in turn order passes; the highlight moves only after the last one.
      expect(await awaited(page)).toBe('A');
      await page.click('button[data-action="PASS_PRIORITY"]');
      expect(await activeStep(page)).toBe(step);
      expect(await page.textContent('[data-testid="priority"]')).toBe('B');
      await page.click('button[data-action="PASS_PRIORITY"]');
    }
    expect(await page.textContent('[data-testid="turn"]')).toBe('2');
    expect(await page.textContent('[data-testid="active-player"]')).toBe('B');
  });

  it('dims the steps the schedule passes over: the first draw (103.8a) and, with no attackers, blockers and damage (508.8)', async () => {
    const page = await open();
    const draw = page.locator('[data-state="beginning.draw"]');
    expect(await draw.getAttribute('data-skipped')).toBe('true');
    await passUntil(page, 'combat.declareAttackers');
    await page.click('button[data-action="DECLARE_ATTACKERS"]');
    expect(await page.getAttribute('[data-state="combat.declareBlockers"]', 'data-skipped')).toBe('true');
    expect(await page.getAttribute('[data-state="combat.combatDamage"]', 'data-skipped')).toBe('true');
    // Passing steps over is drawn as guarded transitions of each phase's choice of its next step.
    expect(await page.locator('[data-transition="skip"][data-from="combat.nextStep"]').count()).toBeGreaterThan(0);
  });

  it('names the skip that passes each step over: its guard and rule on the choice of the next step, its reason on the dimmed step (103.8a, 508.8)', async () => {
    const page = await open();
    expect(await page.textContent('[data-state="beginning.draw"] > .reason')).toBe('skipped: starting player skips the first draw (CR 103.8a)');
    await passUntil(page, 'combat.declareAttackers');
    const noAttackers = page.locator('[data-transition="skip"][data-from="combat.nextStep"][data-guard="hasNoAttackers"]');
    expect(await noAttackers.getAttribute('data-rule')).toBe('508.8');
    expect(await noAttackers.getAttribute('data-active')).toBe('false');
    await page.click('button[data-action="DECLARE_ATTACKERS"]');
    expect(await noAttackers.getAttribute('data-active')).toBe('true');
    expect(await page.getAttribute('[data-transition="skip"][data-from="combat.nextStep"][data-guard="hasNoFirstStrike"]', 'data-active')).toBe('false');
    expect(await page.textContent('[data-state="combat.declareBlockers"] > .reason')).toBe('skipped: no attackers (CR 508.8)');
  });

  it('declaring an attacker with first strike shows the first-strike damage step (CR 510.4)', async () => {
    const page = await open();
    await passUntil(page, 'combat.declareAttackers');
    expect(await page.textContent('[data-testid="awaiting"]')).toBe('A: declareAttackers');
    await page.click('[data-testid="add-attacker"]');
    await page.fill('[data-field="attacker-id"]', 'knight');
    await page.check('[data-field="attacker-first-strike"]');
    await page.click('button[data-action="DECLARE_ATTACKERS"]');
    expect(await page.textContent('[data-testid="combat"]')).toContain('knight attacks B, first strike');
    await passUntil(page, 'combat.declareBlockers');
    expect(await page.textContent('[data-testid="awaiting"]')).toBe('B: declareBlockers');
    await page.click('button[data-action="DECLARE_BLOCKERS"]');
    await passUntil(page, 'combat.firstStrikeDamage');
    expect(await page.getAttribute('[data-state="combat.firstStrikeDamage"]', 'data-skipped')).toBeNull();
    expect(await page.locator('[data-testid="log"] li', { hasText: 'first-strike combat damage: knight' }).count()).toBe(1);
    await passUntil(page, 'combat.combatDamage');
    expect(await page.locator('[data-testid="log"] li', { hasText: 'combat damage: no creatures' }).count()).toBe(1);
  });

  it('a trigger in cleanup gives priority and the cleanup step begins again (CR 514.3a)', async () => {
    const page = await open();
    await passUntil(page, 'ending.end');
    await page.fill('[data-field="trigger-id"]', 'at-cleanup');
    await page.click('button[data-action="CLEANUP_TRIGGER"]');
    expect(await page.textContent('[data-testid="cleanup-queue"]')).toContain('at-cleanup');
    await page.click('button[data-action="PASS_PRIORITY"]');
    await page.click('button[data-action="PASS_PRIORITY"]');
    // The cleanup check found the trigger: players receive priority in the cleanup step.
    expect(await activeStep(page)).toBe('ending.cleanup');
    expect(await page.getAttribute('[data-state="ending.cleanup.priority"]', 'data-active')).toBe('true');
    expect(await page.textContent('[data-testid="stack"] li')).toContain('at-cleanup');
    expect(await page.getAttribute('[data-transition="loop"][data-to="ending.cleanup"]', 'data-active')).toBe('true');
    await page.click('button[data-action="PASS_PRIORITY"]');
    await page.click('button[data-action="PASS_PRIORITY"]'); // resolves the trigger
    expect(await page.locator('[data-testid="stack"] li').count()).toBe(0);
    expect(await activeStep(page)).toBe('ending.cleanup');
    await page.click('button[data-action="PASS_PRIORITY"]');
    await page.click('button[data-action="PASS_PRIORITY"]'); // another cleanup step, then turn 2
    expect(await page.textContent('[data-testid="turn"]')).toBe('2');
    expect(await page.locator('[data-testid="log"] li', { hasText: 'ending / cleanup begins' }).count()).toBe(2);
  });

  it('time travel shows the state after an earlier entry and returns to live', async () => {
    const page = await open();
    await passUntil(page, 'combat.beginningOfCombat');
    const entries = page.locator('[data-testid="log"] li');
    expect(await entries.count()).toBeGreaterThan(4);
    await entries.first().click();
    expect(await page.isVisible('[data-testid="time-travel"]')).toBe(true);
    expect(await activeStep(page)).toBe('beginning.upkeep');
    expect(await page.textContent('[data-testid="priority"]')).toBe('A');
    expect(await page.locator('button[data-action="PASS_PRIORITY"]').count()).toBe(0);
    await entries.nth(2).click(); // after A and B passed in upkeep
    expect(await activeStep(page)).toBe('precombatMain.main');
    await page.click('[data-testid="back-to-live"]');
    expect(await page.isVisible('[data-testid="time-travel"]')).toBe(false);
    expect(await activeStep(page)).toBe('combat.beginningOfCombat');
    // Continue from an earlier state: the log is cut there and the game goes on.
    await entries.first().click();
    await page.click('[data-testid="resume-here"]');
    expect(await activeStep(page)).toBe('beginning.upkeep');
    expect(await entries.count()).toBe(1);
    await page.click('button[data-action="PASS_PRIORITY"]');
    expect(await page.textContent('[data-testid="priority"]')).toBe('B');
  });

  it('refused events appear in the log with their error and rule', async () => {
    const page = await open();
    await page.selectOption('[data-field="mana-player"]', 'B');
    await page.fill('[data-field="mana-amount"]', '3');
    await page.click('button[data-action="SPEND_MANA"]');
    const refused = page.locator('[data-testid="log"] li[data-kind="refused"]');
    expect(await refused.count()).toBe(1);
    expect(await refused.textContent()).toMatch(/SPEND_MANA.*ILLEGAL_ACTION/);
    await page.click('button[data-action="ADD_MANA"]');
    expect(await page.textContent('[data-testid="mana-B"]')).toBe('mana 3');
    await page.click('button[data-action="ADD_EXTRA_TURN"]');
    expect(await page.textContent('[data-testid="schedule"]')).toContain('extra turn of A');
  });

  it('autoplay plays random legal actions until stopped', async () => {
    const page = await open();
    const entries = page.locator('[data-testid="log"] li');
    await page.check('[data-testid="autoplay"]');
    await expect.poll(() => entries.count(), { timeout: 120_000 }).toBeGreaterThan(4);
    await page.uncheck('[data-testid="autoplay"]');
    const stopped = await entries.count();
    await page.waitForTimeout(1000);
    expect(await entries.count()).toBe(stopped);
    expect(await page.locator('[data-testid="log"] li[data-kind="refused"]').count()).toBe(0);
  });

  it('follows a game of another process streamed through the relay (simulate --inspect)', async () => {
    const page = await open('#remote');
    expect(await page.textContent('[data-testid="remote-status"]')).toContain('waiting');
    // Records every step the chart highlights, however briefly (a string: the page's DOM types are not in this program).
    await page.evaluate(`
      window.seenSteps = [];
      new MutationObserver(() => {
        const step = document.querySelector('.step[data-active="true"]')?.getAttribute('data-state');
        if (step && window.seenSteps.at(-1) !== step) window.seenSteps.push(step);
      }).observe(document.body, { subtree: true, attributes: true, childList: true });
    `);
    const seenSteps = () => page.evaluate<string[]>('window.seenSteps');
    const code = await main(['simulate', '--inspect', '--relay', served.relayUrl, '--delay', '30', '--turns', '1', '--quiet', '--seed', '3']);
    expect(code).toBe(0);
    await expect.poll(async () => (await seenSteps()).at(-1), { timeout: 120_000 }).toBe('beginning.upkeep');
    const seen = await seenSteps();
    expect(seen).toEqual(expect.arrayContaining(['beginning.upkeep', 'precombatMain.main', 'combat.beginningOfCombat', 'ending.end']));
    expect(seen.indexOf('ending.end')).toBeGreaterThan(seen.indexOf('precombatMain.main'));
    expect(await page.textContent('[data-testid="turn"]')).toBe('2');
    expect(await page.textContent('[data-testid="remote-status"]')).toContain('following');
    expect(await page.locator('[data-testid="log"] li').count()).toBeGreaterThan(10);
    expect(await page.locator('button[data-action]').count()).toBe(0);
    // A page opened after the game ended still gets it: the relay replays what it saw.
    const late = await openPage(browser as Browser, `${served.url}#remote`);
    await expect.poll(() => late.page.locator('[data-testid="log"] li').count()).toBeGreaterThan(10);
    expect(await late.page.textContent('[data-testid="turn"]')).toBe('2');
    expect(late.problems).toEqual({ consoleErrors: [], pageErrors: [], foreignRequests: [] });
    await late.close();
  });

  it('draws the statechart laid out by elkjs: every state a box, every transition an arrow, the active states highlighted', async () => {
    const page = await open();
    expect(await page.locator('svg[data-testid="graph"] g[data-graph-state]').count()).toBe(45); // the root and its 44 states (turnMarkerPassed: Grand Melee, CR 807.4c)
    expect(await page.locator('svg[data-testid="graph"] g.graph-edge').count()).toBeGreaterThan(50);
    expect(await page.getAttribute('g[data-graph-state="beginning.upkeep"]', 'data-active')).toBe('true');
    await passUntil(page, 'combat.declareAttackers');
    expect(await page.getAttribute('g[data-graph-state="beginning.upkeep"]', 'data-active')).toBe('false');
    expect(await page.getAttribute('g[data-graph-state="combat.declareAttackers"]', 'data-active')).toBe('true');
    expect(await page.locator('g.graph-edge[data-label="DECLARE_ATTACKERS"]').count()).toBeGreaterThan(0);
  });

  it('shows added phases on the chart as they are added (CR 500.8)', async () => {
    const page = await open();
    expect(await page.getAttribute('[data-state="combat"]', 'data-added')).toBeNull();
    await page.click('button[data-action="ADD_EXTRA_COMBAT"]');
    expect(await page.getAttribute('[data-state="combat"]', 'data-added')).toBe('1');
    expect(await page.textContent('[data-state="combat"] .reason')).toContain('+1 added');
  });

  it('renders the log incrementally: entries already shown stay the same elements as the game goes on', async () => {
    const page = await open();
    await page.click('button[data-action="PASS_PRIORITY"]');
    await page.evaluate(() => ((document.querySelector('[data-testid="log"] li') as HTMLElement & { mark?: boolean }).mark = true));
    await passUntil(page, 'combat.declareAttackers');
    expect(await page.evaluate(() => (document.querySelector('[data-testid="log"] li') as HTMLElement & { mark?: boolean }).mark === true)).toBe(true);
    expect(await page.locator('[data-testid="log"] li').count()).toBeGreaterThan(8);
  });

  it('shows a remote message that is not a sound game as an error, without an uncaught exception', async () => {
    const page = await open('#remote');
    const { WebSocket } = await import('ws');
    const ws = new WebSocket(served.relayUrl);
    await new Promise((resolve) => ws.once('open', resolve));
    const snapshot = { status: 'active', value: { beginning: 'upkeep' }, context: { seats: ['A', 'B'], turn: 1, players: 'not a list' } };
    // A new game registers (the page follows the newest), then its snapshot is not a sound game.
    ws.send(JSON.stringify({ type: '@xstate.actor', name: 'turn', sessionId: 'broken:0', _version: '1', createdAt: '0' }));
    ws.send(JSON.stringify({ type: '@xstate.snapshot', sessionId: 'broken:0', snapshot, event: { type: 'PASS_PRIORITY' }, _version: '1', createdAt: '0' }));
    let status = '';
    for (let i = 0; i < 50 && !status.includes('refused'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await page.textContent('[data-testid="remote-status"]')) ?? '';
    }
    expect(status).toContain('a message of the remote game was refused: snapshot.context');
    ws.close();
  });

  it('takes the README screenshot', async () => {
    const page = await open();
    await passUntil(page, 'combat.declareAttackers');
    await page.click('[data-testid="add-attacker"]');
    await page.check('[data-field="attacker-first-strike"]');
    await page.click('button[data-action="DECLARE_ATTACKERS"]');
    await page.click('button[data-action="CAST_SPELL"]');
    const path = await screenshot(page, 'inspector');
    // Into docs/ only with UPDATE_DOCS_PICTURES=1 (a test run never changes the checkout on its own).
    if (process.env.UPDATE_DOCS_PICTURES === '1') await copyFile(path, 'docs/inspector.png');
    expect(await page.locator('[data-testid="stack"] li').count()).toBe(1);
  });
});

describe.runIf(hasChromium)('the relay against other sites (issue 13)', () => {
  it("is served with a CSP that forbids framing (frame-ancestors 'none')", async () => {
    const response = await fetch(served.url);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('a page from another origin (a second local server) can neither read nor write a game', async () => {
    const { createServer } = await import('node:http');
    const relay = served.relayUrl.replace(/\?.*$/, '');
    const evil = createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html');
      res.end(`<!doctype html><script>
        window.result = new Promise((resolve) => {
          const ws = new WebSocket(${JSON.stringify(relay)});
          ws.onopen = () => { ws.send(JSON.stringify({ type: '@xstate.snapshot', sessionId: 'evil:0' })); resolve('open'); };
          ws.onerror = () => resolve('refused');
        });
      </script>`);
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    const port = (evil.address() as { port: number }).port;
    const context = await (browser as Browser).newContext();
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    expect(await page.evaluate(() => (window as unknown as { result: Promise<string> }).result)).toBe('refused');
    await context.close();
    await new Promise<void>((resolve) => evil.close(() => resolve()));
  });
});

describe.runIf(hasChromium)('the inspector in a 1,400 px window (issue 33)', () => {
  it('the chart fits: nothing of the page passes the right edge, no step name leaves its box; the graph fits the width and shows at actual size on demand, scrolled in its box', async () => {
    const context = await (browser as Browser).newContext({ viewport: { width: 1400, height: 900 }, colorScheme: 'light' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(served.url);
    await page.locator('[data-state]').first().waitFor();
    const measure = () =>
      page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        const scroller = document.querySelector('.graph-scroll') as HTMLElement;
        // Outside the graph's own scroller, nothing may reach past the window's right edge.
        const past = Array.from(document.querySelectorAll('body *'))
          .filter((e) => !scroller.contains(e) && e.getBoundingClientRect().right > width + 0.5)
          .map((e) => `${e.tagName.toLowerCase()}.${e.getAttribute('class') ?? ''}[${e.getAttribute('data-state') ?? ''}]`);
        const squeezed = Array.from(document.querySelectorAll('.step > .name')).filter((n) => n.scrollWidth > (n as HTMLElement).clientWidth + 0.5).map((n) => n.textContent);
        const graph = document.querySelector('svg.graph') as SVGSVGElement;
        return { width, pageWidth: document.documentElement.scrollWidth, past, squeezed, graphRight: graph.getBoundingClientRect().right, graphWidth: graph.getBoundingClientRect().width, scrolls: scroller.scrollWidth > scroller.clientWidth };
      });
    const fit = await measure();
    expect(fit.width).toBe(1400);
    expect(fit.pageWidth).toBe(1400);
    expect(fit.past).toEqual([]);
    expect(fit.squeezed).toEqual([]);
    expect(fit.graphRight).toBeLessThanOrEqual(1400);
    expect(fit.scrolls).toBe(false);
    await page.locator('[data-testid="graph-zoom"]').click();
    const actual = await measure();
    expect(actual.graphWidth).toBeGreaterThan(1400);
    expect(actual.scrolls).toBe(true);
    expect(actual.pageWidth).toBe(1400);
    expect(actual.past).toEqual([]);
    await page.locator('[data-testid="graph-zoom"]').click();
    expect((await measure()).graphRight).toBeLessThanOrEqual(1400);
    expect(errors).toEqual([]);
    await context.close();
  });
});
