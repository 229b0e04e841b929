/**
 * In Debian's Chromium, the queue for teams: a review with blocking issues turns bulk approve off (saying why);
 * three clean reviews approved at once, one of them decided by someone else while the request was on its way,
 * answer two approved and one conflict naming who won; "not now" takes a review out of the reviewer's queue and
 * "include snoozed" shows it again until it is brought back; a holder of reviews:assign gives a review to someone
 * else and the queue shows the assignee; the queue shows each review's deadline and who it escalates to.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewDetail, RunState } from '../../console/src/api/types.ts';
import { TENANT } from '../support/pipeline.ts';
import { eventually } from '../support/test-system.ts';
import { launchChromium, screenshot } from './browser.ts';
import { expectAccessible, signedInPage } from './console-pages.ts';
import { startConsoleSystem, type ConsoleSystem } from './console-system.ts';

const FLUX = 'black-forest-labs/flux-schnell';
const TEAM_POLICY = { mode: 'require_human', team: 'imaging', sla: { remindAfterSeconds: 3600, escalateAfterSeconds: 7200, escalateTo: { team: 'leads' } } };

let env: ConsoleSystem;
let browser: Browser;
/** Ada's key with reviews:assign: she may give reviews to others. */
let assignerKey: string;
let grace: { id: string; key: string };

beforeAll(async () => {
  [env, browser] = await Promise.all([startConsoleSystem(), launchChromium()]);
  const people = await env.system.reviewers.list(TENANT);
  const ada = people.find((p) => p.name === 'Ada Lovelace');
  const graceRow = people.find((p) => p.name === 'Grace Hopper');
  if (!ada || !graceRow) throw new Error('the console system has no Ada and Grace');
  assignerKey = (await env.system.apiKeys.create({ tenantId: TENANT, role: 'reviewer', reviewerId: ada.id, permissions: ['reviews:assign'] })).key;
  grace = { id: graceRow.id, key: env.keys.otherReviewer };
});

afterAll(async () => {
  await browser?.close();
  await env?.close();
});

async function park(prompt: string, policy: unknown = TEAM_POLICY): Promise<{ runId: string; reviewId: string; payloadHash: string }> {
  const runId = await env.submit({ model: FLUX, prompt, policy });
  const state = await eventually(async () => {
    const read = await env.read<RunState>(`/api/runs/${runId}/state`);
    return read.run.status === 'awaiting_human' ? read : undefined;
  }, 30_000, `run ${runId} to park`);
  const review = state.run.pendingReview!;
  return { runId, reviewId: review.reviewId, payloadHash: review.payloadHash };
}

const rowOf = (page: Page, reviewId: string) => page.locator(`tr[data-review-id="${reviewId}"]`);

