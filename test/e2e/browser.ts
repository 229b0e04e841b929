/**
 * Debian's Chromium driven by playwright-core (no downloaded browser: `npx playwright install` needs the
 * internet). scripts/ensure-chromium.sh installs the package when it is missing. Each launch gets a fresh
 * temporary profile (--user-data-dir) from Playwright, and the flags keep Chromium off the network.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.VETTED_CHROMIUM ?? '/usr/bin/chromium';

const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: run \`bash scripts/ensure-chromium.sh\` (apt-get install chromium), or set VETTED_CHROMIUM`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core's serious and critical violations on the page as it stands. Its source is evaluated through the
 * DevTools protocol, which the console's Content-Security-Policy (no inline scripts) does not apply to.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  // A string, run in the page: this file is type-checked for Node, without the DOM's globals.
  const violations = await page.evaluate<AxeViolation[]>(`axe.run(document, { resultTypes: ['violations'] }).then((result) =>
    result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })))`);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Where screenshots go during tests (gitignored); a good copy of each is committed in docs/console/. */
export const RESULTS_DIR = path.resolve(import.meta.dirname, '..', '..', 'test-results', 'console');

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
