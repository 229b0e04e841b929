/**
 * Finds the explicit values a user wrote in the prompt (`seed=42`, `768x512`, `--ar 16:9`, `4 images`,
 * `negative prompt: blurry`) and says which phrases the prompt should lose. Pure: text and schema in,
 * values with their phrases out. Overlaps are settled by strength (assign > named > loose), then length,
 * then position; a field written twice takes its strongest phrase, and the later one on a tie.
 */
import type { FieldRole, FieldSpec, ModelSchema, UnusedRequest } from '../generated/contracts.ts';
import { isFillerOnly } from './clause-words.ts';
import {
  formatRule,
  labelBelongsElsewhere,
  namedLabel,
  namedValueRule,
  optionThenNameRule,
  sizeRule,
} from './directive-rules.ts';
import { EXCLUSION_RULE, exclusionDirectives } from './exclusion-rule.ts';
import { findInstructionLead } from './instruction-prefix.ts';
import { findLeftovers } from './leftover-notes.ts';
import { partialNameRule } from './partial-names.ts';
import { countRule, multipleRule, scaleRule, stepsRule, toggleRule, translateRule, translateSwitch, translationTarget } from './phrase-rules.ts';
import { findRequestPhrases, requestTableRule, unplacedReason } from './request-table.ts';
import { stopRule } from './stop-rule.ts';
import { namedRatioRule, ratioRule } from './ratio-rules.ts';
import { foldDigits, isAskedAbout, shownTextSpans, webAddressSpans } from '../reading/index.ts';
import { READING_RULE_PREFIX, readingConversion, readingRule, unplacedSettings, type KeptOption } from './reading-rule.ts';
import { presetSizeOf, presetSizeValues, withoutLoneSides, type PresetSize } from './size-presets.ts';
import { wordSizeRule } from './size-rules.ts';
import { FORM_RANK, overlaps, type Directive, type RuleContext, type ScannedValue, type Span } from './directive-types.ts';
import {
  compareText,
  fieldNames,
  mediaKindOfField,
  orderedFields,
  phrasePattern,
  primaryFieldForRole,
  requestTextField,
} from './field-vocabulary.ts';
import { fieldPattern } from './pattern-cache.ts';
import { captureText, findCaptureLabels } from './text-capture.ts';
import { hasEnum, isTypedField } from './value-reading.ts';

export type { Directive, DirectiveForm, ScannedValue, Span } from './directive-types.ts';


/** What the prompt says explicitly, and what it must lose. */
export interface DirectiveScan {
  /** One entry per field, in the order the fields were first written. */
  values: ScannedValue[];
  /** Every accepted phrase, in text order. */
  directives: Directive[];
  /** Spans the prompt loses: the accepted phrases and a leading `prompt:` label. */
  cuts: Span[];
  /** Fields the user assigned a value of the wrong type (`seed: random`): nothing set, the phrase kept. */
  refused: string[];
  /** Request phrases the table recognises (request-table.ts) that no field took, with why. */
  unused: UnusedRequest[];
  /** Options named bare in words the prompt keeps: unplaced only if those words never reach the prompt. */
  keptInText?: KeptOption[];
  notes: string[];
}

/**
 * Roles the rules never read from the prompt's words: secrets come from people, files from attachments, and a
 * system prompt only from text the user labels as one or an opening sentence casting the model in a role
 * (text-capture.ts), never from anything else.
 */
const NEVER_FROM_TEXT = new Set<FieldRole>(['secret', 'system_prompt']);

const RULES = [namedValueRule, namedRatioRule, sizeRule, wordSizeRule, ratioRule, countRule, stepsRule, formatRule, optionThenNameRule, toggleRule, scaleRule, multipleRule, translateRule, requestTableRule, readingRule, partialNameRule, stopRule];

/** How the text stands in the request. */
export interface ScanOptions {
  /** The text is a later turn of a conversation, not the request's opening words. */
  laterTurn?: boolean;
  /**
   * Fields the user's earlier turns set. In a later turn a number for one of them changes it wherever it stands
   * (`go 4x`, `use 50 steps and the longest length`, `now 30 fps`): the conversation already made it a setting.
   */
  earlierFields?: ReadonlySet<string>;
}

/**
 * Scans the prompt for explicit values for the schema's fields. Never reads secrets, system prompts or file
 * fields (a labelled secret is only cut, see text-capture.ts). Deterministic.
 */
