/**
 * The inspector opens a recorded game (issue 23) in a real browser (Debian's Chromium via
 * playwright-core): picked with the file picker or dropped on the page, it is replayed into the
 * log, and the scrub bar (and the log's time travel) shows the state at any version, as
 * `replayGame(recording, { until })` does; a file that is not a recording is reported, never
 * thrown; "Continue from here" plays on from a recorded state.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayGame, type Recording } from '../../src/index.js';
import { simulate } from '../../src/simulation.js';
import { chromiumAvailable, launchChromium, inspectorPages, serveInspector, type ServedInspector } from './harness.js';

const hasChromium = chromiumAvailable();

let served: ServedInspector;
let browser: Browser | undefined;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mtg-inspector-rec-'));
  served = await serveInspector();
  if (hasChromium) browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A recorded game of `players` players, with a checkpoint hook that reports a trigger as each upkeep begins. */
function recorded(players: number, turns: number, seed: number): Recording {
  return simulate({
    players,
    turns,
    seed,
    game: { record: true, hooks: { checkpoint: (view, pending) => (view.priority !== null && pending.some((e) => e.type === 'stepBegan' && e.step === 'upkeep') ? { triggers: [{ id: `up${view.turn}`, controller: view.priority }] } : undefined) } },
  }).game.recording();
}

function save(name: string, recording: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof recording === 'string' ? recording : JSON.stringify(recording));
  return path;
}

/** What the panel shows of the view at `version` of a recording. */
function expected(recording: Recording, version: number): { turn: string; step: string; priority: string } {
  const view = replayGame(recording, { until: version }).view();
  return { turn: String(view.turn), step: `${view.phase} / ${view.step}`, priority: view.priority ?? '—' };
}

async function shown(page: Page): Promise<{ turn: string | null; step: string | null; priority: string | null }> {
  return { turn: await page.textContent('[data-testid="turn"]'), step: await page.textContent('[data-testid="step"]'), priority: await page.textContent('[data-testid="priority"]') };
}

/** Moves the scrub bar to `version`, as dragging it does (an input event). */
async function scrubTo(page: Page, version: number): Promise<void> {
  await page.$eval('[data-testid="scrub"]', (el, v) => {
    (el as HTMLInputElement).value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, version);
}

describe.skipIf(!hasChromium)('the inspector opens a recording and scrubs through it (issue 23)', () => {
  const open = inspectorPages(() => browser as Browser, () => served.url);

  it('opens a recording with the file picker and scrubs through its versions', async () => {
    const recording = recorded(2, 4, 7);
    const end = recording.inputs.length - 1;
    const page = await open();
    expect(await page.isVisible('[data-testid="recording-bar"]')).toBe(false);
    await page.setInputFiles('[data-testid="open-recording"]', save('game.json', recording));
    await page.locator('[data-testid="recording-status"]').waitFor();
    expect(await page.textContent('[data-testid="recording-status"]')).toContain(`versions 0–${end}`);
    expect(await page.isVisible('[data-testid="recording-bar"]')).toBe(true);
    expect(await page.getAttribute('[data-testid="scrub"]', 'max')).toBe(String(end));
    expect(await page.inputValue('[data-testid="scrub"]')).toBe(String(end));
    // At the end: the recorded game's last state; nothing to send (a recording is read-only).
    expect(await shown(page)).toEqual(expected(recording, end));
    expect(await page.locator('button[data-action="PASS_PRIORITY"]').count()).toBe(0);
    // Scrubbing: each version shows what replayGame shows there.
    for (const version of [0, 1, Math.floor(end / 3), Math.floor(end / 2), end - 1]) {
      await scrubTo(page, version);
      expect(await shown(page), `version ${version}`).toEqual(expected(recording, version));
      expect(await page.textContent('[data-testid="scrub-status"]')).toBe(`game.json: version ${version} of 0–${end}`);
    }
    await page.click('[data-testid="scrub-back"]');
    expect(await page.inputValue('[data-testid="scrub"]')).toBe(String(end - 2));
    expect(await shown(page)).toEqual(expected(recording, end - 2));
    await page.click('[data-testid="scrub-forward"]');
    await page.click('[data-testid="scrub-forward"]');
    expect(await page.inputValue('[data-testid="scrub"]')).toBe(String(end));
    expect(await page.isVisible('[data-testid="time-travel"]')).toBe(false);
    // The log's time travel: an entry shows the state after it, and the bar follows.
    const sent = page.locator('[data-testid="log"] li[data-kind="sent"]');
    expect(await sent.count()).toBe(end);
    await sent.nth(4).click();
    expect(await page.inputValue('[data-testid="scrub"]')).toBe('5');
    expect(await shown(page)).toEqual(expected(recording, 5));
    expect(await page.isVisible('[data-testid="time-travel"]')).toBe(true);
    await page.click('[data-testid="back-to-live"]');
    expect(await page.inputValue('[data-testid="scrub"]')).toBe(String(end));
  });

  it('opens a recording dropped on the page; a file that is not one is reported', async () => {
    const page = await open();
    const drop = async (name: string, text: string) => {
      const data = await page.evaluateHandle(({ name: n, text: t }) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([t], n, { type: 'application/json' }));
        return transfer;
      }, { name, text });
      await page.dispatchEvent('main', 'dragover', { dataTransfer: data });
      await page.dispatchEvent('main', 'drop', { dataTransfer: data });
    };
    await drop('broken.json', JSON.stringify({ format: 'something else' }));
    await expect.poll(() => page.textContent('[data-testid="recording-error"]')).toContain("broken.json: recording.format: expected 'mtg-turn-engine/recording@1'");
    expect(await page.textContent('[data-testid="turn"]')).toBe('1'); // the local game stays
    await drop('notjson.json', '{ nope');
    await expect.poll(() => page.textContent('[data-testid="recording-error"]')).toContain('notjson.json is not JSON');
    const recording = recorded(3, 3, 9);
    await drop('three.json', JSON.stringify(recording));
    await page.locator('[data-testid="recording-status"]').waitFor();
    expect(await page.isVisible('[data-testid="recording-error"]')).toBe(false);
    expect(await page.locator('[data-testid="players"] li').count()).toBe(3);
    await scrubTo(page, 10);
    expect(await shown(page)).toEqual(expected(recording, 10));
    // Play on from a recorded state: a local game from there.
    await page.click('[data-testid="resume-here"]');
    expect(await page.isVisible('[data-testid="recording-bar"]')).toBe(false);
    expect(await page.getAttribute('[data-testid="mode-local"]', 'aria-pressed')).toBe('true');
    const before = await shown(page);
    expect(before).toEqual(expected(recording, 10));
    expect(await page.locator('button[data-action="PASS_PRIORITY"]').count()).toBeGreaterThan(0);
  });
});
