/**
 * Which field of a schema takes which kind of setting, read from the schema alone: the field's role, the words
 * of its name and title, its type and its options. No model names, no examples.
 */
import type { FieldSpec } from '../generated/contracts.ts';

/** The lower-case words of an identifier: `num_inference_steps`, `numInferenceSteps` → `num inference steps`. */
export function nameWords(identifier: string): string[] {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-\s]+/g, ' ')
    .trim()
    .toLowerCase()
    .split(' ')
    .filter((word) => word !== '');
}

export function hasOptions(field: FieldSpec): field is FieldSpec & { enum: unknown[] } {
  return Array.isArray(field.enum) && field.enum.length > 0;
}

export function isNumericField(field: FieldSpec): boolean {
  return field.type === 'integer' || field.type === 'number';
}

/** Options that are all numbers, or strings of numbers (`"5.0"`, `"10"`). */
export function numericOptions(field: FieldSpec): boolean {
  return hasOptions(field) && field.enum.every((option) => option !== null && option !== '' && Number.isFinite(Number(option)));
}

/** Words that make a time field something other than how long the output is (`start_seconds`, `fade_duration`). */
const NOT_OUTPUT_LENGTH = new Set(['input', 'offset', 'start', 'end', 'fade', 'crossfade', 'min', 'max', 'chunk', 'segment', 'overlap', 'delay', 'silence', 'prompt', 'penalty', 'hop', 'context', 'continuation', 'interval']);

/** The field that takes how long the output lasts, in seconds: `duration`, `seconds_total`, `audio_length_in_s`. */
export function durationField(fields: readonly FieldSpec[]): FieldSpec | undefined {
  return fields.find((field) => {
    const words = nameWords(field.name);
    if (words.some((word) => NOT_OUTPUT_LENGTH.has(word))) return false;
    const timed = words.includes('duration') || words.includes('seconds') || (words.includes('length') && (words.includes('s') || words.includes('sec')));
    return timed && (isNumericField(field) || numericOptions(field) || (field.type === 'string' && !hasOptions(field) && numericDefault(field)));
  });
}

/** The field that takes a number of frames: `num_frames`, `frames`, `video_frames`. */
export function framesField(fields: readonly FieldSpec[]): FieldSpec | undefined {
  return fields.find((field) => {
    const words = nameWords(field.name);
    return words[words.length - 1] === 'frames' && !words.some((word) => NOT_OUTPUT_LENGTH.has(word) || word === 'per' || word === 'fps') && (isNumericField(field) || numericOptions(field));
  });
}

/** The field for how many outputs: the role the extractor gave it. */
export function countField(fields: readonly FieldSpec[]): FieldSpec | undefined {
  return fields.find((field) => field.role === 'num_outputs' && (isNumericField(field) || numericOptions(field)));
}

export function aspectField(fields: readonly FieldSpec[]): FieldSpec | undefined {
  return fields.find((field) => field.role === 'aspect_ratio' && field.type === 'string');
}

export function roleField(fields: readonly FieldSpec[], role: FieldSpec['role']): FieldSpec | undefined {
  return fields.find((field) => field.role === role);
}

/** A field named for resolution (`resolution`, `video_resolution`, `output_quality` with 1080p-like options). */
export function resolutionField(fields: readonly FieldSpec[]): FieldSpec | undefined {
  return fields.find((field) => {
    const words = nameWords(field.name);
    if (words.some((word) => NOT_OUTPUT_LENGTH.has(word) || word === 'processing' || word === 'input')) return false;
    return words.includes('resolution') && (hasOptions(field) || isNumericField(field) || field.type === 'string');
  });
}

/** Words that make a language field the language of what goes in, not of what comes out. */
const INPUT_LANGUAGE = new Set(['input', 'source', 'src', 'detection', 'prob', 'tries', 'min', 'max', 'from', 'audio', 'video', 'speaker']);

/** The field for the output language: `language`, `target_language`, `tgt_lang`, `output_language`. */
export function languageField(fields: readonly FieldSpec[]): FieldSpec | undefined {
  return fields.find((field) => {
    const words = nameWords(field.name);
    if (field.type !== 'string' || words.some((word) => INPUT_LANGUAGE.has(word))) return false;
    return words.includes('language') || words.includes('lang') || words.includes('languages');
  });
}

function numericDefault(field: FieldSpec): boolean {
  return typeof field.default === 'string' && /^\d+(?:\.\d+)?$/.test(field.default);
}
