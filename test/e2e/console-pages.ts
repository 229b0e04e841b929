/**
 * What every console scenario does with a page: open a context, sign in as the reviewer (on the queue, or on a
 * deep link as a notification would open it: the key is in memory only, so a fresh page signs in first), and
 * ask axe-core for serious violations.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { seriousViolations } from './browser.ts';
import type { ConsoleSystem } from './console-system.ts';

export interface SignInOptions {
  /** Install Playwright's fake clock in the page before it loads. */
  clock?: boolean;
  width?: number;
  height?: number;
  /** The console path to open (default the queue, `/console/`). */
  path?: string;
  /** The heading that says the page is up once signed in (default the queue's). */
  heading?: string | RegExp;
  /** The key to sign in with (default the reviewer's). */
  key?: string;
}

export async function signedInPage(browser: Browser, env: ConsoleSystem, options: SignInOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 800 } });
  const page = await context.newPage();
  // Fake timers in the page (Playwright's clock): the countdown runs on them, so the test moves time itself.
  if (options.clock) await page.clock.install();
  await page.goto(`${env.baseUrl}${options.path ?? '/console/'}`);
  await page.getByLabel('API key').fill(options.key ?? env.keys.reviewer);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: options.heading ?? 'Review queue' }).waitFor();
  return { context, page };
}

export async function expectAccessible(page: Page, name: string): Promise<void> {
  const violations = await seriousViolations(page);
  expect(violations, `${name}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
}

/** Goes to a console path inside the app (no reload, which would sign the reviewer out). */
export async function openInApp(page: Page, path: string): Promise<void> {
  await page.evaluate(`history.pushState(null, '', ${JSON.stringify(path)}); dispatchEvent(new PopStateEvent('popstate'))`);
}
