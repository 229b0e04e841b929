/**
 * Free text after an explicit label: `negative prompt: blurry, low quality`, `--no text, watermark`,
 * `style: watercolor`. Only labels count here; a clause that leaves things out without a label (`…, nothing
 * blurry`) is exclusion-rule.ts's, and a negation inside the description (`a man without a hat`) stays in the prompt.
 * One opening needs no label: a request that casts the model in a role (`Act as a sommelier. …`, persona-lead.ts)
 * gives that sentence to the system prompt, when the model has one.
 */
import type { FieldSpec } from '../generated/contracts.ts';
import type { Directive, DirectiveForm, RuleContext, Span } from './directive-types.ts';
import { onlyFillerBefore } from './clause-words.ts';
import { fieldNames, phrasePattern } from './field-vocabulary.ts';
import { fieldPattern } from './pattern-cache.ts';
import { findPersona } from './persona-lead.ts';

/** A label found in the text, where its value would start and how to read it. */
export interface CaptureLabel {
  field: FieldSpec;
  start: number;
  /** Where the captured text begins (after the label and its separator). */
  valueStart: number;
  form: DirectiveForm;
  /** Free-string fields stop at a comma; prompt-like text (negative prompts) runs to the end of the sentence. */
  stopAtComma: boolean;
  /** Text the model takes as written (a prompt, a system prompt, words to speak) keeps its sentence's own stop. */
  keepsStop: boolean;
  /** A secret written in the prompt: one token, cut from the prompt and never used as a value. */
  secret: boolean;
  /** The opening sentence casting the model in a role: no label, the sentence (to `until`) is the value. */
  persona?: boolean;
  until?: number;
}

/** How users label a system prompt, besides the field's own name and title. */
const SYSTEM_LABELS = ['system prompt', 'system message', 'system'];

/** Extra labels for the main negative prompt field: Midjourney's `--no`, and `avoid:`. */
const NEGATIVE_SWITCHES = /(?<![\p{L}\p{N}_-])(?:--(?:no|neg|negative)[ \t]+|avoid\s*:\s*)/giu;
const QUOTES: Record<string, string> = { '"': '"', "'": "'", '“': '”', '‘': '’' };
const TRAILING_JUNK = /(?:[\s,;:]|(?<![\p{L}\p{N}_])(?:and|with|using)(?![\p{L}\p{N}_]))+$/u;

/** Every label for a text or secret field, in text order (longer first at the same position). */
export function findCaptureLabels(context: RuleContext): CaptureLabel[] {
  const labels: CaptureLabel[] = [];
  for (const field of [...context.textFields, ...context.secretFields, ...context.systemFields]) {
    const secret = field.role === 'secret';
    const isPrimary = context.primary.get(field.role) === field;
    const pattern = fieldPattern(field, `capture:${isPrimary}`, () => {
      const extra = field.role === 'system_prompt' && isPrimary ? SYSTEM_LABELS : [];
      const names = [...new Set([...fieldNames(field, isPrimary), ...extra])].sort((a, b) => b.length - a.length).map(phrasePattern).join('|');
      return new RegExp(`(?<![\\p{L}\\p{N}_-])(?:--(?:${names})[ \\t]+|(?:${names})\\s*[=:]\\s*)`, 'giu');
    });
    if (!pattern) continue;
    const stopAtComma = field.role !== 'negative_prompt' && field.role !== 'prompt' && field.role !== 'system_prompt';
    const keepsStop = field.role === 'prompt' || field.role === 'system_prompt';
    for (const match of context.text.matchAll(pattern)) {
      labels.push({ field, start: match.index, valueStart: match.index + match[0].length, form: 'assign', stopAtComma, keepsStop, secret });
    }
    // Inputs with a role of their own (an aspect ratio as free text) have their own rules, which check the value's shape.
    if (field.role === 'other') labels.push(...spacedLabels(context.text, field, isPrimary));
    if (field.role === 'negative_prompt' && isPrimary) {
      for (const match of context.text.matchAll(NEGATIVE_SWITCHES)) {
        const form: DirectiveForm = match[0].startsWith('--') ? 'assign' : 'loose';
        labels.push({ field, start: match.index, valueStart: match.index + match[0].length, form, stopAtComma: false, keepsStop: false, secret: false });
      }
    }
  }
  const persona = personaLabel(context);
  if (persona) labels.push(persona);
  return labels.sort((a, b) => a.start - b.start || b.valueStart - a.valueStart);
}

/**
 * `language en`, `token string MYSTYLE`, `bars color #ff8800`, `caption text 'Episode 12'`: a free-string field's
 * name with its value after a space, no `:` or `=`. Without the separator the value's extent is only plain when it
 * is quoted or one token that ends its clause; anything longer (`language skills of a child`) is the picture's
 * words, so the label is not read.
 */
