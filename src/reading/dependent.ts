/**
 * Settings one choice implies for another field, read from the schema alone: a value the user never wrote but
 * asked for all the same, through something else they chose. Three readings, none of them a table of models:
 *
 * - a field's description makes it depend on another's value: `Only works if \`aspect_ratio\` is set to custom`
 *   (width), `(When \`pre_process_with_rvc=True\`)`, `Set \`keep_original_duration\` to \`False\` to use this`. The
 *   user who sets the field asks for that value of the other one, or their setting does nothing;
 * - an option that stands for another input: `voice_a`'s option `custom_voice` is the name of the file input
 *   `custom_voice` (or its description says "Use `custom_voice` to use a custom voice"): a file attached there
 *   asks for that option;
 * - an option a chosen value needs: a model option whose description names the value (`htdemucs_6s` … guitar and
 *   piano), or, for a field choosing which sources to separate, the option of a model that separates more sources
 *   than the common four (vocals, drums, bass, other) when the source asked for is not one of them (`htdemucs_6s`
 *   for the guitar).
 * Deterministic: the same schema, trigger and value always give the same option. The `dependent_option`
 * conversion (conversions.ts) re-derives it from the trigger's cited words in the validator.
 */
import type { FieldSpec } from '../generated/contracts.ts';
import { hasOptions, nameWords } from './fields.ts';
import { escapeRegExp } from './patterns.ts';

/** The payload and the schema a dependent value is read against. */
export interface DependencyContext {
  fields: readonly FieldSpec[];
  payload: Readonly<Record<string, unknown>>;
}

/** Whether `words` give `value` for `field` (the trigger's own reading, by any conversion). */
export type WordsGive = (words: string, field: FieldSpec, value: unknown) => boolean;

/**
 * The value `field` must take because another field of the payload holds a value the cited `words` gave it, or
 * undefined when no field of the payload implies one (or two imply different ones).
 */
export function dependentOption(words: string, field: FieldSpec, context: DependencyContext, give: WordsGive): unknown {
  let found: { value: unknown } | undefined;
  for (const trigger of context.fields) {
    if (trigger.name === field.name || !Object.hasOwn(context.payload, trigger.name)) continue;
    const value = context.payload[trigger.name];
    if (!isTriggerValue(trigger, value) || !give(words, trigger, value)) continue;
    const implied = impliedValue(field, trigger, value, context.fields);
    if (implied === undefined) continue;
    if (found !== undefined && found.value !== implied) return undefined;
    found = { value: implied };
  }
  return found?.value;
}

/**
 * A value that can imply another field's: an option, a number, a switch or a file; never free text (a prompt is
 * always there and says nothing about the other fields), never the field's own default (nothing was chosen).
 */
export function isTriggerValue(trigger: FieldSpec, value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (trigger.hasDefault && trigger.default === value) return false;
  if (isFileValue(value)) return true;
  if (typeof value === 'string') return hasOptions(trigger);
  return typeof value === 'number' || typeof value === 'boolean';
}

/** An http(s) address, or a list of them: what a file input holds. */
export function isFileValue(value: unknown): boolean {
  const isUrl = (item: unknown) => typeof item === 'string' && /^https?:\/\/\S+$/i.test(item.trim());
  return isUrl(value) || (Array.isArray(value) && value.length > 0 && value.every(isUrl));
}

/** The value `target` must take for `trigger` to hold `value` as asked, or undefined. */
export function impliedValue(target: FieldSpec, trigger: FieldSpec, value: unknown, fields: readonly FieldSpec[]): unknown {
  if (!hasOptions(target) && target.type !== 'boolean') return undefined;
  const implied = conditionOn(trigger, target) ?? optionForInput(target, trigger, value, fields) ?? optionForValue(target, trigger, value);
  return implied !== undefined && target.hasDefault && target.default === implied ? undefined : implied;
}

// ---- a description that makes a field depend on another's value -------------------------------------------------

