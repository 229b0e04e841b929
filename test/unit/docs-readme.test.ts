/**
 * The README fits on a screen and points into the guide: at most 300 lines, the two quick-start commands exactly
 * as CI runs them, every guide page linked from it and from docs/README.md (the ordered index), and no Markdown
 * file speaks of the tracker instead of the behaviour.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownFiles, relative, relativeLinks, ROOT } from '../support/markdown-docs.ts';

const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const index = readFileSync(path.join(ROOT, 'docs/README.md'), 'utf8');
const guidePages = readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md') && name !== 'README.md');

/** Words that name the tracker rather than the behaviour: "seed 004", "issue 18", "(issue 2's design)", "stop 26". */
const TRACKER_WORDS = /\bseed 0\d\d\b|\bissues? #?\d+\b|\bstop #?\d+\b/i;

describe('the README', () => {
  it('is at most 300 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('starts with the two quick-start commands, the second exactly as CI runs it', () => {
    const ci = readFileSync(path.join(ROOT, '.ci/run'), 'utf8').split('\n').find((line) => line.startsWith('npm ci && npm test'));
    const block = /## Quick start\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1]?.split('\n').filter(Boolean) ?? [];
    expect(block).toHaveLength(2);
    expect(block[0]).toMatch(/^npm ci && npx vetted demo\b/);
    expect(block[1]).toBe(ci);
  });

  it('links every page of the guide, and the index links them in order', () => {
    const fromReadme = new Set(relativeLinks(readme).map((target) => target.split('#')[0]));
    const ordered = [...index.matchAll(/^\s*\d+\. \[[^\]]+\]\(([^)#]+)/gm)].map((match) => match[1]);
    for (const page of guidePages) {
      expect(fromReadme, `README.md links docs/${page}`).toContain(`docs/${page}`);
      expect(ordered, `docs/README.md lists ${page} in its numbered order`).toContain(page);
    }
    expect(ordered).toHaveLength(new Set(ordered).size);
  });
});

describe('tracker words', () => {
  it('the pattern catches the ways they were written, and not seeds of random generators', () => {
    for (const bad of ['(seed 000)', 'seed 004\'s metrics', 'target (issue 18)', "issue 2's design", 'stop 26']) {
      expect(bad).toMatch(TRACKER_WORDS);
    }
    for (const fine of ['npm run chaos -- --seed 2026', 'fast-check, seed 22', 'a red fox seed 42', 'the issues, the candidate', 'issue codes']) {
      expect(fine).not.toMatch(TRACKER_WORDS);
    }
  });

  it('no Markdown file names the tracker instead of the behaviour', () => {
    const found = markdownFiles().flatMap((file) =>
      readFileSync(file, 'utf8').split('\n').flatMap((line, at) => (TRACKER_WORDS.test(line) ? [`${relative(file)}:${at + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
