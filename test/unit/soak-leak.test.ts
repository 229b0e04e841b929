/**
 * The soak's leak checks: a steady climb is a leak, a step that levels off and noise are not, and the warm-up
 * is left out. Samples are made up, so each case is exact.
 */
import { describe, expect, it } from 'vitest';
import { fitLine, judgeGrowth, type Sample } from '../../chaos/leak.ts';

const series = (values: number[]): Sample[] => values.map((value, minute) => ({ minute, value }));
const rule = { name: 'API RSS (MB)', allowancePerHour: 20 };

describe('fitLine', () => {
  it('finds the slope per hour and a perfect fit of a straight line', () => {
    const fit = fitLine(series([100, 101, 102, 103]));
    expect(fit.slopePerHour).toBeCloseTo(60);
    expect(fit.r2).toBeCloseTo(1);
  });

  it('is flat for a flat or a single sample', () => {
    expect(fitLine(series([5, 5, 5])).slopePerHour).toBe(0);
    expect(fitLine(series([5])).slopePerHour).toBe(0);
  });
});

describe('judgeGrowth', () => {
  it('calls a steady climb past the allowance a leak', () => {
    const finding = judgeGrowth(rule, series([100, 101, 102, 103, 104, 105, 106, 107]), 0);
    expect(finding.leaking).toBe(true);
    expect(finding.why).toContain('steady climb');
  });

  it('does not call a climb within the allowance a leak', () => {
    expect(judgeGrowth(rule, series([100, 100.1, 100.2, 100.3, 100.4, 100.5]), 0).leaking).toBe(false);
  });

  it('does not call a step that levels off a leak, nor noise', () => {
    expect(judgeGrowth(rule, series([100, 100, 100, 140, 140, 140, 140, 140, 140, 140, 140, 140]), 0).leaking).toBe(false);
    expect(judgeGrowth(rule, series([100, 130, 95, 125, 100, 128, 97, 126]), 0).leaking).toBe(false);
  });

  it('leaves out the warm-up, and judges nothing with too few samples', () => {
    // A fast climb in the first 3 minutes, flat after.
    expect(judgeGrowth(rule, series([50, 80, 110, 120, 120, 120, 120, 120]), 3).leaking).toBe(false);
    expect(judgeGrowth(rule, series([100, 200, 300]), 0).why).toContain('not judged');
  });
});
