/**
 * Which numbers say where they came from. Everyday numbers (counts, steps, sizes, round values, simple
 * fractions) turn up in any request and any schema; a distinctive one (a seed like 918273645, a scale like
 * 0.37) found where an example put it was most likely copied from that example. The leak firewall and the
 * extractor's prose redaction share this rule.
 */

/** Integers of this magnitude or less are everyday numbers (counts, steps, small seeds, quality). */
export const COMMON_INTEGER_MAX = 100;
/** Multiples of 8 up to this are image and video dimensions. */
export const IMAGE_DIMENSION_MAX = 4096;
/** Integers that are multiples of this are round (150, 1000, 2500). */
export const ROUND_INTEGER_STEP = 50;
/** Fractions that are multiples of this are everyday settings (0.05, 0.5, 0.8, 7.5). */
export const COMMON_FRACTION_STEP = 0.05;

/** A number written as a word of a text: not part of a longer word, a version (`v1.5`) or a decimal. */
export const EMBEDDED_NUMERAL = /(?<![\p{L}\p{N}_.])-?\d+(?:\.\d+)?(?![\p{L}\p{N}_]|\.\d)/gu;

/** True for a number worth flagging even when it sits at a different path than in the example. */
export function isDistinctiveNumber(value: number): boolean {
  if (!Number.isFinite(value)) return false;
  const magnitude = Math.abs(value);
  if (Number.isInteger(magnitude)) {
    if (magnitude <= COMMON_INTEGER_MAX) return false;
    if (isPowerOfTwo(magnitude) || isPowerOfTwo(magnitude + 1)) return false;
    if (magnitude % 8 === 0 && magnitude <= IMAGE_DIMENSION_MAX) return false;
    return magnitude % ROUND_INTEGER_STEP !== 0;
  }
  return !isNearInteger(magnitude / COMMON_FRACTION_STEP) && !isNearInteger(Math.log10(magnitude));
}

function isPowerOfTwo(n: number): boolean {
  if (!Number.isSafeInteger(n) || n < 1) return false;
  let rest = n;
  while (rest % 2 === 0) rest /= 2;
  return rest === 1;
}

function isNearInteger(n: number): boolean {
  return Math.abs(n - Math.round(n)) < 1e-9;
}