export function scanPromptDirectives(text: string, schema: ModelSchema, options: ScanOptions = {}): DirectiveScan {
  const { context, size } = ruleContext(text, schema);
  // `seed ٤٢`, `١٦:٩`, `４枚`: the rules read digits of every script as ASCII; the phrases cited stay as written.
  const digits = foldDigits(text);
  const readContext = digits === text ? context : { ...context, text: digits };
  const read = withoutLoneSides(RULES.flatMap((rule) => rule(readContext)), size);
  const candidates = withWrittenDigits(withoutTranslationTarget(read, context), text, digits);
  const breaks = clauseBreaks(text);
  const byStart = new SpanIndex(candidates);
  const ownBreaks = ownClauseBreaks(text, breaks, candidates);
  // Quoted text and text to show (`a sign that reads PNG ONLY`) are the picture's words, never settings.
  const quoted = [...quotedSpans(text), ...shownTextSpans(text)];
  // A web address is a file's name, whole (`…/logo.png` is no output format).
  const addresses = webAddressSpans(text);
  const inAddress = (span: Span) => addresses.some((address) => address.start <= span.start && span.end <= address.end);
  const eligible = candidates.filter(
    (candidate) =>
      !insideQuotes(candidate, quoted) &&
      !inAddress(candidate) &&
      !isAskedAbout(text, candidate.start) &&
      (!candidate.needsOwnClause || changesEarlierNumber(candidate, options) || inOwnClause(text, ownBreaks, candidate, byStart)),
  );
  const captured = addCaptures(context, breaks, resolveOverlaps(eligible));
  // `…, nothing blurry`: what is left out goes to the negative prompt, unless another rule took the clause.
  const accepted = [...captured, ...exclusionDirectives(context, captured, [...quoted, ...addresses], options.laterTurn)].sort((a, b) => a.start - b.start);
  const cuts: Span[] = accepted.filter((directive) => !directive.keepInPrompt).map(({ start, end }) => ({ start, end }));
  const label = promptLabel(text, context.primary.get('prompt'));
  if (label && !cuts.some((cut) => overlaps(cut, label))) cuts.push(label);
  // `read this slowly: Welcome home`: the lead-in's settings are read above; the content is what follows it.
  const lead = findInstructionLead(text, cuts, quoted);
  if (lead) cuts.push(...lead.spans);
  // A size field with presets was read through stand-ins (size-presets.ts): their values become its own.
  const sized = presetSizeValues(chooseValues(accepted), size);
  const values = sized.values;
  const refused = refusedAssignments(text, accepted, context);
  const leftovers = findLeftovers(text, accepted, context);
  const notes = [
    ...values.flatMap((value) => valueNotes(value, schema)),
    ...sized.notes,
    ...accepted.flatMap((directive) => (directive.withheld ? [secretNote(directive.withheld)] : [])),
    ...leftovers.map((leftover) => leftover.note),
    ...refused.map(({ field, phrase, expected }) => `"${phrase}" is not a valid value for ${field} (${expected}); left in the prompt`),
  ];
  const refusedFields = [...new Set(refused.map(({ field }) => field))];
  const readable = [...context.typedFields, ...context.textFields];
  const tablePhrases = findRequestPhrases(text).filter((found) => !accepted.some((taken) => overlaps(taken, found)) && !insideQuotes(found, quoted) && !inAddress(found));
  const settings = unplacedSettings(text, accepted, quoted, tablePhrases, context.typedFields, context.primary.has('prompt'));
  const unused = tablePhrases
    .map((found) => ({ phrase: found.phrase, reason: unplacedReason(found, readable) }))
    .concat(leftovers.map(({ phrase, reason }) => ({ phrase, reason })))
    .concat(settings.unused)
    .concat(lead?.unused ?? [])
    // `100 epochs` is a setting's name with its value and a number of a unit: said once, reported once.
    .filter((item, index, all) => all.findIndex((other) => other.phrase === item.phrase) === index);
  return { values, directives: accepted, cuts: cuts.sort((a, b) => a.start - b.start), refused: refusedFields, unused, keptInText: settings.keptInText, notes };
}

