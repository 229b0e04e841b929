/**
 * The reviewer console in Debian's Chromium: sign in, a parked run arrives live, open it with the keyboard, fix
 * the failing field, see the banner and the run complete; the countdown approves by itself; a cancelled
 * countdown and a rejection with a reason; a value copied from the published example is recorded as an edit;
 * axe-core finds no serious violation on any page; screenshots of each page go to test-results/console/.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunState } from '../../console/src/api/types.ts';
import { eventually } from '../support/test-system.ts';
import { launchChromium, screenshot } from './browser.ts';
import { expectAccessible, openInApp, signedInPage as signIn, type SignInOptions } from './console-pages.ts';
import { startConsoleSystem, type ConsoleSystem } from './console-system.ts';

const FLUX = 'black-forest-labs/flux-schnell';
const COUNTDOWN_POLICY = { mode: 'require_human', autoApproveCountdown: true };

let env: ConsoleSystem;
let browser: Browser;

beforeAll(async () => {
  [env, browser] = await Promise.all([startConsoleSystem(), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await env?.close();
});

const signedInPage = (options: SignInOptions = {}) => signIn(browser, env, options);

async function runState(runId: string): Promise<RunState> {
  return env.read<RunState>(`/api/runs/${runId}/state`);
}

async function parked(runId: string): Promise<RunState> {
  return eventually(async () => {
    const state = await runState(runId);
    return state.run.status === 'awaiting_human' ? state : undefined;
  }, 30_000, `run ${runId} to park`);
}

async function openReviewOf(page: Page, runId: string): Promise<void> {
  const state = await parked(runId);
  const reviewId = state.run.pendingReview?.reviewId as string;
  await page.locator(`tr[data-review-id="${reviewId}"]`).click();
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Why it stopped' }).waitFor();
}

describe('reviewer console', () => {
  it('refuses a bad key with the API\'s problem detail, and keeps the key out of storage and the URL', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${env.baseUrl}/console/`);
    await page.getByLabel('API key').fill('vt_aaaaaaaaaaaa.not-a-real-secret-not-a-real-secret-xx');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('UNAUTHORIZED');
    await page.getByLabel('API key').fill(env.keys.reviewer);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Review queue' }).waitFor();
    // Page-side expressions are strings: this file is type-checked for Node, without the DOM's globals.
    const stored = await page.evaluate<string>('JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie, url: location.href })');
    expect(stored).not.toContain(env.keys.reviewer.split('.')[1]);
    await expectAccessible(page, 'sign-in → queue');
    await context.close();
  });

  it('shows a parked run as it arrives, opens it with the keyboard, takes a fixed field and completes the run', async () => {
    const { context, page } = await signedInPage();
    await page.getByText('Live', { exact: true }).waitFor();
    // Submitted after the queue is on screen: it must appear without a reload.
    const runId = await env.submit({ model: FLUX, prompt: 'a red fox in fresh snow, 5 images', shadow: true });
    const state = await parked(runId);
    const reviewId = state.run.pendingReview?.reviewId as string;
    const row = page.locator(`tr[data-review-id="${reviewId}"]`);
    await row.waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('count-payload_review').textContent()).toBe('1');
    await screenshot(page, 'queue');
    await expectAccessible(page, 'queue');

    await page.keyboard.press('?');
    await page.getByRole('heading', { name: 'Keyboard shortcuts' }).waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.press('k');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Why it stopped' }).waitFor();
    expect(page.url()).toContain(`/console/reviews/${reviewId}`);
    expect(page.url()).not.toContain(env.keys.reviewer.split('.')[0] as string);
    // Opening the card claimed it for this reviewer.
    await expect.poll(async () => (await env.read<{ claim: { claimedBy: string } | null }>(`/api/reviews/${reviewId}`)).claim?.claimedBy).toMatch(/^reviewer:rv_/);
    await page.getByRole('heading', { name: /Published example/ }).waitFor();
    await expect.poll(() => page.locator('.field-error, .error-detail').count()).toBeGreaterThan(0);
    await screenshot(page, 'card');
    await expectAccessible(page, 'card');

    const numOutputs = page.locator('#payload_num_outputs');
    await numOutputs.fill('2');
    await page.getByRole('button', { name: 'Save 1 edit and validate' }).click();
    await page.getByTestId('confirmation').waitFor();
    expect(await page.getByTestId('confirmation').textContent()).toContain('Edits saved');
    // The card stays, as a banner, with the form read-only.
    expect(await numOutputs.isDisabled()).toBe(true);

    await page.getByRole('link', { name: 'Follow the run' }).click();
    await expect.poll(() => page.getByTestId('run-status').textContent(), { timeout: 30_000 }).toBe('Completed');
    const done = await runState(runId);
    expect(done.decisions.at(-1)).toMatchObject({ action: 'edit', edits: { num_outputs: 2 } });
    expect(done.run.candidate?.provenance.num_outputs?.source).toBe('human_edit');
    await page.getByText('Provider output').waitFor();
    await screenshot(page, 'run');
    await expectAccessible(page, 'run');
    await context.close();
  });

  it('counts down and approves a review that has nothing blocking when the policy allows it', async () => {
    const runId = await env.submit({ model: FLUX, prompt: 'a lighthouse at dawn, watercolor', policy: COUNTDOWN_POLICY });
    const { context, page } = await signedInPage({ clock: true });
    await openReviewOf(page, runId);
    const seconds = page.getByTestId('countdown-seconds');
    await seconds.waitFor();
    expect(Number(await seconds.textContent())).toBeLessThanOrEqual(10);
    await page.clock.runFor(11_000);
    await page.getByTestId('confirmation').waitFor();
    expect(await page.getByTestId('confirmation').textContent()).toContain('Approved');
    await eventually(async () => ((await runState(runId)).run.status === 'completed' ? true : undefined), 30_000, 'the auto-approved run to complete');
    const decision = (await runState(runId)).decisions.at(-1);
    expect(decision).toMatchObject({ action: 'approve', actor: expect.stringMatching(/^reviewer:rv_/) });
    expect(String(decision?.raw.reason)).toContain('Auto-approved after the countdown');
    await context.close();
  });

  it('lets the reviewer cancel the countdown, then rejects with a reason', async () => {
    const runId = await env.submit({ model: FLUX, prompt: 'a city skyline at night, neon', policy: COUNTDOWN_POLICY });
    const { context, page } = await signedInPage({ clock: true });
    await openReviewOf(page, runId);
    await page.getByTestId('countdown-seconds').waitFor();
    await page.getByRole('button', { name: 'Cancel countdown' }).click();
    await page.getByText('Countdown cancelled').waitFor();
    // Time passes well beyond the countdown: nothing is approved.
    await page.clock.runFor(30_000);
    expect(await page.getByTestId('confirmation').count()).toBe(0);
    expect((await runState(runId)).run.status).toBe('awaiting_human');

    // r jumps to the reason; rejecting without one is refused in the card, naming what is missing.
    await page.keyboard.press('r');
    expect(await page.evaluate<string>('document.activeElement?.tagName')).toBe('TEXTAREA');
    await page.getByRole('button', { name: 'Reject' }).click();
    await page.getByText('Say why you reject it').waitFor();
    await page.keyboard.type('The skyline is not the brand city; ask for the harbour instead.');
    await page.getByRole('button', { name: 'Reject' }).click();
    await page.getByTestId('confirmation').waitFor();
    expect(await page.getByTestId('confirmation').textContent()).toContain('Rejected');
    const state = await runState(runId);
    expect(state.run.status).toBe('cancelled');
    expect(state.decisions.at(-1)).toMatchObject({ action: "reject", raw: { reason: "The skyline is not the brand city; ask for the harbour instead." } });
    await context.close();
  });

  it('records a value copied from the published example as the reviewer\'s edit', async () => {
    const runId = await env.submit({ model: FLUX, prompt: 'a bowl of ramen, top view', policy: 'require_human' });
    const { context, page } = await signedInPage();
    await openReviewOf(page, runId);
    await page.getByRole('button', { name: "Copy to form: the example's prompt (your edit)" }).click();
    await page.getByText('(yours, copied from the example)').waitFor();
    await page.getByRole('button', { name: 'Save 1 edit and validate' }).click();
    await page.getByTestId('confirmation').waitFor();
    const state = await runState(runId);
    const decision = state.decisions.at(-1);
    expect(decision?.action).toBe('edit');
    expect(String(decision?.edits?.prompt)).toContain('FLUX SCHNELL');
    expect(String(decision?.raw.reason)).toContain('Copied from the published example: prompt');
    await context.close();
  });

  it('shows a chat reply on the run page with how it was read', async () => {
    // The chat user is the person who approves (the policy lets the submitter's reply approve).
    const runId = await env.submit({ model: FLUX, prompt: 'a kite over the dunes', policy: { mode: 'require_human', submitterApproves: true } });
    const reviewId = (await parked(runId)).run.pendingReview?.reviewId as string;
    // The person answers in the chat, through the upstream app; the fast path reads "yes, go ahead".
    await env.post(`/api/runs/${runId}/reply`, { reviewId, text: 'yes, go ahead' });
    const { context, page } = await signedInPage();
    await openInApp(page, `/console/runs/${runId}`);
    await expect.poll(() => page.getByTestId('run-status').textContent(), { timeout: 30_000 }).toBe('Completed');
    await page.getByText('Chat reply: “yes, go ahead”').waitFor();
    expect(await page.getByTestId('reply-reading').textContent()).toBe('read as continue, by the fast path (yes)');
    await context.close();
  });

  it('shows the shadow page with the leak-rate chart, readable on a 390-wide phone too', async () => {
    // An upscaler asked to work without an image: V2 fills the gap with the example's picture (a leak), V3 does not.
    await env.submit({ model: 'nightmareai/real-esrgan', prompt: 'upscale my photo with face enhance', shadow: true });
    await eventually(async () => ((await env.read<{ items: unknown[] }>('/api/shadow/reports')).items.length > 1 ? true : undefined), 30_000, 'two shadow reports');
    const { context, page } = await signedInPage();
    await page.getByRole('link', { name: 'Shadow' }).click();
    await page.getByRole('heading', { name: 'Leak rate over time' }).waitFor();
    await page.locator('figure.chart svg').waitFor();
    await page.getByText('nightmareai/real-esrgan: 1 of 1 leaked').waitFor();
    await screenshot(page, 'shadow');
    await expectAccessible(page, 'shadow');
    await context.close();

    const phone = await signedInPage({ width: 390, height: 844 });
    const runId = await env.submit({ model: FLUX, prompt: 'a paper boat on a pond, 9 images' });
    await openReviewOf(phone.page, runId);
    // Nothing sideways: the page fits the phone's width.
    expect(await phone.page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await screenshot(phone.page, 'card-phone');
    await expectAccessible(phone.page, 'card on a phone');
    await phone.context.close();
  });
});