async function rejectAsGrace(parked: { runId: string; reviewId: string; payloadHash: string }): Promise<void> {
  const response = await fetch(`${env.baseUrl}/api/runs/${parked.runId}/decision`, {
    method: 'POST',
    headers: { authorization: `Bearer ${grace.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ reviewId: parked.reviewId, payloadHash: parked.payloadHash, action: 'reject', reason: 'not this one' }),
  });
  expect(response.status, await response.text()).toBe(200);
}

describe('the queue for teams', () => {
  it('bulk-approves the selected reviews and reports the one someone else decided meanwhile', async () => {
    const clean = [await park('a red kite over green hills'), await park('a lighthouse in the fog'), await park('a bowl of cherries, still life')];
    const blocked = await park('a red fox in fresh snow, 5 images', 'require_human');
    const { context, page } = await signedInPage(browser, env, { key: assignerKey });
    for (const parked of [...clean, blocked]) await rowOf(page, parked.reviewId).waitFor();

    // The deadline: the escalation is due in two hours, to the leads.
    const deadline = rowOf(page, clean[0]!.reviewId).getByTestId('deadline');
    await expect.poll(() => deadline.textContent()).toMatch(/Escalates in (1 h 5\d min|2 h)\s*to team leads/);

    // A review with blocking issues: approve is off, and the bar says why.
    await rowOf(page, blocked.reviewId).getByRole('checkbox').check();
    const bar = page.getByTestId('bulk-bar');
    await bar.getByText('1 selected', { exact: true }).waitFor();
    expect(await bar.getByRole('button', { name: 'Approve 1' }).isDisabled()).toBe(true);
    await bar.getByText('Approve is off: 1 selected review has blocking issues').waitFor();

    for (const parked of clean) await rowOf(page, parked.reviewId).getByRole('checkbox').check();
    await bar.getByText('4 selected', { exact: true }).waitFor();
    expect(await bar.getByRole('button', { name: 'Approve 4' }).isDisabled()).toBe(true);
    await screenshot(page, 'queue-bulk');
    await expectAccessible(page, 'queue with the bulk bar');
    await rowOf(page, blocked.reviewId).getByRole('checkbox').uncheck();
    await bar.getByText('3 selected', { exact: true }).waitFor();
    expect(await bar.getByRole('button', { name: 'Approve 3' }).isDisabled()).toBe(false);

    // Grace rejects the third while the bulk request is on its way: its compare-and-set loses, the others do not.
    await page.route('**/api/reviews/decisions', async (route) => {
      await rejectAsGrace(clean[2]!);
      await route.continue();
    });
    await bar.getByRole('button', { name: 'Approve 3' }).click();
    const results = page.getByTestId('bulk-results');
    await results.getByText('2 approved, 1 decided by someone else first').waitFor();
    expect(await results.locator('li[data-outcome="decided"]').count()).toBe(2);
    const lost = results.locator(`li[data-review-id="${clean[2]!.reviewId}"]`);
    expect(await lost.getAttribute('data-outcome')).toBe('conflict');
    expect(await lost.textContent()).toContain('Already decided by Grace Hopper (rejected)');
    for (const parked of clean) await rowOf(page, parked.reviewId).waitFor({ state: 'detached' });
    await rowOf(page, blocked.reviewId).waitFor();
    await screenshot(page, 'queue-bulk-results');
    await expectAccessible(page, 'queue with bulk results');
    // On a 390-wide phone the bar and its results wrap instead of widening the page.
    await page.setViewportSize({ width: 390, height: 844 });
    await rowOf(page, blocked.reviewId).getByRole('checkbox').check();
    await bar.getByText('1 selected', { exact: true }).waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await screenshot(page, 'queue-bulk-phone');

    const statuses = await Promise.all(clean.map(async (p) => (await env.read<RunState>(`/api/runs/${p.runId}/state`)).decisions.map((d) => `${d.action} by ${d.actor}`)));
    expect(statuses[0]).toEqual([expect.stringMatching(/^approve by reviewer:rv_/)]);
    expect(statuses[1]).toEqual([expect.stringMatching(/^approve by reviewer:rv_/)]);
    expect(statuses[2]).toEqual([`reject by reviewer:${grace.id}`]);
    await context.close();
  });

  it('snoozes a review out of the queue, shows it again with "include snoozed", and brings it back', async () => {
    const later = await park('a paper boat on a pond');
    const stays = await park('a city skyline at night');
    const { context, page } = await signedInPage(browser, env, { key: assignerKey });
    await rowOf(page, later.reviewId).getByRole('link').click();
    await page.getByRole('heading', { name: 'Why it stopped' }).waitFor();
    const notNow = page.getByTestId('not-now');
    await notNow.getByText('others still see it').waitFor();
    await notNow.getByRole('button', { name: '1 hour' }).click();

    await page.getByRole('heading', { name: 'Review queue' }).waitFor();
    await rowOf(page, stays.reviewId).waitFor();
    expect(await rowOf(page, later.reviewId).count()).toBe(0);
    // Grace still sees it: a snooze is one person's.
    const graceQueue = await (await fetch(`${env.baseUrl}/api/reviews/pending`, { headers: { authorization: `Bearer ${grace.key}` } })).json() as { items: { reviewId: string }[] };
    expect(graceQueue.items.map((i) => i.reviewId)).toContain(later.reviewId);

    await page.getByLabel('Include snoozed').check();
    const snoozed = rowOf(page, later.reviewId);
    await snoozed.getByText(/Snoozed until/).waitFor();
    await snoozed.getByRole('button', { name: 'Back now' }).click();
    await expect.poll(() => snoozed.getByText(/Snoozed until/).count()).toBe(0);
    await page.getByLabel('Include snoozed').uncheck();
    await rowOf(page, later.reviewId).waitFor();
    await context.close();
  });

  it('gives a review to someone else; the card and the queue show the assignee', async () => {
    const parked = await park('a lemon tree in a pot');
    const { context, page } = await signedInPage(browser, env, { key: assignerKey });
    await rowOf(page, parked.reviewId).getByRole('link').click();
    const panel = page.getByTestId('assign-panel');
    await expect.poll(() => panel.getByTestId('assigned-to').textContent()).toBe('nobody');
    await panel.getByLabel('Give it to').selectOption({ label: 'Grace Hopper (imaging)' });
    await panel.getByRole('button', { name: 'Assign' }).click();
    await expect.poll(() => panel.getByTestId('assigned-to').textContent()).toBe('Grace Hopper');
    await expectAccessible(page, 'card with assignment and not now');
    await screenshot(page, 'card-assign');

    const detail = await env.read<ReviewDetail>(`/api/reviews/${parked.reviewId}`);
    expect(detail.assignment?.assignedTo).toBe(grace.id);

    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Queue' }).click();
    await expect.poll(() => rowOf(page, parked.reviewId).getByTestId('assignee').textContent()).toContain('Grace Hopper');
    await context.close();
  });
});
