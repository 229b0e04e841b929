/**
 * What a field is for, decided from its name, title, description, type and format. The rules are a table
 * read top to bottom, first match wins; the order is the policy:
 *  - secrets first, so an API key is never mistaken for a prompt;
 *  - files (format uri, or an array of them) next, by kind: mask before image, since `mask_image` is a mask;
 *  - then text roles, with negative and system prompts before the plain prompt they would otherwise match;
 *  - then safety settings (`disable_safety_checker`, `safety_tolerance`, `nsfw_filter`): the validator will not
 *    let a value the builder chose for one of these go out without a person (provenance-issues.ts);
 *  - then numeric and enum knobs.
 */
import type { FieldRole, FieldSpec, FieldType } from '../../generated/contracts.ts';

/** Everything the classifier looks at; the format is the source's, before the format policy dropped it. */
export interface RoleTraits {
  name: string;
  title?: string;
  description?: string;
  type: FieldType;
  itemType?: FieldType;
  format?: string;
  /** `x-cog-secret`, `writeOnly` or `format: password` in the source. */
  secret?: boolean;
}

type FileKind = 'mask' | 'image' | 'audio' | 'video';

/** Words that say what a file holds; checked in this order. */
const FILE_WORDS: readonly [FileKind, readonly string[]][] = [
  ['mask', ['mask', 'masks', 'matte']],
  ['image', ['image', 'images', 'img', 'imgs', 'photo', 'photos', 'picture', 'pictures', 'pic', 'jpg', 'jpeg', 'png', 'webp']],
  ['audio', ['audio', 'audios', 'speech', 'wav', 'mp3', 'voice', 'sound', 'song', 'music', 'vocals', 'flac']],
  ['video', ['video', 'videos', 'mp4', 'movie', 'webm', 'mov']],
];

/** Names that hold credentials: `api_key`, `hf_token`, `openai_apikey`, `password`. */
const SECRET_NAME = /(?:^|_)(?:api_?key|secret|password|passwd|token)$/;

/** `num_outputs`, `number_of_images`, `n_samples`... */
const OUTPUT_COUNT = /^(?:num|number|n)_(?:of_)?(?:outputs|images|samples|generations|videos|predictions)$/;

/** Words that mark a content-safety setting in a field name. */
const SAFETY_WORDS: ReadonlySet<string> = new Set(['safety', 'nsfw', 'censor', 'censored', 'censorship', 'moderation']);

const PROMPT_NAMES = new Set(['text', 'caption', 'query', 'question', 'instruction', 'instructions', 'message', 'input', 'input_text']);

interface RoleRule {
  role: FieldRole;
  applies: (traits: RoleTraits, words: readonly string[]) => boolean;
}

const isText = (t: RoleTraits): boolean => t.type === 'string';
const isNumber = (t: RoleTraits): boolean => t.type === 'integer' || t.type === 'number';
const isFile = (t: RoleTraits): boolean => t.format === 'uri' && (t.type === 'string' || t.type === 'array');
const last = (words: readonly string[]): string => words[words.length - 1] ?? '';

/** The table. `words` is the name split into lower-case words (`initImage` → init, image). */
export const ROLE_RULES: readonly RoleRule[] = [
  { role: 'secret', applies: (t, w) => t.secret === true || t.format === 'password' || (isText(t) && SECRET_NAME.test(w.join('_'))) },
  { role: 'mask_input', applies: (t) => isFile(t) && fileKind(t) === 'mask' },
  { role: 'image_input', applies: (t) => isFile(t) && fileKind(t) === 'image' },
  { role: 'audio_input', applies: (t) => isFile(t) && fileKind(t) === 'audio' },
  { role: 'video_input', applies: (t) => isFile(t) && fileKind(t) === 'video' },
  { role: 'file_input', applies: (t) => isFile(t) },
  { role: 'safety', applies: (t, w) => !isFile(t) && w.some((word) => SAFETY_WORDS.has(word)) },
  { role: 'negative_prompt', applies: (t, w) => isText(t) && isNegativePrompt(t, w) },
  { role: 'system_prompt', applies: (t, w) => isText(t) && w.includes('system') },
  { role: 'prompt', applies: (t, w) => isText(t) && isPromptName(w) },
  { role: 'seed', applies: (t, w) => isNumber(t) && last(w) === 'seed' },
  { role: 'width', applies: (t, w) => isNumber(t) && isOutputSize(w, 'width') },
  { role: 'height', applies: (t, w) => isNumber(t) && isOutputSize(w, 'height') },
  { role: 'aspect_ratio', applies: (_t, w) => w.includes('aspect') },
  { role: 'num_outputs', applies: (t, w) => isNumber(t) && isOutputCount(w) },
  { role: 'steps', applies: (t, w) => t.type === 'integer' && last(w) === 'steps' },
  { role: 'guidance', applies: (t, w) => isNumber(t) && (w.includes('guidance') || w.includes('cfg')) },
  { role: 'output_format', applies: (t, w) => isText(t) && isOutputFormat(w) },
];