/** A later turn's number for a field the user set before: a change of that setting, not picture content. */
function changesEarlierNumber(candidate: Directive, options: ScanOptions): boolean {
  const earlier = options.earlierFields;
  if (!options.laterTurn || !earlier || candidate.values.length === 0) return false;
  return candidate.values.every((value) => earlier.has(value.field) && typeof value.value === 'number');
}

/**
 * The candidates read from the text with its digits folded, with their phrases as the user wrote them. A value
 * read from digits of another script records the conversion that gives it (`native_digits`), unless its rule
 * records one already (those read every script's digits too), so the validator re-derives it from the user's words.
 */
function withWrittenDigits(candidates: Directive[], text: string, digits: string): Directive[] {
  if (digits === text) return candidates;
  return candidates.map((candidate) => {
    const at = digits.indexOf(candidate.phrase, candidate.start);
    if (at === -1) return candidate;
    const phrase = text.slice(at, at + candidate.phrase.length);
    if (phrase === candidate.phrase) return candidate;
    const rule = readingConversion(candidate.rule) === undefined ? `${READING_RULE_PREFIX}native_digits` : candidate.rule;
    return { ...candidate, phrase, rule };
  });
}

/**
 * `translate this German podcast into English`: with the switch on, the language the translation goes into is
 * the switch's, not the recording's, so a reading of it never sets the source-language field.
 */
function withoutTranslationTarget(candidates: Directive[], context: RuleContext): Directive[] {
  const field = translateSwitch(context);
  const target = field && translationTarget(field);
  if (!target || !candidates.some((candidate) => candidate.rule === 'translate')) return candidates;
  return candidates.filter((candidate) => !candidate.values.some((value) => value.field !== field.name && value.value === target && /language/.test(candidate.rule)));
}

