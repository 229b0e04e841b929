/**
 * Sizes written in words rather than as `768x512`: `768 by 512`, `1024 на 1024`, `832 על 1216` (width first, as
 * `768x512`), and a width and a height each said by the word after its number, in either order: `768 wide by
 * 512 tall`, `512 breit und 768 hoch`, `768 de ancho por 512 de alto`, `768 tall by 1024 wide`. The words are
 * data (src/reading/words/quantities.json); the numbers are the user's digits, so they need no conversion.
 */
import type { FieldSpec } from '../generated/contracts.ts';
import { anyWordPattern, quantityWords } from '../reading/index.ts';
import { clauseEndsAt, isNumeric, makeDirective, windowBefore } from './clause-words.ts';
import type { Directive, DirectiveValue, RuleContext } from './directive-types.ts';
import { fitOf } from './value-reading.ts';

/** Sizes are written in two to five digits: `4 by 4` is a truck, not a picture's size. */
const SIDE = '(?<![\\p{N}.,])(\\d{2,5})(?![\\p{N}])';
const ARTICLE_BEFORE = /(?:^|[^\p{L}\p{N}_])(?:a|an|the|my|this|that|one)\s+$/iu;

let joinedPattern: RegExp | undefined;
let sidePattern: RegExp | undefined;

/** `768 by 512`: width then height, joined by a word that says "by". */
function joined(): RegExp {
  joinedPattern ??= new RegExp(`${SIDE}\\s*(?:${anyWordPattern(quantityWords().sizeJoins)})\\s*${SIDE}`, 'giu');
  return joinedPattern;
}

/** `768 wide`, `512 de alto`: one side, named by the word after its number. */
function side(): RegExp {
  const words = quantityWords();
  sidePattern ??= new RegExp(`${SIDE}\\s*(?:(?<width>${anyWordPattern(words.widthWords)})|(?<height>${anyWordPattern(words.heightWords)}))`, 'giu');
  return sidePattern;
}

function sideValue(field: FieldSpec, value: number): DirectiveValue {
  return { field: field.name, value, fit: fitOf(field, value) };
}

export function wordSizeRule(context: RuleContext): Directive[] {
  const width = context.primary.get('width');
  const height = context.primary.get('height');
  if (!width || !height || !isNumeric(width) || !isNumeric(height)) return [];
  const found: Directive[] = [];
  for (const match of context.text.matchAll(joined())) {
    const end = match.index + match[0].length;
    // `a 2 by 4 plank`, `the 1920 by 1080 monitor on a desk`: an article before and a word after make it content.
    if (ARTICLE_BEFORE.test(windowBefore(context.text, match.index)) && !clauseEndsAt(context.text, end)) continue;
    const [w, h] = [Number(match[1]), Number(match[2])];
    found.push(makeDirective(context.text, match.index, end, 'named', 'size', [sideValue(width, w), sideValue(height, h)]));
  }
  const sides = [...context.text.matchAll(side())];
  for (const [index, match] of sides.entries()) {
    const field = match.groups?.width !== undefined ? width : height;
    const value = Number(match[1]);
    const single = makeDirective(context.text, match.index, match.index + match[0].length, 'loose', 'size', [sideValue(field, value)]);
    // A side alone counts in a clause of its own (`, 768 wide,`); `a wall 300 high` stays the picture's.
    found.push({ ...single, needsOwnClause: true });
    const next = sides[index + 1];
    if (next === undefined || (next.groups?.width !== undefined) === (match.groups?.width !== undefined)) continue;
    const between = context.text.slice(match.index + match[0].length, next.index);
    if (!/^[\s,]*(?:\p{L}{1,4}[\s,]*)?$/u.test(between)) continue;
    // Both sides joined by at most one short word (`by`, `por`, `und`, `x`): one phrase, a size wherever it stands.
    const other = next.groups?.width !== undefined ? width : height;
    const pair = makeDirective(context.text, match.index, next.index + next[0].length, 'named', 'size', [sideValue(field, value), sideValue(other, Number(next[1]))]);
    found.push(pair);
  }
  return found;
}