/** The role of one field: the first rule in {@link ROLE_RULES} that applies, else `other`. */
export function classifyRole(traits: RoleTraits): FieldRole {
  const words = splitWords(traits.name);
  return ROLE_RULES.find((rule) => rule.applies(traits, words))?.role ?? 'other';
}

/**
 * The one primary prompt among classified fields: the field literally named `prompt` wins, otherwise the
 * first prompt-role field in order. Undefined when no field is a prompt.
 */
export function primaryPromptName(fields: readonly Pick<FieldSpec, 'name' | 'role'>[]): string | undefined {
  const prompts = fields.filter((field) => field.role === 'prompt');
  return (prompts.find((field) => field.name === 'prompt') ?? prompts[0])?.name;
}

/** `init_image`, `initImage`, `init-image` → [init, image]. */
export function splitWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** Words before `width`/`height` that still mean the size of what is made (`image_width`, `outWidth`, `max_width`). */
const OUTPUT_SIZE_WORDS: ReadonlySet<string> = new Set(['image', 'img', 'output', 'out', 'target', 'video', 'canvas', 'custom', 'resize', 'sample', 'max', 'frame', 'generation', 'new']);

/**
 * `width`, `image_width`, `output_height`; not `tile_width`, `stroke_width` or `face_detection_input_width`,
 * which size something else: a user's `1024x1024` must not land there.
 */
function isOutputSize(words: readonly string[], side: 'width' | 'height'): boolean {
  return last(words) === side && words.slice(0, -1).every((word) => OUTPUT_SIZE_WORDS.has(word));
}

/** `negative_prompt`, `neg_prompt`, ControlNet's `n_prompt`, or a field whose title says `Negative Prompt`. */
function isNegativePrompt(traits: RoleTraits, words: readonly string[]): boolean {
  if (words.includes('negative') || words[0] === 'neg' || (words[0] === 'n' && words[1] === 'prompt')) return true;
  return splitWords(traits.title ?? '').includes('negative');
}

/** `prompt`, `latent_prompt`, `prompts`, `text`, `query`...; a `prompt_template` is configuration, not a prompt. */
function isPromptName(words: readonly string[]): boolean {
  if (words.includes('template')) return false;
  return words.includes('prompt') || words.includes('prompts') || PROMPT_NAMES.has(words.join('_'));
}

/** `format`, `output_format`, `image_format`... but not `response_format` or `date_format`. */
function isOutputFormat(words: readonly string[]): boolean {
  return last(words) === 'format' && (words.length === 1 || ['output', 'image', 'file', 'audio', 'video'].includes(words[0] ?? ''));
}

function isOutputCount(words: readonly string[]): boolean {
  const name = words.join('_');
  return OUTPUT_COUNT.test(name) || ['n', 'batch_size', 'samples'].includes(name);
}

/** The kind of file: by name first, then title, then the earliest telling word of the description. */
function fileKind(traits: RoleTraits): FileKind | undefined {
  for (const text of [traits.name, traits.title ?? '']) {
    const words = splitWords(text);
    const match = FILE_WORDS.find(([, list]) => list.some((word) => words.includes(word)));
    if (match) return match[0];
  }
  return earliestKind(splitWords(traits.description ?? ''));
}

function earliestKind(words: readonly string[]): FileKind | undefined {
  for (const word of words) {
    const match = FILE_WORDS.find(([, list]) => list.includes(word));
    if (match) return match[0];
  }
  return undefined;
}