/** `a sign reading "width 768"`: quoted text (double, curly, single or 「」) is the picture's, never a setting. */
function quotedSpans(text: string): Span[] {
  // An opening `"` starts a word: `27"` is an inch mark, not a quotation.
  return [...text.matchAll(/(?<![\p{L}\p{N}])"[^"\n]*"|\u201C[^\u201D\n]*\u201D|\u300C[^\u300D\n]*\u300D|(?<![\p{L}\p{N}])'[^'\n]+'(?![\p{L}\p{N}])/gu)].map((match) => ({ start: match.index, end: match.index + match[0].length }));
}

function insideQuotes(candidate: Span, quoted: readonly Span[]): boolean {
  return quoted.some((span) => span.start < candidate.start && candidate.end < span.end);
}

function ruleContext(text: string, schema: ModelSchema): { context: RuleContext; size: PresetSize | undefined } {
  const fields = orderedFields(schema);
  const primary = new Map<FieldRole, FieldSpec>();
  for (const field of fields) {
    if (!primary.has(field.role)) primary.set(field.role, primaryFieldForRole(fields, field.role) ?? field);
  }
  const promptField = requestTextField(fields);
  if (promptField) primary.set('prompt', promptField);
  else primary.delete('prompt');
  const readable = fields.filter(
    (field) => !NEVER_FROM_TEXT.has(field.role) && field !== promptField && mediaKindOfField(field, schema) === null,
  );
  const size = presetSizeOf(schema, fields, primary);
  if (size) {
    primary.set('aspect_ratio', size.aspect);
    if (size.sides) primary.set('width', size.sides.width).set('height', size.sides.height);
  }
  const context: RuleContext = {
    text,
    typedFields: [...readable.filter(isTypedField), ...(size ? [size.aspect] : [])],
    textFields: readable.filter((field) => field.type === 'string' && !hasEnum(field)),
    secretFields: fields.filter((field) => field.role === 'secret'),
    systemFields: fields.filter((field) => field.role === 'system_prompt' && field.type === 'string' && !hasEnum(field)),
    primary,
    // Only needed for leftovers (an unconsumed `--flag` or `seed=42`) and label checks, so computed on demand.
    isKnownName: (words, except) =>
      fields.some((field) => field !== except && fieldNames(field, primary.get(field.role) === field).includes(words)),
  };
  return { context, size };
}

/** Greedy by strength, then length, then position: a longer explicit phrase beats the loose phrase inside it. */
function resolveOverlaps(candidates: readonly Directive[]): Directive[] {
  const ranked = [...candidates].sort(
    (a, b) =>
      FORM_RANK[b.form] - FORM_RANK[a.form] ||
      b.end - b.start - (a.end - a.start) ||
      a.start - b.start ||
      compareText(a.values[0]?.field ?? '', b.values[0]?.field ?? ''),
  );
  // One flag per character taken, so each check costs the candidate's length, not the number accepted.
  const taken = new Uint8Array(ranked.reduce((max, candidate) => Math.max(max, candidate.end), 0));
  const accepted: Directive[] = [];
  for (const candidate of ranked) {
    if (taken.subarray(candidate.start, candidate.end).includes(1)) continue;
    taken.fill(1, candidate.start, candidate.end);
    accepted.push(candidate);
  }
  return accepted.sort((a, b) => a.start - b.start);
}

/**
 * Labelled free text is read after the typed phrases. An explicit phrase (`seed 42`) or a loose one alone in its
 * clause (`, 30 steps,`) ends a negative prompt; a loose phrase inside a clause of the captured text
 * (`negative prompt: 16:9 black bars`) belongs to that text.
 */
function addCaptures(context: RuleContext, breaks: readonly number[], typed: Directive[]): Directive[] {
  const index = new SpanIndex(typed);
  const boundaries = typed.filter((directive) => directive.form !== 'loose' || aloneInClause(context.text, breaks, directive, index));
  const captures = new Set<Directive>();
  let accepted = typed;
  for (const label of findCaptureLabels(context)) {
    const labelSpan = { start: label.start, end: label.valueStart };
    if (accepted.some((taken) => overlaps(taken, labelSpan) && (taken.form !== 'loose' || captures.has(taken)))) continue;
    const capture = captureText(context.text, label, boundaries);
    if (!capture) continue;
    captures.add(capture);
    accepted = [...accepted.filter((taken) => !overlaps(taken, capture)), capture];
  }
  return accepted.sort((a, b) => a.start - b.start);
}

function chooseValues(accepted: readonly Directive[]): ScannedValue[] {
  const chosen = new Map<string, ScannedValue>();
  for (const directive of accepted) {
    for (const { field, value, fit } of directive.values) {
      const entry: ScannedValue = { field, value, fit, form: directive.form, phrase: directive.phrase, rule: directive.rule, conflicted: false };
      const previous = chosen.get(field);
      if (!previous) {
        chosen.set(field, entry);
        continue;
      }
      if (addsExclusion(previous, entry)) {
        chosen.set(field, joinedExclusions(previous, entry));
        continue;
      }
      const conflicted = previous.conflicted || !(Object.is(previous.value, value) || sameOrientation(previous, entry));
      chosen.set(field, { ...stronger(previous, entry), conflicted });
    }
  }
  return [...chosen.values()];
}

/** `no text, nothing blurry`: a clause leaving things out adds them to what the negative prompt already holds. */
export function addsExclusion(previous: ScannedValue, entry: ScannedValue): boolean {
  return (previous.rule === EXCLUSION_RULE || entry.rule === EXCLUSION_RULE) && typeof previous.value === 'string' && typeof entry.value === 'string';
}

/** Both texts, earlier first, with the stronger form; a phrase for each. */
export function joinedExclusions(previous: ScannedValue, entry: ScannedValue): ScannedValue {
  const value = [previous.value, entry.value].join(', ');
  const form = FORM_RANK[entry.form] > FORM_RANK[previous.form] ? entry.form : previous.form;
  return { ...previous, value, form, phrase: `${previous.phrase}; ${entry.phrase}`, rule: previous.rule === EXCLUSION_RULE ? entry.rule : previous.rule };
}

/**
 * Of two values for one field in the same text: the plainer form wins, then a value written out beats one a word
 * only approximates (`make it 3:4 vertical` is 3:4: `vertical` could be 2:3, 3:4 or 9:16), then the later one.
 */
function stronger(previous: ScannedValue, entry: ScannedValue): ScannedValue {
  const byForm = FORM_RANK[entry.form] - FORM_RANK[previous.form];
  if (byForm !== 0) return byForm > 0 ? entry : previous;
  const byExactness = Number(!approximates(previous.rule)) - Number(!approximates(entry.rule));
  if (byExactness !== 0) return byExactness > 0 ? previous : entry;
  return entry;
}

/** Rules whose value is one reading of a word that several values fit (an aspect word picks a ratio). */
function approximates(rule: string): boolean {
  return rule === `${READING_RULE_PREFIX}aspect_word`;
}

/** `3:4 vertical`: the word says the shape the ratio spells out, so the two agree rather than conflict. */
function sameOrientation(a: ScannedValue, b: ScannedValue): boolean {
  if (!approximates(a.rule) && !approximates(b.rule)) return false;
  const sign = (value: unknown) => {
    const match = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(String(value));
    return match ? Math.sign(Number(match[1]) - Number(match[2])) : Number.NaN;
  };
  return sign(a.value) === sign(b.value);
}

function valueNotes(value: ScannedValue, schema: ModelSchema): string[] {
  const field = schema.fields.find((candidate) => candidate.name === value.field);
  const notes: string[] = [];
  if (value.conflicted) notes.push(`${value.field} is given more than once in the prompt; used "${value.phrase}"`);
  if (!field || value.fit === 'ok') return notes;
  if (value.fit === 'not_an_option') {
    notes.push(`${value.field} ${String(value.value)} is not one of the model's options (${optionList(field)}); kept as written for review`);
  } else {
    notes.push(`${value.field} ${String(value.value)} is outside the model's range (${rangeText(field)}); kept as written for review`);
  }
  return notes;
}

/** The secret itself is never repeated, not even in a note. */
function secretNote(field: string): string {
  return `a value for ${field} was written in the prompt; it was taken out and not used (secrets come only from a reviewer's edit)`;
}

const AFTER_ASSIGN = /\s*[=:]\s*[^\s,;]*/y;
const AFTER_FLAG = /[ \t]+[^\s,;]*/y;

/**
 * `seed: random`, `--steps 7.5`: the user assigned a typed field a value of the wrong type. Nothing is set and
 * the phrase stays in the prompt; a note says why, so the request can be corrected.
 */
function refusedAssignments(
  text: string,
  accepted: readonly Directive[],
  context: RuleContext,
): { field: string; phrase: string; expected: string }[] {
  const refused: { field: string; phrase: string; expected: string }[] = [];
  for (const field of context.typedFields) {
    for (const match of text.matchAll(namedLabel(field, context.primary.get(field.role) === field))) {
      if (labelBelongsElsewhere(context, field, match)) continue;
      const labelEnd = match.index + match[0].length;
      const tail = stickyMatch(AFTER_ASSIGN, text, labelEnd) ?? (match[1] === undefined ? null : stickyMatch(AFTER_FLAG, text, labelEnd));
      // A name without `=`, `:` or `--` is just a word in the description.
      if (tail === null) continue;
      const span = { start: match.index, end: labelEnd + tail.length };
      if (accepted.some((taken) => overlaps(taken, span))) continue;
      refused.push({ field: field.name, phrase: text.slice(span.start, span.end).trim(), expected: expectedValue(field) });
    }
  }
  return refused;
}

function stickyMatch(pattern: RegExp, text: string, at: number): string | null {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0] ?? null;
}

