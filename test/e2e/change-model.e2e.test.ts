/**
 * Change model on the review card, in Debian's Chromium: a run parked at a payload review for a text-to-image
 * model is sent by the reviewer to another catalog model; an empty model name is caught at the field, the banner
 * says the model changed, the run is built again for the new model and parks there, and the audit names both.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunState } from '../../console/src/api/types.ts';
import { registerModel } from '../../src/catalog/model-catalog.ts';
import { exampleModel, TENANT } from '../support/pipeline.ts';
import { eventually } from '../support/test-system.ts';
import { launchChromium, screenshot } from './browser.ts';
import { expectAccessible, signedInPage } from './console-pages.ts';
import { startConsoleSystem, type ConsoleSystem } from './console-system.ts';

let env: ConsoleSystem;
let browser: Browser;

beforeAll(async () => {
  [env, browser] = await Promise.all([startConsoleSystem(), launchChromium()]);
  await registerModel(env.system, { tenantId: TENANT, source: exampleModel('sdxl.model.json') });
});

afterAll(async () => {
  await browser?.close();
  await env?.close();
});

async function parkedState(runId: string, notReview?: string): Promise<RunState> {
  return eventually(async () => {
    const state = await env.read<RunState>(`/api/runs/${runId}/state`);
    const reviewId = state.run.pendingReview?.reviewId;
    return state.run.status === 'awaiting_human' && reviewId !== notReview ? state : undefined;
  }, 30_000, `run ${runId} to park`);
}

describe('change model on the review card', () => {
  it('sends a parked run to another catalog model, which it is built again for', async () => {
    const runId = await env.submit({ model: 'black-forest-labs/flux-schnell', prompt: 'a paper kite over the dunes', policy: 'require_human', edits: { seed: 11 } });
    const first = await parkedState(runId);
    const reviewId = first.run.pendingReview?.reviewId as string;

    const { context, page } = await signedInPage(browser, env, { path: `/console/reviews/${reviewId}`, heading: 'Why it stopped' });
    const panel = page.getByTestId('change-model');
    await panel.waitFor();
    await panel.getByRole('button', { name: 'Change model' }).click();
    await page.getByText('Name the model to send the run to.').waitFor();
    await panel.getByLabel(/^Another model/).fill('stability-ai/sdxl');
    await screenshot(page, 'change-model');
    await expectAccessible(page, 'review card (change model)');
    await panel.getByRole('button', { name: 'Change model' }).click();
    await expect.poll(() => page.getByTestId('confirmation').textContent()).toContain('Model changed');

    const again = await parkedState(runId, reviewId);
    expect(again.run.pendingReview?.checkpoint).toBe('payload_review');
    const decisions = (await env.system.store.decisions(runId)).map((d) => ({ action: d.action, parsed: d.parsed }));
    expect(decisions[0]).toMatchObject({ action: 'change_model', parsed: { fromModel: 'black-forest-labs/flux-schnell', toModel: 'stability-ai/sdxl' } });
    const row = await env.system.store.get(runId);
    expect(row).toMatchObject({ model: 'stability-ai/sdxl', candidate: { payload: { seed: 11, prompt: 'a paper kite over the dunes' } } });
    await context.close();
  });
});