/** A sentence that says the field's value does not count (`ignored when …`, `no effect unless …`): no requirement. */
const NOT_A_REQUIREMENT = /\b(?:ignored?|ignores|not|no effect|incompatible|unless|except|overrides?|overridden|disables?)\b|n['’]t\b/i;
/** A condition right before the other field's name: `only works if`, `only used when`, `requires`, `(When`. */
const CONDITION_BEFORE = /\b(?:only|when|if|requires?|required|must|needs?)\b[^.;]{0,24}$/i;

function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+|[;\n]|\)\s*|\(/).map((sentence) => sentence.trim()).filter((sentence) => sentence !== '');
}

/**
 * The value `trigger`'s description says `target` must hold for it to work: `Only works if \`aspect_ratio\` is
 * set to custom` → custom, `(When \`pre_process_with_rvc=True\`)` → true, `Set \`x\` to \`False\` to use this`.
 */
function conditionOn(trigger: FieldSpec, target: FieldSpec): unknown {
  const description = trigger.description ?? '';
  if (!description.includes(target.name)) return undefined;
  const name = `(?<![\\p{L}\\p{N}_])\`?${escapeRegExp(target.name)}\`?(?![\\p{L}\\p{N}_])`;
  const assigned = new RegExp(`${name}\\s*(?:==?|\\s(?:is\\s+)?(?:set\\s+)?(?:to|is|equals?)\\s)\\s*[\`'"]?(?<value>[\\p{L}\\p{N}_.:-]+?)[\`'"]?(?=[\\s,.;:!)]|$)`, 'u');
  for (const sentence of sentences(description)) {
    if (NOT_A_REQUIREMENT.test(sentence)) continue;
    const match = assigned.exec(sentence);
    if (!match?.groups?.value) continue;
    const before = sentence.slice(0, match.index);
    const setToUse = /^\s*set\b/i.test(before) && /\bto use\b/i.test(sentence);
    if (!CONDITION_BEFORE.test(before) && !setToUse) continue;
    const value = optionWritten(target, match.groups.value);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The option (or switch state) written as `word`, case aside. */
function optionWritten(target: FieldSpec, word: string): unknown {
  const folded = word.toLowerCase();
  if (target.type === 'boolean' && !hasOptions(target)) return folded === 'true' ? true : folded === 'false' ? false : undefined;
  if (!hasOptions(target)) return undefined;
  return target.enum.find((option) => option !== null && String(option).toLowerCase() === folded);
}

// ---- an option that stands for another input -------------------------------------------------------------------

/**
 * The option of `target` that means "use the other input": its name is the input's name (`custom_voice`), or a
 * sentence of `target`'s description pairs it with the input's name or title (`Use \`custom_voice\` to use a
 * custom voice`). Only for a file the payload holds.
 */
function optionForInput(target: FieldSpec, trigger: FieldSpec, value: unknown, fields: readonly FieldSpec[]): unknown {
  if (!isFileValue(value) || !hasOptions(target)) return undefined;
  const own = ownOption(target, trigger);
  if (own !== undefined) return selectsInput(target, trigger, fields) ? own : undefined;
  const labels = [nameWords(trigger.name).join(' '), (trigger.title ?? '').toLowerCase().trim()].filter((label) => label.includes(' '));
  return optionInSentenceWith(target, (sentence) => labels.some((label) => wholePhrase(sentence.toLowerCase().replace(/[_-]/g, ' '), label)));
}

function ownOption(target: FieldSpec, trigger: FieldSpec): unknown {
  return target.enum?.find((option) => typeof option === 'string' && option.toLowerCase() === trigger.name.toLowerCase());
}

/**
 * Of several fields offering the input's name as an option (`voice_a`, `voice_b`, `voice_c`: mix three voices), the
 * ones the input's description names (`Overrides the \`voice_a\` input`), else the first: one voice is asked for.
 */
function selectsInput(target: FieldSpec, trigger: FieldSpec, fields: readonly FieldSpec[]): boolean {
  const offering = fields.filter((field) => field !== trigger && ownOption(field, trigger) !== undefined);
  const named = offering.filter((field) => wholePhrase(trigger.description ?? '', field.name));
  if (named.length > 0) return named.includes(target);
  const first = [...offering].sort((a, b) => a.order - b.order)[0];
  return first === undefined || first.name === target.name;
}

/** The one option of `target` written in code quotes (`` `x` ``) in a sentence of its description that `names` accepts. */
function optionInSentenceWith(target: FieldSpec, names: (sentence: string) => boolean): unknown {
  if (!hasOptions(target)) return undefined;
  for (const sentence of sentences(target.description ?? '')) {
    if (NOT_A_REQUIREMENT.test(sentence)) continue;
    const quoted = [...sentence.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');
    const options = [...new Set(quoted.map((word) => optionWritten(target, word)).filter((option) => option !== undefined))];
    if (options.length !== 1) continue;
    // The option's own words are not the other field's name: strip them before looking for it.
    if (names(quoted.reduce((rest, word) => rest.replace(`\`${word}\``, ' '), sentence))) return options[0];
  }
  return undefined;
}

function wholePhrase(text: string, phrase: string): boolean {
  return new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(phrase)}(?![\\p{L}\\p{N}])`, 'u').test(text);
}

// ---- an option a chosen value needs -----------------------------------------------------------------------------

/** Sources every separator takes: a larger model is needed only for the others (guitar, piano). */
const COMMON_SOURCES = new Set(['vocals', 'vocal', 'voice', 'drums', 'drum', 'bass', 'other', 'others', 'accompaniment', 'instrumental', 'music', 'no vocals', 'none', 'all']);
/** Name words of a field choosing which sources to separate. */
const SOURCE_FIELD_WORDS = new Set(['stem', 'stems', 'source', 'sources', 'instrument', 'instruments', 'track', 'tracks']);
/** A model option named by how many sources it separates: `htdemucs_6s`, `5stems`, `spleeter:4stems`, `6 sources`. */
const SOURCE_COUNT = /(?:^|[^\p{L}\p{N}]|(?<=\p{L}))(\d{1,2})[\s_-]?(?:s|stems?|sources?)$/iu;

/**
 * The option of `target` the chosen `value` of `trigger` needs: the one option its description names beside the
 * value (`\`htdemucs_6s\` adds guitar and piano`), or the model separating more sources than the common four when
 * the source chosen is not one of them.
 */
function optionForValue(target: FieldSpec, trigger: FieldSpec, value: unknown): unknown {
  if (typeof value !== 'string' || !hasOptions(target) || !hasOptions(trigger)) return undefined;
  const word = nameWords(value).join(' ');
  if (word === '') return undefined;
  const described = optionInSentenceWith(target, (sentence) => wholePhrase(sentence.toLowerCase().replace(/[_-]/g, ' '), word));
  if (described !== undefined) return described;
  return largerSeparator(target, trigger, word);
}

function largerSeparator(target: FieldSpec, trigger: FieldSpec, source: string): unknown {
  if (COMMON_SOURCES.has(source) || !hasOptions(target) || !nameWords(trigger.name).some((word) => SOURCE_FIELD_WORDS.has(word))) return undefined;
  const counted = target.enum
    .filter((option): option is string => typeof option === 'string')
    .map((option) => ({ option, count: Number(SOURCE_COUNT.exec(option)?.[1] ?? Number.NaN) }))
    .filter((entry) => entry.count > COMMON_SOURCE_COUNT);
  const defaultCount = typeof target.default === 'string' ? Number(SOURCE_COUNT.exec(target.default)?.[1] ?? Number.NaN) : Number.NaN;
  if (counted.length === 0 || defaultCount > COMMON_SOURCE_COUNT) return undefined;
  const sources = (trigger.enum ?? []).filter((option) => typeof option === 'string' && !COMMON_SOURCES.has(nameWords(option).join(' '))).length + COMMON_SOURCE_COUNT;
  const exact = counted.filter((entry) => entry.count === sources);
  if (exact.length === 1) return exact[0]?.option;
  const fewest = Math.min(...counted.map((entry) => entry.count));
  const smallest = counted.filter((entry) => entry.count === fewest);
  return smallest.length === 1 ? smallest[0]?.option : undefined;
}

/** The common sources: vocals, drums, bass and other. */
const COMMON_SOURCE_COUNT = 4;