function expectedValue(field: FieldSpec): string {
  if (hasEnum(field)) return 'one of its options';
  if (field.type === 'integer') return 'a whole number';
  if (field.type === 'number') return 'a number';
  return field.type === 'boolean' ? 'true or false' : field.type;
}

function promptLabel(text: string, field: FieldSpec | undefined): Span | null {
  if (!field) return null;
  const pattern = fieldPattern(field, 'prompt-label', () => {
    const names = fieldNames(field, false).map(phrasePattern).join('|');
    return new RegExp(`^\\s*(?:${names})\\s*[:=]\\s*`, 'iu');
  });
  const match = pattern?.exec(text);
  return match ? { start: 0, end: match[0].length } : null;
}

/** Clause separators, the Arabic and East Asian commas and semicolons included. */
const CLAUSE_BREAK = /[,;|\n()،؛、，；。]|[.!?](?=\s|$)/gu;
/** A colon not inside a ratio or a time (`make it widescreen: a desert highway`; not `16:9`, `10:30`). */
const COLON = /(?<!\d)[:：](?!\d)/gu;

/**
 * Where a phrase that needs a clause of its own may end: the clause separators, and a colon that introduces what
 * follows, unless it joins a field's name to its value inside a candidate phrase (`aspect ratio: wide`).
 */
