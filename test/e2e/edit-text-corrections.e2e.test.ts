/**
 * In Debian's Chromium: a reviewer edits a language model's answer on the response review card and accepts it
 * (the run's result carries the edit, the model's own output kept beside it), and the corrections page shows the
 * field a reviewer changed at a payload review, for that model.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunState } from '../../console/src/api/types.ts';
import { startReplicateSim, type ReplicateSim } from '../../src/sim/index.ts';
import { LLM, registerLlm } from '../support/llm-model.ts';
import { TENANT } from '../support/pipeline.ts';
import { eventually } from '../support/test-system.ts';
import { launchChromium, screenshot } from './browser.ts';
import { expectAccessible, openInApp, signedInPage } from './console-pages.ts';
import { startConsoleSystem, type ConsoleSystem } from './console-system.ts';

const TOKEN = 'r8_e2e_edit_text_token_0042';
let replicate: ReplicateSim;
let env: ConsoleSystem;
let browser: Browser;

beforeAll(async () => {
  replicate = await startReplicateSim({ stepMs: 10, apiToken: TOKEN });
  [env, browser] = await Promise.all([
    startConsoleSystem({ REPLICATE_API_TOKEN: TOKEN, REPLICATE_BASE_URL: replicate.baseUrl, VETTED_REPLICATE_POLL_MS: '10' }),
    launchChromium(),
  ]);
  await registerLlm(env.system, replicate, TENANT);
});

afterAll(async () => {
  await browser?.close();
  await env?.close();
  await replicate?.close();
});

async function parkedState(runId: string): Promise<RunState> {
  return eventually(async () => {
    const state = await env.read<RunState>(`/api/runs/${runId}/state`);
    return state.run.status === 'awaiting_human' ? state : undefined;
  }, 30_000, `run ${runId} to park`);
}

describe('the response review card', () => {
  it("edits the model's text and accepts it; the result keeps the model's own beside it", async () => {
    const runId = await env.submit({ model: LLM, prompt: 'name a colour', policy: { mode: 'auto', responseReview: true } });
    const parked = await parkedState(runId);
    expect(parked.run.pendingReview?.checkpoint).toBe('response_review');
    const { context, page } = await signedInPage(browser, env, { path: `/console/reviews/${parked.run.pendingReview!.reviewId}`, heading: 'Why it stopped' });

    await expect.poll(() => page.getByTestId('review-output').textContent()).toContain('my answer to: name a colour');
    const panel = page.getByTestId('edit-text');
    const accept = panel.getByRole('button', { name: 'Accept edited text' });
    expect(await accept.isDisabled()).toBe(true);
    await panel.getByLabel(/^Edit the text/).fill('Ultramarine.');
    await screenshot(page, 'edit-text');
    await expectAccessible(page, 'response review card (edit text)');
    await accept.click();
    await expect.poll(() => page.getByTestId('confirmation').textContent()).toContain('Accepted');

    const done = await eventually(async () => {
      const state = await env.read<RunState>(`/api/runs/${runId}/state`);
      return state.run.status === 'completed' ? state : undefined;
    }, 30_000, 'the run to complete');
    expect(done.run.result).toMatchObject({ output: 'Ultramarine.', outputSource: 'human_edit', providerOutput: ['Here is ', 'my answer to: ', 'name a colour'] });
    await context.close();
  });
});

describe('the corrections page', () => {
  it('shows the field reviewers changed, per model, with the change', async () => {
    const runId = await env.submit({ model: 'black-forest-labs/flux-schnell', prompt: 'a paper kite', policy: 'require_human' });
    const review = (await parkedState(runId)).run.pendingReview!;
    const answer = await fetch(`${env.baseUrl}/api/runs/${runId}/decision`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.keys.reviewer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'edit', edits: { seed: 7 } }),
    });
    expect(answer.status, await answer.text()).toBe(200);

    const { context, page } = await signedInPage(browser, env);
    await page.getByRole('link', { name: 'Corrections' }).click();
    await page.getByRole('heading', { name: 'Corrections', level: 1 }).waitFor();
    const card = page.getByTestId('model-corrections').filter({ hasText: 'black-forest-labs/flux-schnell' });
    await expect.poll(() => card.getByRole('row', { name: /seed/ }).textContent()).toMatch(/unset\s*→\s*7/);
    await screenshot(page, 'corrections');
    await expectAccessible(page, 'corrections page');
    await openInApp(page, '/console/');
    await page.getByRole('heading', { name: 'Review queue' }).waitFor();
    await context.close();
  });
});
