/**
 * The product speaks of itself: no code, comment, schema, example or test names the tracker ("seed 004",
 * "issue 18", "stop 26", "must-have 3", a branch's "wave/…") instead of the behaviour it means ("the MCP failure
 * shapes", "the review round trip"). The Markdown has its own check (docs-readme.test.ts); this one reads every
 * source and data file a newcomer opens, so a new comment that cites the tracker fails here with its file and line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Where the product's own text lives (the Markdown is docs-readme.test.ts's). */
const SCANNED = ['src', 'api', 'workers', 'console/src', 'test', 'scripts', 'bench', 'chaos', 'schemas', 'examples', 'clients/typescript/src', 'docs'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'test-results', 'coverage']);
const TEXT_FILE = /\.(ts|tsx|js|mjs|cjs|json|jsonl|sh|ya?ml|html|css|svg|sql)$/;
/** The two tests that must spell tracker words out to prove their patterns catch them. */
const PATTERN_TESTS = new Set(['test/unit/tracker-words.test.ts', 'test/unit/docs-readme.test.ts']);

/**
 * "seed 000" to "seed 099" (the product documents were numbered so; a prompt's `seed 42` is a setting, not a
 * tracker word), "issue 18" and "issue #18", "stop 26", "must-have", "wave 3" and a "wave/" branch name.
 */
const TRACKER_WORDS = /\bseed 0\d\d\b|\bissues? #?\d+\b|\bstop #?\d+\b|\bmust-haves?\b|\bwaves? \d+\b|\bwave\//i;

function filesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) found.push(...filesUnder(full));
    } else if (TEXT_FILE.test(entry.name)) {
      found.push(full);
    }
  }
  return found;
}

describe('tracker words in code and data', () => {
  it('the pattern catches the ways they were written, and leaves ordinary words and prompt settings alone', () => {
    for (const bad of ["seed 004's failure shapes", '(seed 000, §4)', 'Informational since issue 18.', 'issue #7', 'stop 26', 'must-have 3', 'wave 2', 'branch wave/arch-names']) {
      expect(bad).toMatch(TRACKER_WORDS);
    }
    for (const fine of ['a red fox seed 42', 'seed 500', '--seed 2026', 'a wave crashing, 10 seconds', 'retries do not arrive in one wave', 'the issues, the candidate', 'issue codes']) {
      expect(fine).not.toMatch(TRACKER_WORDS);
    }
  });

  it('no source, schema, example or test file names the tracker instead of the behaviour', () => {
    const found = SCANNED.flatMap((dir) => filesUnder(path.join(ROOT, dir)))
      .map((file) => path.relative(ROOT, file).split(path.sep).join('/'))
      .filter((file) => !PATTERN_TESTS.has(file))
      .flatMap((file) =>
        readFileSync(path.join(ROOT, file), 'utf8').split('\n').flatMap((line, at) => (TRACKER_WORDS.test(line) ? [`${file}:${at + 1}: ${line.trim().slice(0, 160)}`] : [])),
      );
    expect(found).toEqual([]);
  });
});
