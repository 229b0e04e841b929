/**
 * Placement does not get worse: the labelled corpus (bench/placement/corpus) runs through dry-run's code path
 * with the default builder, and every figure — overall, per kind, per language — stays at or above its floor in
 * bench/placement/floors.json (silent drops at or below their ceiling). The scorer's own rules are pinned
 * below on hand-made outcomes, so a floor never rests on a scorer that miscounts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CorpusLine } from '../../bench/placement/corpus.ts';
import { loadCorpus } from '../../bench/placement/corpus.ts';
import { belowFloors, raiseFloors, readFloors } from '../../bench/placement/floors.ts';
import { scoreCorpus } from '../../bench/placement/run.ts';
import { figures, matches, report, scoreLine, type Outcome, type Report } from '../../bench/placement/score.ts';

describe('the placement figures', () => {
  let result: Report;
  beforeAll(async () => {
    result = report((await scoreCorpus(loadCorpus())).map((entry) => entry.score));
  }, 240_000);

  it('stay at or above their floors', () => {
    expect(belowFloors(result, readFloors())).toEqual([]);
  });
});

describe('the placement scorer', () => {
  const line: CorpusLine = {
    id: 'x',
    kind: 'explicit',
    lang: 'en',
    model: 'black-forest-labs/flux-schnell',
    request: { prompt: 'a fox, 16:9, png' },
    expect: { prompt: { contains: ['fox'], excludes: ['16:9'] }, aspect_ratio: '16:9', output_format: { oneOf: ['png'] }, seed: { absent: true } },
    source: 'test',
  };
  const outcome = (payload: Record<string, unknown>, extra: Partial<Outcome> = {}): Outcome => ({ payload, decision: 'execute', reportedUnplaced: false, ...extra });

  it('judges each matcher: literal, oneOf, contains/excludes (any case), file (also in a list)', () => {
    expect(matches(4, 4)).toBe(true);
    expect(matches(4, '4')).toBe(false);
    expect(matches({ oneOf: ['9:16', '2:3'] }, '2:3')).toBe(true);
    expect(matches({ contains: ['Fox'], excludes: ['png'] }, 'a red fox')).toBe(true);
    expect(matches({ contains: ['fox'], excludes: ['png'] }, 'a fox, png')).toBe(false);
    expect(matches({ file: 'https://x.test/a.png' }, ['https://x.test/a.png'])).toBe(true);
    expect(matches('png', undefined)).toBe(false);
  });

  it('counts every expected field right as exact, with nothing silently dropped', () => {
    const score = scoreLine(line, outcome({ prompt: 'a fox', aspect_ratio: '16:9', output_format: 'png' }));
    expect(score).toMatchObject({ asked: 3, askedRight: 3, settings: 2, settingsRight: 2, placed: 3, placedRight: 3, exact: true, silentDrops: 0 });
  });

  it('counts a missed setting as a silent drop only when the run executes without reporting it', () => {
    const missed = { prompt: 'a fox, 16:9', aspect_ratio: '1:1', output_format: 'webp' };
    expect(scoreLine(line, outcome(missed)).silentDrops).toBe(3);
    expect(scoreLine(line, outcome(missed, { reportedUnplaced: true })).silentDrops).toBe(0);
    expect(scoreLine(line, outcome(missed, { decision: 'awaiting_human' })).silentDrops).toBe(0);
  });

  it('does not count a schema default as placed, and counts an absent field set from the request as wrong', () => {
    const defaulted = scoreLine(line, outcome({ prompt: 'a fox', aspect_ratio: '1:1', output_format: 'webp', seed: 5 }, { defaulted: ['aspect_ratio', 'output_format', 'seed'] }));
    expect(defaulted).toMatchObject({ placed: 1, placedRight: 1, exact: false });
    const trapped = scoreLine(line, outcome({ prompt: 'a fox', aspect_ratio: '16:9', output_format: 'png', seed: 16 }));
    expect(trapped).toMatchObject({ placed: 4, placedRight: 3, exact: false });
  });

  it('counts an asked value put into a field nobody asked for as a wrong placement', () => {
    const score = scoreLine(line, outcome({ prompt: 'a fox', aspect_ratio: '16:9', output_format: 'png', megapixels: 'png' }));
    expect(score).toMatchObject({ placed: 4, placedRight: 3, exact: false });
  });

  it('adds lines up into ratios, and leaves a ratio with nothing to divide empty', () => {
    const traps = figures([scoreLine({ ...line, expect: { seed: { absent: true } } }, outcome({ prompt: 'a fox' }))]);
    expect(traps).toMatchObject({ lines: 1, asked: 0, recall: null, settingsRecall: null, precision: null, exactRate: 1, silentDropRate: null });
  });
});

describe('writing floors', () => {
  it('only raises floors and lowers ceilings', () => {
    const current = { overall: { recall: 50, silentDropRate: 40 }, byKind: {}, byLang: { es: { recall: 30 } } };
    const measured = { overall: { recall: 45, silentDropRate: 30 }, byKind: { trap: { exactRate: 90 } }, byLang: { es: { recall: 60 } } };
    expect(raiseFloors(current, measured)).toEqual({ overall: { recall: 50, silentDropRate: 30 }, byKind: { trap: { exactRate: 90 } }, byLang: { es: { recall: 60 } } });
  });
});
