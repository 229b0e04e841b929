/**
 * How the heuristic builder reads a ModelSchema: which field is the main one for a role, the words a user
 * would use to name a field, and which fields take files. Pure lookups over FieldSpec; no text matching here.
 */
import type { FieldRole, FieldSpec, ModelSchema } from '../generated/contracts.ts';
import { readingWords } from '../reading/index.ts';

/** Roles whose values are files; only attachments (or human edits) fill them, never prompt text. */
export type MediaKind = 'image' | 'mask' | 'audio' | 'video' | 'file';

const MEDIA_ROLES: Partial<Record<FieldRole, MediaKind>> = {
  image_input: 'image',
  mask_input: 'mask',
  audio_input: 'audio',
  video_input: 'video',
  file_input: 'file',
};

/** String formats that mean "a link to a file". */
const URI_FORMATS = new Set(['uri', 'url', 'iri', 'uri-reference', 'iri-reference']);

/**
 * Extra words users write for a role, given to the role's primary field only (see primaryFieldForRole).
 * A field's own name and title always count as well.
 */
export const ROLE_KEYWORDS: Partial<Record<FieldRole, readonly string[]>> = {
  seed: ['seed'],
  width: ['width'],
  height: ['height'],
  aspect_ratio: ['aspect ratio', 'aspect', 'ar'],
  num_outputs: ['num outputs', 'number of outputs', 'number of images', 'outputs', 'images', 'variations'],
  steps: ['steps', 'inference steps', 'num steps', 'sampling steps', 'denoising steps'],
  guidance: ['guidance', 'guidance scale', 'cfg', 'cfg scale'],
  output_format: ['format', 'output format', 'file format'],
  negative_prompt: ['negative prompt', 'negative', 'neg prompt'],
};

/** Field names preferred as a role's primary field when a schema has several fields with that role. */
const PREFERRED_NAMES: Partial<Record<FieldRole, readonly string[]>> = {
  steps: ['num_inference_steps', 'steps', 'num_steps', 'inference_steps'],
  guidance: ['guidance_scale', 'guidance', 'cfg', 'cfg_scale'],
  num_outputs: ['num_outputs', 'number_of_images', 'num_images', 'batch_size'],
};

/** Prompt-role field names that mean "what the user asks for", as opposed to a specialised prompt (`initial_prompt`). */
const USER_PROMPT_NAMES = new Set([
  'prompt', 'text', 'caption', 'query', 'question', 'instruction', 'instructions', 'message', 'input', 'input text',
  'text prompt', 'prompt text', 'positive prompt', 'user prompt', 'main prompt',
]);

/**
 * The field that receives the user's prompt: the free-text prompt-role field named `prompt` (as the extractor's
 * primaryPromptName), else the first, in order, that is required or has a plain prompt name, else the first
 * numbered prompt (`prompt_a`, `prompt_1`). An optional,
 * specialised prompt field (whisper's `initial_prompt`, a `mask_prompt`) is not the user's request: it is
 * filled only from an explicit label (`initial prompt: ...`) or an edit.
 */
export function userPromptField(fields: readonly FieldSpec[]): FieldSpec | undefined {
  // A prompt with a fixed list of options is a choice, not free text: it is read like any other enum field.
  const prompts = fields.filter((field) => field.role === 'prompt' && field.type === 'string' && !field.enum?.length);
  return (
    prompts.find((field) => field.name === 'prompt') ??
    prompts.find((field) => field.required || USER_PROMPT_NAMES.has(identifierWords(field.name))) ??
    // Numbered prompts (riffusion's `prompt_a` → `prompt_b`): the first is where the request starts.
    prompts.find((field) => /^prompt [a-z0-9]$/.test(identifierWords(field.name)))
  );
}

/** Names of a free-text input that holds what the model works on, when it is not called a prompt. */
const MAIN_TEXT_NAMES = new Set([
  'text', 'input', 'input text', 'text input', 'content', 'lyrics', 'query', 'question', 'instruction', 'instructions',
  'instruction text', 'script', 'message', 'description', 'sentence', 'transcript',
]);

/** Words by which a field's name or description says it holds text to work on. */
const TEXT_WORDS = /(?<![\p{L}])(?:text|prompt|instructions?|lyrics|content|query|question|script|message|sentence|words|say|speak|synthesi[sz]e)(?![\p{L}])/iu;

/** A string that holds a link, a path, an id or JSON, not words a person writes. */
const NOT_PLAIN_TEXT = /(?<![\p{L}])(?:url|uri|link|path|file|json|id|key|token)(?![\p{L}])/iu;

/**
 * The field that receives the request's text: the user-prompt field, else, for a model without one, its main
 * free-text input read from the schema: the only required free string that says it holds text (`gen_text`,
 * `instruction_text`: "text to generate"; `description`, named as a text noun), else the only free string whose name or title is a plain text noun
 * (`lyrics`, `content`). A free string has no options and no format (not a link, a colour or a date) and no
 * special role (not a secret, a system prompt or a negative prompt).
 */
