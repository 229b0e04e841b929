/**
 * Media previews in Chromium: a run's attachment names an intranet address. Opening its review card makes the
 * reviewer's browser request nothing there (no <img> points at it); a click shows the full URL as text, and
 * still nothing is fetched. (No media host is configured, so no URL is previewed inline.)
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunState } from '../../console/src/api/types.ts';
import { eventually } from '../support/test-system.ts';
import { launchChromium } from './browser.ts';
import { openInApp, signedInPage } from './console-pages.ts';
import { startConsoleSystem, type ConsoleSystem } from './console-system.ts';

const INTERNAL = 'http://192.168.0.1/cgi-bin/reboot?a.png';
let env: ConsoleSystem;
let browser: Browser;

beforeAll(async () => {
  [env, browser] = await Promise.all([startConsoleSystem(), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await env?.close();
});

describe('media previews in the console', () => {
  it('an intranet attachment is not requested as the card opens, and is shown as text only after a click', async () => {
    const runId = await env.submit({
      model: 'nightmareai/real-esrgan', prompt: 'sharpen it', policy: 'require_human', attachments: [{ url: INTERNAL, mimeType: 'image/png', name: 'reboot.png' }],
    });
    const reviewId = await eventually(async () => {
      const state = await env.read<RunState>(`/api/runs/${runId}/state`);
      return state.run.status === 'awaiting_human' ? (state.run.pendingReview?.reviewId as string) : undefined;
    }, 30_000, `run ${runId} to park`);
    const requested: string[] = [];
    const { context, page } = await signedInPage(browser, env);
    page.on('request', (request) => requested.push(request.url()));
    await openInApp(page, `/console/reviews/${reviewId}`);
    await page.getByRole('heading', { name: 'Why it stopped' }).waitFor();
    await page.getByTestId('show-media-url').first().waitFor();
    expect(await page.locator('img[src*="192.168.0.1"], audio[src*="192.168.0.1"], video[src*="192.168.0.1"]').count()).toBe(0);
    expect(await page.content()).not.toContain(`src="${INTERNAL.replace(/&/g, '&amp;')}"`);
    await page.getByTestId('show-media-url').first().click();
    await page.locator('code', { hasText: INTERNAL }).first().waitFor();
    expect(requested.filter((url) => url.includes('192.168.0.1'))).toEqual([]);
    // The card did load what it needs from the API, so the listener saw the card open.
    expect(requested.some((url) => url.includes(`/api/reviews/${reviewId}`))).toBe(true);
    await context.close();
  });
});
