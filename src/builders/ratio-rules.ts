/**
 * The aspect-ratio rules: a bare `16:9` standing apart from the description, and a ratio after the field's
 * name (`aspect ratio 16:9`, `aspect ratio of 9:16`, `--ar 16:9`). They read into an aspect-ratio field with
 * options (the value is the option the user named) and into a plain-string one (the value is the ratio as
 * written), so a ratio the user asked for never loses to the schema's default.
 */
import type { FieldSpec } from '../generated/contracts.ts';
import { anyWordPattern, readingWords } from '../reading/index.ts';
import { clauseEndsAt, makeDirective, windowBefore } from './clause-words.ts';
import { labelBelongsElsewhere, namedLabel } from './directive-rules.ts';
import type { Directive, DirectiveValue, RuleContext } from './directive-types.ts';
import { endsToken, findEnumMember, hasEnum } from './value-reading.ts';

const RATIO = /(?<![\p{L}\p{N}_:.])(\d{1,2}:\d{1,2})/gu;
/**
 * Words that introduce a bare ratio: `in 16:9`, `ratio 16:9`, `widescreen 16:9`, `portrait 9:16`. `ratio` is
 * taken out with the value (it says nothing about the picture); `widescreen`, `portrait`, `landscape` stay in
 * the prompt, where they still describe it.
 */
const RATIO_LEAD = /(?:^|[^\p{L}\p{N}_])(in|at|as|ratio|widescreen|portrait|landscape)\s+$/iu;
/** The same in every reading language: a lead into a ratio, or an aspect word the ratio spells out (`vertical 9:16`, `横長16:9`). */
let ratioLeads: RegExp | undefined;
function otherRatioLead(before: string): boolean {
  const words = readingWords().lists;
  ratioLeads ??= new RegExp(`${anyWordPattern([...words.resolutionLeads, ...words.portrait, ...words.landscape, ...words.widescreen, ...words.ultrawide, ...words.square])}\\s*$`, 'iu');
  return ratioLeads.test(before);
}

/**
 * After a led ratio, a conjunction (`in 16:9 and four variants`, `vertical 9:16 e em jpg`, `16:9にして`) joins the
 * next request: the ratio still ends its phrase. Hebrew and Arabic write `and` onto the next word (`ובפורמט`).
 */
const JOINS_NEXT_SETTING = /^\s*(?:(?:and|y|e|et|und|и)\s|[\u05D5\u0648](?=\p{L})|に)/u;
/** `16:9にして`, `16:9に変更`: Japanese says "make it" after the value, which leads it as well as `in 16:9` does. */
const MADE_SO = /^\s*に(?:して|する|変更|変えて)/u;

/**
 * A plain-string field has no options to check a bare ratio against, so only ratios image tools commonly
 * offer count there: a bare `10:30` or `3:1` is more likely a time or a score than a picture shape.
 */
const COMMON_RATIOS: ReadonlySet<string> = new Set(['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3', '5:4', '4:5', '21:9', '9:21', '2:1', '1:2']);

/** After the label: `=` or `:` (group 1, an assignment), ` is `, ` to `, ` of `, or a space. */
const LABEL_SEPARATOR = /\s*([=:])\s*|\s+(?:is|to|of)\s+|[ \t]+/iy;
const NAMED_RATIO = /(\d{1,2}):(\d{1,2})/y;

/**
 * A bare `16:9`, standing apart from the description (`a fox, 16:9`, `a fox in 16:9`), so `a 1:1 scale model`
 * keeps its words. It must be one of the field's options, or, for a plain-string field, a common ratio.
 */
export function ratioRule(context: RuleContext): Directive[] {
  const field = context.primary.get('aspect_ratio');
  if (!field || !isRatioField(field)) return [];
  const found: Directive[] = [];
  for (const match of context.text.matchAll(RATIO)) {
    const end = match.index + match[0].length;
    const value = bareRatioValue(field, match[0]);
    if (value === undefined || !endsToken(context.text, end)) continue;
    const before = windowBefore(context.text, match.index);
    const lead = RATIO_LEAD.exec(before);
    const after = context.text.slice(end);
    const led = ((lead !== null || otherRatioLead(before)) && (clauseEndsAt(context.text, end) || JOINS_NEXT_SETTING.test(after))) || MADE_SO.test(after);
    const start = led && lead !== null && lead[1]?.toLowerCase() === 'ratio' ? match.index - (before.length - before.toLowerCase().lastIndexOf('ratio')) : match.index;
    const ratio = makeDirective(context.text, start, end, 'loose', 'ratio', [{ field: field.name, value, fit: 'ok' }]);
    found.push({ ...ratio, needsOwnClause: !led });
  }
  return found;
}

/**
 * `aspect ratio 16:9`, `aspect ratio: 16:9`, `--ar 16:9`, `aspect ratio of 9:16`: a W:H ratio (both sides
 * positive) right after the field's name. The name makes the intent plain, so a ratio that is not one of the
 * options is kept as written (fit `not_an_option`) for the validator to flag.
 */
export function namedRatioRule(context: RuleContext): Directive[] {
  const field = context.primary.get('aspect_ratio');
  if (!field || !isRatioField(field)) return [];
  const found: Directive[] = [];
  for (const match of context.text.matchAll(namedLabel(field, true))) {
    if (labelBelongsElsewhere(context, field, match)) continue;
    const directive = readNamedRatio(context.text, match, field);
    if (directive) found.push(directive);
  }
  return found;
}

function readNamedRatio(text: string, match: RegExpExecArray, field: FieldSpec): Directive | null {
  const labelEnd = match.index + match[0].length;
  LABEL_SEPARATOR.lastIndex = labelEnd;
  const separator = LABEL_SEPARATOR.exec(text);
  if (!separator) return null;
  const at = labelEnd + separator[0].length;
  NAMED_RATIO.lastIndex = at;
  const ratio = NAMED_RATIO.exec(text);
  if (!ratio || Number(ratio[1]) === 0 || Number(ratio[2]) === 0) return null;
  const end = at + ratio[0].length;
  if (!endsToken(text, end)) return null;
  const assigned = match[1] !== undefined || separator[1] !== undefined;
  // `ar` and `aspect` are also ordinary words; without `=`, `:` or `--` they count only when the ratio ends the clause.
  const oneWord = !/[\s_-]/.test(match[2] ?? '');
  if (!assigned && oneWord && !clauseEndsAt(text, end)) return null;
  return makeDirective(text, match.index, end, assigned ? 'assign' : 'named', 'ratio', [namedRatioValue(field, ratio[0])]);
}

/** String fields only: an integer `aspect_ratio` (a width-over-height number) is read like any number. */
function isRatioField(field: FieldSpec): boolean {
  return field.type === 'string';
}

function bareRatioValue(field: FieldSpec, written: string): unknown {
  if (hasEnum(field)) return findEnumMember(field, written);
  return COMMON_RATIOS.has(written) ? written : undefined;
}

function namedRatioValue(field: FieldSpec, written: string): DirectiveValue {
  if (!hasEnum(field)) return { field: field.name, value: written, fit: 'ok' };
  const member = findEnumMember(field, written);
  return member === undefined ? { field: field.name, value: written, fit: 'not_an_option' } : { field: field.name, value: member, fit: 'ok' };
}