function ownClauseBreaks(text: string, breaks: readonly number[], candidates: readonly Directive[]): number[] {
  const colons = [...text.matchAll(COLON)].map((match) => match.index).filter((at) => !candidates.some((candidate) => candidate.start < at && at < candidate.end));
  return [...breaks, ...colons].sort((a, b) => a - b);
}

/**
 * True when, apart from other candidate phrases and filler words, the directive is alone in its clause
 * (`a cat, 50 steps`), or it ends its clause and follows another parameter phrase with only filler between
 * (`a cat with guidance 7.5 and 30 steps`). Not for `a temple with 100 steps`.
 */
function inOwnClause(text: string, breaks: readonly number[], directive: Directive, all: SpanIndex): boolean {
  const clause = blankedClause(text, breaks, directive, all);
  if (isFillerOnly(clause.text)) return true;
  const { from } = clause;
  return (
    clause.chainedFrom >= 0 &&
    isFillerOnly(clause.text.slice(clause.chainedFrom - from, directive.start - from)) &&
    isFillerOnly(clause.text.slice(directive.end - from))
  );
}

/** True when, apart from other directives and filler words, the directive is all its clause holds. */
function aloneInClause(text: string, breaks: readonly number[], directive: Directive, all: SpanIndex): boolean {
  return isFillerOnly(blankedClause(text, breaks, directive, all).text);
}

/** Positions of the clause separators, in order. */
function clauseBreaks(text: string): number[] {
  return [...text.matchAll(CLAUSE_BREAK)].map((match) => match.index);
}

/**
 * The directive's clause with the directive and every other candidate phrase blanked out, and where the
 * nearest firm (not clause-dependent) phrase before it ends (-1 when there is none).
 */
function blankedClause(
  text: string,
  breaks: readonly number[],
  directive: Directive,
  all: SpanIndex,
): { text: string; from: number; chainedFrom: number } {
  const before = breaks[firstBreakFrom(breaks, directive.start) - 1];
  const from = before === undefined ? 0 : before + 1;
  const to = breaks[firstBreakFrom(breaks, directive.end)] ?? text.length;
  const chars = text.slice(from, to).split('');
  let chainedFrom = -1;
  for (const other of all.within(from, to)) {
    if (other === directive || other.end <= from) continue;
    for (let i = Math.max(other.start, from); i < Math.min(other.end, to); i += 1) chars[i - from] = ' ';
    if (!other.needsOwnClause && other.end <= directive.start) chainedFrom = Math.max(chainedFrom, other.end);
  }
  for (let i = Math.max(directive.start, from); i < Math.min(directive.end, to); i += 1) chars[i - from] = ' ';
  return { text: chars.join(''), from, chainedFrom };
}

/** Directives sorted by start, to list those that may touch a range without scanning them all. */
class SpanIndex {
  readonly #sorted: readonly Directive[];
  readonly #longest: number;

  constructor(directives: readonly Directive[]) {
    this.#sorted = [...directives].sort((a, b) => a.start - b.start);
    this.#longest = this.#sorted.reduce((max, directive) => Math.max(max, directive.end - directive.start), 0);
  }

  /** Every directive that starts before `to` and could end after `from`. */
  *within(from: number, to: number): Generator<Directive> {
    const sorted = this.#sorted;
    let low = 0;
    let high = sorted.length;
    const earliest = from - this.#longest;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((sorted[middle]?.start ?? Infinity) < earliest) low = middle + 1;
      else high = middle;
    }
    for (let i = low; i < sorted.length; i += 1) {
      const directive = sorted[i];
      if (!directive || directive.start >= to) return;
      yield directive;
    }
  }
}

/** Index of the first break at or after `position` (binary search over the sorted breaks). */
function firstBreakFrom(breaks: readonly number[], position: number): number {
  let low = 0;
  let high = breaks.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((breaks[middle] ?? Infinity) < position) low = middle + 1;
    else high = middle;
  }
  return low;
}

function optionList(field: FieldSpec): string {
  const options = (field.enum ?? field.presets ?? []).map(String);
  return options.length > 8 ? `${options.slice(0, 8).join(', ')}, …` : options.join(', ');
}

function rangeText(field: FieldSpec): string {
  if (field.minimum !== undefined && field.maximum !== undefined) return `${field.minimum}–${field.maximum}`;
  if (field.minimum !== undefined) return `at least ${field.minimum}`;
  return `at most ${String(field.maximum)}`;
}
