/**
 * Review tasks in the console, in Debian's Chromium: a task an agent escalates (low confidence, high impact:
 * it waits) is on the Tasks page with the pending count in the nav; the reviewer opens it by its link, as a
 * notification would (`/console/tasks/<id>`, signing in first), rejects it with notes, sees the banner, and the
 * API reads it back rejected under the reviewer's name; axe-core finds no serious violation on either page.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewTask } from '../../console/src/api/types.ts';
import { launchChromium, screenshot } from './browser.ts';
import { expectAccessible, signedInPage } from './console-pages.ts';
import { startConsoleSystem, type ConsoleSystem } from './console-system.ts';

const example = (name: string): Record<string, unknown> => JSON.parse(readFileSync(resolve(import.meta.dirname, '../../examples/tasks', name), 'utf8')) as Record<string, unknown>;

let env: ConsoleSystem;
let browser: Browser;

beforeAll(async () => {
  [env, browser] = await Promise.all([startConsoleSystem(), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await env?.close();
});

describe('review tasks in the console', () => {
  it('lists a waiting task, opens it by its link, rejects it with notes, and the API reads it back rejected by the reviewer', async () => {
    // Low confidence, high impact: waits for a person. Then a medium-confidence one (waits too), and a routine
    // one the routing policy approves at once (high confidence, normal impact).
    const taskId = await env.submitTask(example('lgv-drive-fault.json'));
    const routine = example('lgv-battery-routine.json');
    const later = await env.submitTask({ ...routine, confidence: 'medium', whyEscalated: 'Medium confidence: the charge logs for the last week are missing.', missingInformation: ['charge logs since Monday'] });
    await env.submitTask(routine);
    expect((await env.read<ReviewTask>(`/api/tasks/${taskId}`)).status).toBe('pending');

    const list = await signedInPage(browser, env);
    await list.page.getByRole('link', { name: /^Tasks/ }).click();
    await list.page.getByRole('heading', { name: 'Review tasks' }).waitFor();
    await list.page.locator(`tr[data-task-id="${taskId}"]`).waitFor();
    // The queue's order: the oldest pending first.
    expect(await list.page.locator('table.task-table tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-task-id')))).toEqual([taskId, later]);
    expect(await list.page.getByTestId('nav-pending-tasks').textContent()).toBe(', pending: 2');
    expect(await list.page.getByTestId('tasks-approved').textContent()).toBe('1');
    await screenshot(list.page, 'tasks');
    await expectAccessible(list.page, 'tasks');
    // The queue's keys: j and k move, Enter opens the selected row (here the oldest).
    await list.page.keyboard.press('?');
    await list.page.getByRole('heading', { name: 'Keyboard shortcuts' }).waitFor();
    await list.page.keyboard.press('Escape');
    await list.page.keyboard.press('j');
    expect(await list.page.locator('tr[aria-selected="true"]').getAttribute('data-task-id')).toBe(later);
    await list.page.keyboard.press('k');
    await list.page.keyboard.press('Enter');
    await list.page.getByRole('heading', { name: 'Why it was escalated' }).waitFor();
    expect(list.page.url()).toBe(`${env.baseUrl}/console/tasks/${taskId}`);
    await list.context.close();

    // A notification's link opens a fresh page: sign in, and the task is there.
    const { context, page } = await signedInPage(browser, env, { path: `/console/tasks/${taskId}`, heading: 'lgv-troubleshooting' });
    await page.getByText('Marker C-14', { exact: false }).first().waitFor();
    expect(await page.getByTestId('nav-pending-tasks').textContent()).toBe(', pending: 2');
    await page.getByRole('button', { name: 'As a form' }).click();
    expect(await page.locator('#task_issue_lgv_id').inputValue()).toBe('LGV-07');
    expect(await page.locator('#task_issue_lgv_id').getAttribute('readonly')).not.toBeNull();
    await screenshot(page, 'task-form');
    await page.getByRole('button', { name: 'Readable' }).click();
    await screenshot(page, 'task');
    await expectAccessible(page, 'task (pending)');

    // No notes: the API refuses naming the field, and the page says so at the field.
    await page.getByRole('button', { name: 'Reject' }).click();
    await page.getByText('Write a short note on why').waitFor();
    await page.getByLabel(/^Notes/).fill('Check the drive current logs first: taking LGV-07 off the loop costs a shift.');
    await page.getByRole('button', { name: 'Reject' }).click();
    await page.getByTestId('task-confirmation').waitFor();
    expect(await page.getByTestId('task-confirmation').textContent()).toContain('Rejected');
    expect(await page.getByTestId('task-status').textContent()).toBe('Rejected');
    expect(await page.getByTestId('task-review').textContent()).toContain('Ada Lovelace');
    await expect.poll(() => page.getByTestId('nav-pending-tasks').textContent()).toBe(', pending: 1');
    // The banner goes on to the task still waiting.
    expect(await page.getByRole('link', { name: 'Next pending task' }).getAttribute('href')).toBe(`/console/tasks/${later}`);
    await screenshot(page, 'task-decided');
    await expectAccessible(page, 'task (rejected)');

    const task = await env.read<ReviewTask>(`/api/tasks/${taskId}`);
    expect(task).toMatchObject({
      status: 'rejected',
      review: { decision: 'rejected', notes: 'Check the drive current logs first: taking LGV-07 off the loop costs a shift.', operator: { name: 'Ada Lovelace', role: 'reviewer', team: 'imaging' }, actor: expect.stringMatching(/^reviewer:rv_/) },
    });
    await context.close();
  });

  it('reads on a 390-wide phone: nothing sideways', async () => {
    const taskId = await env.submitTask({ ...example('lgv-drive-fault.json'), requestKey: 'phone-check' });
    const phone = await signedInPage(browser, env, { path: `/console/tasks/${taskId}`, heading: 'lgv-troubleshooting', width: 390, height: 844 });
    await phone.page.getByRole('heading', { name: 'Confidence × impact' }).waitFor();
    expect(await phone.page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await screenshot(phone.page, 'task-phone');
    await phone.context.close();
  });
});