export function requestTextField(fields: readonly FieldSpec[]): FieldSpec | undefined {
  const prompt = userPromptField(fields);
  if (prompt) return prompt;
  const free = fields.filter((field) => field.role === 'other' && field.type === 'string' && !field.enum?.length && field.format === undefined);
  const saysText = (field: FieldSpec) =>
    !NOT_PLAIN_TEXT.test(`${identifierWords(field.name)} ${field.description ?? ''}`) &&
    (MAIN_TEXT_NAMES.has(identifierWords(field.name)) ||
      TEXT_WORDS.test(identifierWords(field.name)) ||
      TEXT_WORDS.test(field.title ?? '') ||
      TEXT_WORDS.test(field.description ?? ''));
  const required = free.filter((field) => field.required);
  if (required.length > 0) return required.length === 1 && required[0] && saysText(required[0]) ? required[0] : undefined;
  const named = free.filter(
    (field) => (MAIN_TEXT_NAMES.has(identifierWords(field.name)) || MAIN_TEXT_NAMES.has(identifierWords(field.title ?? ''))) && saysText(field),
  );
  return named.length === 1 ? named[0] : undefined;
}

/** The schema's fields in a stable order: `order`, then name. */
export function orderedFields(schema: ModelSchema): FieldSpec[] {
  return [...schema.fields].sort((a, b) => a.order - b.order || compareText(a.name, b.name));
}

/**
 * The one field a role-level phrase ("50 steps", a user's prompt) goes to when several share the role:
 * a preferred name, else a required field, else the lowest order. Undefined when no field has the role.
 */
export function primaryFieldForRole(fields: readonly FieldSpec[], role: FieldRole): FieldSpec | undefined {
  const candidates = fields.filter((field) => field.role === role);
  if (candidates.length <= 1) return candidates[0];
  for (const name of PREFERRED_NAMES[role] ?? []) {
    const preferred = candidates.find((field) => field.name.toLowerCase() === name);
    if (preferred) return preferred;
  }
  return candidates.find((field) => field.required) ?? candidates[0];
}

/** identifierWords results; names repeat across builds, and the cache is dropped whole if it grows large. */
const wordsCache = new Map<string, string>();
const WORDS_CACHE_LIMIT = 5000;

/** The lower-case words of an identifier: `num_inference_steps`, `numInferenceSteps` → `num inference steps`. */
export function identifierWords(identifier: string): string {
  const cached = wordsCache.get(identifier);
  if (cached !== undefined) return cached;
  const words = identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-\s]+/g, ' ')
    .trim()
    .toLowerCase();
  if (wordsCache.size >= WORDS_CACHE_LIMIT) wordsCache.clear();
  wordsCache.set(identifier, words);
  return words;
}

/**
 * Every phrase that names the field: its name and title as words, plus the role's keywords when it is the
 * role's primary field. Longest first, so the regex alternation prefers `guidance scale` over `guidance`.
 */
export function fieldNames(field: FieldSpec, isPrimaryForRole: boolean): string[] {
  const names = new Set<string>([identifierWords(field.name)]);
  if (field.title) names.add(identifierWords(field.title));
  if (isPrimaryForRole) for (const keyword of ROLE_KEYWORDS[field.role] ?? []) names.add(keyword);
  for (const name of [...names]) for (const local of localNames(name)) names.add(local);
  names.delete('');
  return [...names].sort((a, b) => b.length - a.length || compareText(a, b));
}

/** Last name words that say "which one", not what: `style_selector` is named like `style` in other languages. */
const GENERIC_LAST_WORDS = new Set(['type', 'option', 'mode', 'preset', 'selector', 'selection', 'name', 'choice']);

/** What people call a field of this name in the reading languages (the word lists' fieldNames). */
function localNames(name: string): readonly string[] {
  const words = name.split(' ');
  const last = words[words.length - 1] ?? '';
  const keys = [name, ...(words.length > 1 && GENERIC_LAST_WORDS.has(last) ? [words.slice(0, -1).join(' ')] : [])];
  return keys.flatMap((key) => readingWords().fieldNames.get(key) ?? []);
}

/** What kind of file a field takes, or null when it takes no file. */
export function mediaKindOfField(field: FieldSpec, schema: ModelSchema): MediaKind | null {
  const byRole = MEDIA_ROLES[field.role];
  if (byRole) return byRole;
  // An unclassified field that is plainly a link (or a list of links) still takes files, as a generic file.
  if (field.role === 'other' && isUriShaped(field, schema)) return 'file';
  return null;
}

/** True for a string with a link format, or a list whose items have one. */
export function isUriShaped(field: FieldSpec, schema: ModelSchema): boolean {
  if (field.type === 'string') return field.format !== undefined && URI_FORMATS.has(field.format);
  if (field.type !== 'array' || (field.itemType !== undefined && field.itemType !== 'string')) return false;
  const items = propertyNode(schema, field.name)?.items;
  const format = isRecord(items) ? items.format : undefined;
  return typeof format === 'string' && URI_FORMATS.has(format);
}

/** The field's node in the strict JSON Schema, when it is there. */
export function propertyNode(schema: ModelSchema, name: string): Record<string, unknown> | undefined {
  const properties = schema.jsonSchema.properties;
  if (!isRecord(properties)) return undefined;
  const node = Object.hasOwn(properties, name) ? properties[name] : undefined;
  return isRecord(node) ? node : undefined;
}

/** Regex source matching the phrase with `_`, `-` or any whitespace between its words. */
export function phrasePattern(phrase: string): string {
  return phrase.split(' ').map(escapeRegExp).join('[\\s_-]+');
}

/**
 * The text as a literal inside a regex (outside a character class). Only syntax characters are escaped: in
 * unicode mode (`u`), escaping anything else, such as `-`, is a syntax error.
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Code-unit comparison: deterministic and locale-independent, unlike localeCompare. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