function spacedLabels(text: string, field: FieldSpec, isPrimary: boolean): CaptureLabel[] {
  const pattern = fieldPattern(field, `spaced:${isPrimary}`, () => {
    const names = fieldNames(field, isPrimary).map(phrasePattern).join('|');
    return new RegExp(`(?<![\\p{L}\\p{N}_-])(?:${names})[ \\t]+(?=["“‘']|${ONE_TOKEN_ENDING_CLAUSE})`, 'giu');
  });
  if (!pattern) return [];
  // The name opens its clause (`…, language en`); after a content word it is the picture's (`a child with language skills`).
  return [...text.matchAll(pattern)].filter((match) => onlyFillerBefore(text, match.index)).map((match) => ({
    field,
    start: match.index,
    valueStart: match.index + match[0].length,
    form: 'named' as const,
    stopAtComma: true,
    keepsStop: false,
    secret: false,
  }));
}

/** One token (no spaces, no clause punctuation) followed by the clause's end: a comma, a line end, a sentence stop. */
const ONE_TOKEN_ENDING_CLAUSE = '[^\\s,;،؛、，；。]+(?=[,;،؛、，；。\\n]|[.!?]*$|[.!?]+\\s)';

/**
 * `You are a pirate who speaks in rhyme. What is the sea?`: the role's sentence, for the primary system prompt.
 * The sentence is the label and the value at once (nothing is cut before it); `loose`, so a labelled system
 * prompt or any explicit phrase wins over it.
 */
function personaLabel(context: RuleContext): CaptureLabel | undefined {
  const field = context.primary.get('system_prompt');
  if (!field || !context.systemFields.includes(field)) return undefined;
  const persona = findPersona(context.text);
  if (!persona) return undefined;
  return { field, start: persona.start, valueStart: persona.start, form: 'loose', stopAtComma: false, keepsStop: true, secret: false, persona: true, until: persona.end };
}

/**
 * Turns labels into directives (a secret's directive sets nothing; it only marks the span to cut). The text runs to the end of the line or sentence, a following ` --flag`, a
 * comma for free strings, or the start of the next explicit directive (`negative prompt: blurry, seed 42`).
 */
export function captureText(text: string, label: CaptureLabel, boundaries: readonly Span[]): Directive | null {
  const quoted = readQuoted(text, label.valueStart);
  let valueEnd: number;
  let end: number;
  let value: string;
  if (quoted) {
    ({ value, end } = quoted);
    valueEnd = end;
  } else {
    valueEnd = label.until ?? (label.secret ? tokenEnd(text, label.valueStart) : stopAfter(text, label.valueStart, label.stopAtComma, label.keepsStop));
    for (const boundary of boundaries) {
      if (boundary.start >= label.valueStart && boundary.start < valueEnd) valueEnd = boundary.start;
    }
    const kept = text.slice(label.valueStart, valueEnd).replace(TRAILING_JUNK, '');
    value = kept.trim();
    end = label.valueStart + kept.length;
  }
  if (value === '') return null;
  return {
    start: label.start,
    end,
    phrase: text.slice(label.start, end),
    form: label.form,
    values: label.secret ? [] : [{ field: label.field.name, value, fit: 'ok' }],
    rule: label.secret ? 'secret' : label.persona ? 'persona' : 'text',
    ...(label.secret ? { withheld: label.field.name } : {}),
  };
}

function readQuoted(text: string, at: number): { value: string; end: number } | null {
  const open = text[at];
  const close = open === undefined ? undefined : QUOTES[open];
  if (close === undefined) return null;
  const closing = text.indexOf(close, at + 1);
  if (closing === -1) return null;
  const value = text.slice(at + 1, closing).trim();
  return { value, end: closing + 1 };
}

function tokenEnd(text: string, from: number): number {
  const match = /[\s,;]/.exec(text.slice(from));
  return match ? from + match.index : text.length;
}

/** Where the captured text ends; a sentence's own stop (`.`, `!`, `?`) stays with it when `keepsStop`. */
function stopAfter(text: string, from: number, stopAtComma: boolean, keepsStop: boolean): number {
  const stop = stopAtComma ? /\n|[,;]|[.!?](?=\s|$)|\s--(?=\p{L})/u : /\n|[.!?](?=\s|$)|\s--(?=\p{L})/u;
  const match = stop.exec(text.slice(from));
  if (!match) return text.length;
  const end = from + match.index;
  return keepsStop && /^[.!?]$/u.test(match[0]) ? end + 1 : end;
}
